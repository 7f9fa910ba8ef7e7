"""A package's public names imported on first use (contract 1.8).

The host imports a plugin's package whenever it reads the package's declared
agent: an entry point names ``linewise_x:agent.x_local``, and auto-detection
asks every installed format's ``sniff``. A package whose ``__init__`` imports its
parser, formatter and summary makes every detection pay for every plugin's
modules. A plugin keeps its ``__init__`` light by declaring the agent's callables
as ``"module:attribute"`` references (imported when the host loads that format)
and serving its public names through :func:`lazy_names`::

    from linewise_contracts.lazy import lazy_names

    __getattr__, __dir__ = lazy_names(
        __name__,
        {
            "create_stdout_parser": "linewise_x.parser",
            "summarize_run": "linewise_x.summary",
            "model_totals": "linewise_x.usage:totals",  # another name in its module
        },
    )

A name is imported from its module the first time it is read (``import
linewise_x; linewise_x.summarize_run`` or ``from linewise_x import
summarize_run``) and kept in the package, so later reads are plain attribute
lookups. Type checkers do not follow the table: import the names under
``if TYPE_CHECKING:`` as well (``from linewise_x.parser import
create_stdout_parser as create_stdout_parser``), and list them in ``__all__``.
A public name must not be the name of a submodule of the package: importing
the submodule would bind the module under that name instead (keep such a
name, ``sniff`` from ``sniff.py`` say, as an ordinary import in ``__init__``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

__all__ = ["lazy_names"]


def _source(package: str, name: str, where: object) -> tuple[str, str]:
    if type(where) is not str or not where.strip():
        raise TypeError(f"lazy_names({package!r}): {name!r} must name a module, not {where!r}")
    module, _, attribute = where.partition(":")
    module, attribute = module.strip(), attribute.strip() or name
    if not all(part.isidentifier() for part in (*module.split("."), *attribute.split("."))):
        raise ValueError(
            f"lazy_names({package!r}): {where!r} (for {name!r}) is not 'module' or "
            "'module:attribute'"
        )
    return module, attribute


def lazy_names(
    package: str, names: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module-level ``__getattr__`` and ``__dir__`` (PEP 562) that serve ``names`` of
    ``package`` (its ``__name__``): each public name with the module it is imported from,
    ``"module"`` (the same name there) or ``"module:attribute"``.

    Raises ``TypeError`` or ``ValueError`` at once for a table entry that names no module,
    and ``KeyError`` when ``package`` is not being imported. A name that is not in the
    table raises ``AttributeError``, as for any module.
    """
    module = sys.modules[package]
    table = {name: _source(package, name, where) for name, where in names.items()}

    def __getattr__(name: str) -> Any:
        source = table.get(name)
        if source is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value: Any = import_module(source[0])
        for part in source[1].split("."):
            value = getattr(value, part)
        setattr(module, name, value)  # kept: the next read is a plain attribute lookup
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(module), *table})

    return __getattr__, __dir__
