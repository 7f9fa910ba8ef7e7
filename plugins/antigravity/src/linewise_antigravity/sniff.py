"""How surely the first lines of a log are Antigravity CLI's stream-json."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from linewise_contracts.extract import parse_json_object

__all__ = ["sniff"]

# agy's envelope: {"event": KIND, KIND: {...}}, with a closed set of kinds.
_EVENTS: Final = frozenset({"init", "step_update", "result"})


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``agy -p --output-format stream-json`` wrote ``lines``.

    Every JSON line must be agy's envelope: an ``event`` naming one of
    ``init``, ``step_update`` or ``result`` and the object of the same name
    beside it, with no ``type`` field (which every other CLI's events carry).
    Plain text lines are tolerated while agy's events outnumber them.
    """
    events = other = 0
    for line in lines:
        event = parse_json_object(line)
        if event is None:
            other += line.strip() != ""
            continue
        kind = event.get("event")
        if "type" in event or type(kind) is not str or kind not in _EVENTS:
            return 0.0
        if type(event.get(kind)) is not dict:
            return 0.0
        events += 1
    if not events or other > events:
        return 0.0
    return 0.95 if other == 0 else 0.85
