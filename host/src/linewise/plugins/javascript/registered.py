"""Registered JavaScript parsers as importable objects: ``…javascript.registered:TYPE``.

The registry loads a JavaScript parser through the same entry point path
as a Python plugin; getting the attribute named after an adapter type here
checks the registration's copies against their hashes, reads the module and
starts it once in a throwaway context, and hands back a :class:`JavaScriptTarget`.
"""

from __future__ import annotations

from linewise.errors import JavaScriptLoadError
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

__all__ = ["JavaScriptTarget", "load_target"]

_AGAIN = "register it again: linewise js add SOURCE --as {type}"


class JavaScriptTarget:
    """A loaded JavaScript parser in the shape of a Python plugin module's exports."""

    def __init__(self, registration: Registration, module: ParserModule, used: str) -> None:
        self.registration = registration
        self.module = module
        #: The module's export that makes parsers: createStdoutParser or parseStdoutLine.
        self.used_export = used
        self.label = registration.description or f"{registration.package} (JavaScript)"

    def create_stdout_parser(self) -> JavaScriptParser:
        """A parser for one transcript, in a context of its own (started on first use)."""
        return JavaScriptParser(self.module, EngineLimits.from_environment())


def load_target(adapter_type: str, limits: EngineLimits | None = None) -> JavaScriptTarget:
    """The registered parser of ``adapter_type``; raises :class:`JavaScriptLoadError`."""
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
        _, used = start_context(module, limits or EngineLimits.from_environment())
    except JavaScriptError as error:
        raise JavaScriptLoadError(
            "exports" if error.stage == "exports" else "import",
            f"{registration.module_path}: {error}",
            "export createStdoutParser() or parseStdoutLine(line, ts) and only define "
            "functions at module level",
        ) from None
    return JavaScriptTarget(registration, module, used)


def __getattr__(name: str) -> JavaScriptTarget:
    if name.startswith("__"):
        raise AttributeError(name)
    return load_target(name)
