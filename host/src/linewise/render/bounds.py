"""What one entry may cost a display: long text and deep tool inputs shortened, and said so."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from linewise_contracts.extract import to_json_text

__all__ = ["HTML_TEXT_LIMIT", "json_display", "shorten"]

#: Characters of one piece of text an HTML page shows before it says what it left out.
HTML_TEXT_LIMIT: Final = 256 * 1024
#: Nesting beyond which a value is shown as compact JSON: indentation grows with depth.
PRETTY_DEPTH: Final = 16


def _deeper_than(value: object, limit: int) -> bool:
    """Whether ``value`` nests lists and objects more than ``limit`` deep (an iterative walk)."""
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Iterable[object] = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        if depth >= limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def shorten(text: str, limit: int, *, hint: str = "") -> str:
    """``text`` cut to ``limit`` characters with a note of how much was hidden."""
    if len(text) <= limit:
        return text
    more = len(text) - limit
    note = f"… {more:,} more character{'s' if more != 1 else ''} not shown"
    return text[:limit] + note + (f" ({hint})" if hint else "")


def json_display(value: object, limit: int, *, hint: str = "") -> str:
    """A tool input as readable JSON, never more than ``limit`` characters (plus the note).

    Pretty-printing is guarded: input nested more than :data:`PRETTY_DEPTH`
    deep, whose indentation would grow with its depth, is shown as compact
    JSON, and the text is then cut to the limit, so a short line of log cannot
    become megabytes of page.
    """
    pretty = not _deeper_than(value, PRETTY_DEPTH)
    return shorten(to_json_text(value, pretty=pretty), limit, hint=hint)
