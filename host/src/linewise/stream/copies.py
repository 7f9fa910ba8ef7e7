"""Validated copies: what a parser returned, copied out of its reach, checked and bounded."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.validation import MAX_JSON_DEPTH, entry_problem

__all__ = [
    "OUTPUT_FACTOR",
    "OUTPUT_FLOOR",
    "copy_container",
    "output_budget",
    "snapshot",
    "validated_copies",
]

#: Called with why entries were dropped and how many.
Drop = Callable[[str, int], None]

#: Text one line may produce: this many characters per input character, plus a floor.
OUTPUT_FACTOR: Final = 16
OUTPUT_FLOOR: Final = 1024 * 1024
_SCALAR_SIZE: Final = 8


def output_budget(line: str) -> int:
    """How many characters the entries of ``line`` may hold in all."""
    return OUTPUT_FACTOR * len(line) + OUTPUT_FLOOR


def copy_container(value: Any, depth: int) -> tuple[Any, int]:
    """A copy of a JSON-shaped container the parser cannot reach any more, and its size.

    Containers deeper than the contract allows are left as they are: validation refuses them.
    """
    if depth > MAX_JSON_DEPTH:
        return value, 0
    size = 0
    if type(value) is dict:
        copied: dict[Any, Any] = {}
        for key, item in value.items():
            kind = type(item)
            if kind is str:
                size += len(item)
            elif kind is dict or kind is list:
                item, cost = copy_container(item, depth + 1)  # noqa: PLW2901 - the copy replaces it
                size += cost
            else:
                size += _SCALAR_SIZE
            copied[key] = item
            size += len(key) if type(key) is str else _SCALAR_SIZE
        return copied, size
    items: list[Any] = []
    for item in value:
        kind = type(item)
        if kind is str:
            size += len(item)
        elif kind is dict or kind is list:
            item, cost = copy_container(item, depth + 1)  # noqa: PLW2901 - the copy replaces it
            size += cost
        else:
            size += _SCALAR_SIZE
        items.append(item)
    return items, size


def snapshot(entry: Any) -> tuple[Any, int]:
    """A copy of an entry and the characters it costs (flat entries take the fast path)."""
    if type(entry) is not dict:
        return entry, 0
    copied = entry.copy()
    size = 0
    for key, value in copied.items():
        kind = type(value)
        if kind is str:
            size += len(value)
        elif kind is dict or kind is list:
            copied[key], cost = copy_container(value, 1)
            size += cost
        else:
            size += _SCALAR_SIZE
    return copied, size


def validated_copies(
    result: list[Any], *, limit: int, budget: int | None, source: str, drop: Drop
) -> list[TranscriptEntry]:
    """Copies of the valid entries of ``result``; the rest dropped and counted through ``drop``.

    At most ``limit`` entries are kept (``source`` says where the rest came
    from); with a ``budget``, entries beyond that many characters are dropped too.
    """
    kept: list[TranscriptEntry] = []
    for index, original in enumerate(result):
        if index >= limit:
            drop(f"more than {limit} entries from {source}", len(result) - index)
            break
        entry, size = snapshot(original)
        problem = entry_problem(entry)
        if problem is not None:
            drop(problem, 1)
            continue
        if budget is not None:
            budget -= size
            if budget < 0:
                drop("entries of one line exceed its output budget", 1)
                continue
        kept.append(entry)
    return kept
