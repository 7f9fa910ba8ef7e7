"""The list page's filters: CLI, project, model, dates and outcome, from the URL's query."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from datetime import date

from linewise_serve._host import SessionInfo

__all__ = ["FilterError", "SessionFilter"]


class FilterError(ValueError):
    """A filter's value is not one the list understands (a date that is not a date)."""


def _day(text: str | None, name: str) -> str | None:
    if not text:
        return None
    try:
        return date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise FilterError(f"{name}: not a date: {text!r} (for example 2026-01-31)") from None


@dataclass(frozen=True, slots=True)
class SessionFilter:
    """What the list keeps; every filter is optional, text matches ignore case.

    ``cli`` and ``outcome`` match whole; ``project`` and ``model`` are found in
    the session's working directory (or path) and model name; ``since`` and
    ``until`` are UTC dates, both included, compared with the session's last
    activity and its start.
    """

    cli: str | None = None
    project: str | None = None
    model: str | None = None
    since: str | None = None
    until: str | None = None
    outcome: str | None = None

    @classmethod
    def from_query(cls, query: Mapping[str, str]) -> SessionFilter:
        """The filter a URL's query asks for; raises :class:`FilterError` on a bad date."""
        values = {
            field.name: (query.get(field.name) or "").strip() or None for field in fields(cls)
        }
        values["since"] = _day(values["since"], "since")
        values["until"] = _day(values["until"], "until")
        return cls(**values)

    def keeps(self, info: SessionInfo) -> bool:
        if self.cli is not None and info.cli.casefold() != self.cli.casefold():
            return False
        if self.outcome is not None and info.outcome.casefold() != self.outcome.casefold():
            return False
        if self.project is not None:
            needle = self.project.casefold()
            if needle not in (info.project or "").casefold() and needle not in info.path.casefold():
                return False
        if self.model is not None and self.model.casefold() not in (info.model or "").casefold():
            return False
        if self.since is not None and info.newest[:10] < self.since:
            return False
        start = (info.started or info.newest)[:10]
        return not (self.until is not None and (not start or start > self.until))

    def query(self) -> dict[str, str]:
        """The URL query that asks for this filter (empty filters left out)."""
        return {
            field.name: value
            for field in fields(self)
            if (value := getattr(self, field.name)) is not None
        }
