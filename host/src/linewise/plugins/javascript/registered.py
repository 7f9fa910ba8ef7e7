"""Registered JavaScript parsers loaded as the registry loads a plugin's entry point.

The registry loads a JavaScript registration (discovered as
``…javascript.registered:TYPE``) with :func:`load_target`, handing it the
registry's :class:`~linewise.settings.environment.Settings`: it checks the
registration's copies against their hashes, reads the module and starts it
once in a throwaway context, and hands back a :class:`JavaScriptTarget` whose
parsers run under the limits those settings give.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from linewise.plugins.javascript._engine import (
    EngineLimits,
    JavaScriptError,
    JavaScriptParser,
    engine_missing,
    start_context,
)
from linewise.plugins.javascript._module import ModuleError, ParserModule, read_module
from linewise.plugins.javascript._store import (
    Registration,
    StoreError,
    read_registration,
    verified_module,
)
from linewise.settings.errors import JavaScriptLoadError

if TYPE_CHECKING:
    from linewise.settings.environment import Settings

__all__ = ["JavaScriptTarget", "load_target"]

_AGAIN = "register it again: linewise js add SOURCE --as {type}"


class JavaScriptTarget:
    """A loaded JavaScript parser in the shape of a Python plugin module's exports."""

    def __init__(
        self, registration: Registration, module: ParserModule, used: str, limits: EngineLimits
    ) -> None:
        self.registration = registration
        self.module = module
        #: Each parser's time and heap limits.
        self.limits = limits
        #: The module's export that makes parsers: createStdoutParser or parseStdoutLine.
        self.used_export = used
        self.label = registration.description or f"{registration.package} (JavaScript)"

    def create_stdout_parser(self) -> JavaScriptParser:
        """A parser for one transcript, in a context of its own (started on first use)."""
        return JavaScriptParser(self.module, self.limits)


def load_target(adapter_type: str, settings: Settings) -> JavaScriptTarget:
    """The registered parser of ``adapter_type``, limited as ``settings`` ask; raises
    :class:`JavaScriptLoadError`."""
    limits = EngineLimits.from_settings(settings)
    missing = engine_missing()
    if missing is not None:
        raise JavaScriptLoadError(
            "import", missing, "install the extra, then run the command again"
        )
    hint = _AGAIN.format(type=adapter_type)
    try:
        registration = read_registration(adapter_type)
        source = verified_module(registration)
    except StoreError as error:
        raise JavaScriptLoadError("import", str(error), hint) from None
    try:
        module = read_module(source, registration.module_path)
    except ModuleError as error:
        raise JavaScriptLoadError(
            "import",
            f"{registration.module_path} cannot run here: {error}",
            "a ui-parser must be one self-contained file with zero imports",
        ) from None
    try:
        _, used = start_context(module, limits)
    except JavaScriptError as error:
        raise JavaScriptLoadError(
            "exports" if error.stage == "exports" else "import",
            f"{registration.module_path}: {error}",
            "export createStdoutParser() or parseStdoutLine(line, ts) and only define "
            "functions at module level",
        ) from None
    return JavaScriptTarget(registration, module, used, limits)
