"""Optional dependencies: imported only when used, with the extra to install when missing."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from linewise.settings.errors import LinewiseError

__all__ = ["MissingExtraError", "require"]


class MissingExtraError(LinewiseError, ImportError):
    """A feature needs an optional extra of linewise that is not installed."""

    def __init__(self, extra: str, module: str) -> None:
        self.extra = extra
        self.module = module
        super().__init__(
            f"this needs {module}, which is not installed; "
            f"install it with: pip install 'linewise[{extra}]'"
        )


def require(extra: str, module: str) -> Any:
    """Import ``module`` from the optional ``extra``; MissingExtraError when it is absent."""
    try:
        return import_module(module)
    except ImportError as error:
        if error.name is not None and module.partition(".")[0] != error.name.partition(".")[0]:
            raise  # the module is there but broken: not a missing extra
        raise MissingExtraError(extra, module) from error
