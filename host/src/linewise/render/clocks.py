"""A run's clock: which entry times are the events' own and which are the file's, and its span."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Final

__all__ = ["FILE_TIME_NOTE", "RunClock", "utc_span"]

#: What a time no event carried is, said where such a time is shown.
FILE_TIME_NOTE: Final = (
    "file time: this entry has no time of its own; shown is the file's modification time (or --ts)"
)


def _utc(ts: str | None) -> datetime | None:
    try:
        return datetime.fromisoformat(ts or "").astimezone(UTC)
    except (ValueError, TypeError, OverflowError):
        return None


def utc_span(first: str | None, last: str | None) -> str | None:
    """``2026-11-27 22:41-23:05 UTC`` with an en dash (the end's date only on another day).

    None when a time is unreadable.
    """
    start, end = _utc(first), _utc(last)
    if start is None or end is None:
        return None
    head = start.strftime("%Y-%m-%d %H:%M")
    tail = end.strftime("%H:%M" if end.date() == start.date() else "%Y-%m-%d %H:%M")
    return f"{head} UTC" if tail == start.strftime("%H:%M") else f"{head}\N{EN DASH}{tail} UTC"


class RunClock:
    """The first and last of the events' own times, told apart from the file's time.

    ``file_ts`` is the time the host stamped on entries whose line carried none
    (a file's modification time); None when the host gave none or did not say,
    then no time can be told apart and every time counts as the entry's.
    """

    __slots__ = ("file_timed", "file_ts", "first", "last")

    def __init__(self, file_ts: str | None = None) -> None:
        # A plain class: a dataclass cost ~4 M instructions to build at import.
        self.file_ts = file_ts
        self.first: str | None = None
        self.last: str | None = None
        self.file_timed = 0

    def is_file_time(self, ts: object) -> bool:
        return self.file_ts is not None and ts == self.file_ts

    def add(self, ts: object) -> None:
        """Note one entry's time (times equal to the file's are counted, not spanned)."""
        if not isinstance(ts, str) or not ts:
            return
        if self.is_file_time(ts):
            self.file_timed += 1
            return
        self.first = self.first or ts
        self.last = ts

    def footer(self) -> str | None:
        """The run's date and time span in words, saying where the times came from."""
        span = utc_span(self.first, self.last)
        if span is not None:
            if self.file_ts is None:
                return f"when: {span}, from the entries' times"
            source = "from the events' own times"
            if self.file_timed:
                plural = "y" if self.file_timed == 1 else "ies"
                source += f"; {self.file_timed:,} entr{plural} without one not counted"
            return f"when: {span}, {source}"
        if self.file_timed:
            file_span = utc_span(self.file_ts, self.file_ts)
            return f"when: not known, no entry had a time of its own (file time {file_span})"
        return None
