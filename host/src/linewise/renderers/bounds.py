"""What one entry may cost a display: long text and deep tool inputs shortened, and said so."""

from __future__ import annotations

from typing import Final

from linewise_contracts.extract import to_json_text

__all__ = ["HTML_TEXT_LIMIT", "json_display", "shorten"]

#: Characters of one piece of text an HTML page shows before it says what it left out.
HTML_TEXT_LIMIT: Final = 256 * 1024


def shorten(text: str, limit: int, *, hint: str = "") -> str:
    """``text`` cut to ``limit`` characters with a note of how much was hidden."""
    if len(text) <= limit:
        return text
    more = len(text) - limit
    note = f"… {more:,} more character{'s' if more != 1 else ''} not shown"
    return text[:limit] + note + (f" ({hint})" if hint else "")


def json_display(value: object, limit: int, *, hint: str = "") -> str:
    """A tool input as readable JSON, never more than ``limit`` characters (plus the note).

    Pretty-printing is guarded (``to_json_text``): deeply nested input, whose
    indentation grows with its depth, falls back to compact JSON, and the text
    is then cut to the limit, so a short line of log cannot become megabytes of page.
    """
    return shorten(to_json_text(value, pretty=True), limit, hint=hint)
