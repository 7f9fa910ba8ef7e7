"""The time cursor-agent writes into a prompt, ``<timestamp>... (UTC-7)</timestamp>``."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Final

from linewise_contracts.extract import iso_timestamp

__all__ = ["STAMP", "prompt_time"]

#: A prompt's ``<timestamp>`` element.
#: Bounded, no nested quantifiers: "Sunday, Aug 2, 2026, 3:51 AM (UTC-7)"; the weekday is optional.
STAMP: Final = re.compile(
    r"<timestamp>\s{0,8}(?:[A-Za-z]{3,9},\s{1,4})?([A-Za-z]{3,9})\.?\s{1,4}(\d{1,2}),\s{1,4}"
    r"(\d{4}),?\s{1,4}(\d{1,2}):(\d{2})(?::(\d{2}))?\s{0,4}([AaPp][Mm])?\s{0,4}"
    r"\(UTC(?:([+-])(\d{1,2})(?::?(\d{2}))?)?\)\s{0,8}</timestamp>"
)
_MONTHS: Final = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ),
        1,
    )
    for name in names
}


def prompt_time(text: str) -> str | None:
    """The ``<timestamp>`` of a prompt as ISO 8601 UTC, or None without one or its UTC offset.

    Without the ``(UTC±H)`` part the wall time names no moment, so none is guessed.
    """
    match = STAMP.search(text, 0, 4096)
    if match is None:
        return None
    month_name, day, year, hour, minute, second, half, sign, off_hours, off_minutes = match.groups()
    month = _MONTHS.get(month_name.lower())
    if month is None:
        return None
    clock = int(hour)
    if half is not None:
        if not 1 <= clock <= 12:
            return None
        clock = clock % 12 + (12 if half.lower() == "pm" else 0)
    offset = int(off_hours or 0) * 60 + int(off_minutes or 0)
    try:
        wall = datetime(int(year), month, int(day), clock, int(minute), int(second or 0))
    except ValueError:
        return None
    moment = wall - timedelta(minutes=-offset if sign == "-" else offset)
    return iso_timestamp(moment.replace(tzinfo=UTC).isoformat())
