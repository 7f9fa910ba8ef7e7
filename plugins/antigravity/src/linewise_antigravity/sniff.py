"""How surely the first lines of a log are Antigravity CLI's stream-json."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.sniffing import score_json_events

__all__ = ["sniff"]

# agy's envelope: {"event": KIND, KIND: {...}}, with a closed set of kinds.
_EVENTS: Final = frozenset({"init", "step_update", "result"})


def _verdict(event: dict[str, Any]) -> bool:
    """An agy event is agy's own; any other JSON object is another CLI's."""
    kind = event.get("event")
    if "type" in event or type(kind) is not str or kind not in _EVENTS:
        return False
    return type(event.get(kind)) is dict


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``agy -p --output-format stream-json`` wrote ``lines``.

    Every JSON line must be agy's envelope: an ``event`` naming one of
    ``init``, ``step_update`` or ``result`` and the object of the same name
    beside it, with no ``type`` field (which every other CLI's events carry).
    Plain text lines are tolerated while agy's events outnumber them.
    """
    return score_json_events(lines, _verdict)
