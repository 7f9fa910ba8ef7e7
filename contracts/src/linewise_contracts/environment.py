"""Environment checks a plugin runs to tell whether its agent CLI can run here."""

from __future__ import annotations

import shutil
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

__all__ = [
    "CheckLevel",
    "CheckStatus",
    "EnvironmentCheck",
    "command_check",
    "overall_status",
    "variable_check",
]

CheckLevel: TypeAlias = Literal["info", "warn", "error"]
CheckStatus: TypeAlias = Literal["pass", "warn", "fail"]


@dataclass(frozen=True, slots=True, kw_only=True)
class EnvironmentCheck:
    """One finding: ``error`` means the CLI cannot run, ``warn`` that it can but
    something matters (an API key overriding a subscription, say), ``info`` that
    a check passed. ``code`` is stable and machine-readable."""

    code: str
    level: CheckLevel
    message: str
    detail: str | None = None
    hint: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The check as a JSON-compatible dict."""
        return {
            "code": self.code,
            "level": self.level,
            "message": self.message,
            "detail": self.detail,
            "hint": self.hint,
        }


def overall_status(checks: Iterable[EnvironmentCheck]) -> CheckStatus:
    """``fail`` if any check is an error, else ``warn`` if any warns, else ``pass``."""
    levels = {check.level for check in checks}
    if "error" in levels:
        return "fail"
    if "warn" in levels:
        return "warn"
    return "pass"


def _names(names: str | Sequence[str]) -> Sequence[str]:
    # A lone string is one name, not a sequence of one-letter names.
    return (names,) if isinstance(names, str) else names


def command_check(
    names: str | Sequence[str],
    *,
    environ: Mapping[str, str],
    found_code: str,
    found_message: str,
    missing_code: str,
    missing_message: str,
    hint: str,
    path_as_detail: bool = True,
) -> EnvironmentCheck:
    """``info`` when one of ``names`` is an executable on ``environ``'s PATH, else an ``error``.

    Names are tried in order and the first found wins; a missing or empty PATH
    finds nothing (the process's own PATH is never consulted). ``found_message``
    is formatted with ``name`` (the command found) and ``path`` (where), so
    literal braces in it are doubled; the path is also the detail unless
    ``path_as_detail`` is false, for a message that already shows it. The
    ``error`` carries ``hint``, how to install the CLI.
    """
    search = environ.get("PATH", "")
    for name in _names(names):
        path = shutil.which(name, path=search)
        if path:
            return EnvironmentCheck(
                code=found_code,
                level="info",
                message=found_message.format(name=name, path=path),
                detail=path if path_as_detail else None,
            )
    return EnvironmentCheck(code=missing_code, level="error", message=missing_message, hint=hint)


def variable_check(
    names: str | Sequence[str],
    *,
    environ: Mapping[str, str],
    present_code: str,
    present_message: str,
    missing_code: str,
    missing_message: str,
    hint: str,
    missing_level: Literal["warn", "error"] = "warn",
    missing_detail: str | None = None,
    names_as_detail: bool = False,
) -> EnvironmentCheck:
    """``info`` when any of ``names`` is set in ``environ``, else a warning with ``hint``.

    A blank value counts as unset. Values are never reported, since they are
    usually secrets: with ``names_as_detail`` the ``info`` check's detail lists
    the names that are set (comma-separated). ``missing_level`` makes the
    absence an ``error`` where the CLI cannot run without one of them.
    """
    present = [name for name in _names(names) if environ.get(name, "").strip()]
    if present:
        return EnvironmentCheck(
            code=present_code,
            level="info",
            message=present_message,
            detail=", ".join(present) if names_as_detail else None,
        )
    return EnvironmentCheck(
        code=missing_code,
        level=missing_level,
        message=missing_message,
        detail=missing_detail,
        hint=hint,
    )
