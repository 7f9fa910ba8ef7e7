"""Environment checks a plugin runs to tell whether its agent CLI can run here."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

__all__ = ["CheckLevel", "CheckStatus", "EnvironmentCheck", "overall_status"]

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
