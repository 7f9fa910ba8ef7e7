"""Usage reports: sessions grouped by day, week, month, session, model or project, with totals."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Final, Literal, TypeAlias

from linewise.sessions.usage._record import UsageRecord
from linewise.sessions.usage._totals import Contribution, Totals

__all__ = ["GROUPINGS", "Grouping", "Report", "session_keys", "usage_report"]

Grouping: TypeAlias = Literal["daily", "weekly", "monthly", "session", "model", "project"]
#: Every grouping, in the order ``linewise usage --help`` lists them.
GROUPINGS: Final[tuple[Grouping, ...]] = (
    "daily",
    "weekly",
    "monthly",
    "session",
    "model",
    "project",
)
#: The key a session without a time (or a project) is filed under.
UNDATED: Final = "(no time)"
NO_PROJECT: Final = "(no project)"


@dataclass(frozen=True, slots=True)
class Report:
    """Rows (key, totals) in order, and the totals over every session."""

    grouping: Grouping
    rows: list[tuple[str, Totals]]
    total: Totals


def _day(record: UsageRecord) -> str:
    return record.when[:10] if record.when else UNDATED


def _week(record: UsageRecord) -> str:
    """The ISO week's Monday (UTC), as a date."""
    if not record.when:
        return UNDATED
    day = date.fromisoformat(record.when[:10])
    return (day - timedelta(days=day.weekday())).isoformat()


def _month(record: UsageRecord) -> str:
    return record.when[:7] if record.when else UNDATED


_KEYS: Final[dict[str, Callable[[UsageRecord], str]]] = {
    "daily": _day,
    "weekly": _week,
    "monthly": _month,
    "project": lambda record: record.project or NO_PROJECT,
}


def usage_report(records: Iterable[UsageRecord], grouping: Grouping) -> Report:
    """``records`` grouped; rows sorted by key (time order for the time groupings).

    By ``model``, a session counts in the row of each model it used, with that
    model's tokens and cost (the session total counts once in the totals).
    """
    records = list(records)
    rows: dict[str, Totals] = {}
    total = Totals()
    if grouping == "session":
        keys = session_keys(records)
    elif grouping != "model":
        keys = [_KEYS[grouping](record) for record in records]
    else:
        keys = [""] * len(records)
    for record, key in zip(records, keys, strict=True):
        part = record.contribution()
        total.add(part, record.started, record.ended)
        if grouping == "model":
            for model, row in _single_models(record):
                rows.setdefault(model, Totals()).add(row, record.started, record.ended)
            continue
        rows.setdefault(key, Totals()).add(part, record.started, record.ended)
    if grouping == "session":
        ordered = sorted(rows.items(), key=lambda item: (item[1].first or "", item[0]))
    else:
        ordered = sorted(rows.items(), key=lambda item: (item[0] == UNDATED, item[0]))
    return Report(grouping, ordered, total)


def session_keys(records: list[UsageRecord]) -> list[str]:
    """Each session's row key, in order: its CLI and id, with its file when another session
    (a copy, or the file of a resumed session) has the same id."""
    plain = [f"{record.cli} {record.session}" for record in records]
    counts: dict[str, int] = {}
    for key in plain:
        counts[key] = counts.get(key, 0) + 1
    return [
        key if counts[key] == 1 else f"{key} {record.path}"
        for record, key in zip(records, plain, strict=True)
    ]


def _single_models(record: UsageRecord) -> Iterable[tuple[str, Contribution]]:
    for model, (tokens, cost) in record.contribution().models.items():
        yield (
            model,
            Contribution(
                tokens, cost, record.cost_source, {model: (tokens, cost)}, record.file_dated
            ),
        )
