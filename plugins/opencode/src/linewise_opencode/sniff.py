"""How surely the first lines of a log are OpenCode ``run --format json`` output."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.extract import parse_json_object

__all__ = ["sniff"]

# Event types `opencode run --format json` writes; a JSON line of any other type
# (Gemini's "init", Claude's "system", Codex's "thread.started" ...) means another
# CLI wrote the log.
_OPENCODE_TYPES: Final = frozenset(
    {"step_start", "step_finish", "text", "reasoning", "tool_use", "error", "done"}
)
# The part types OpenCode's events wrap, one per event type.
_PART_TYPES: Final = frozenset({"step-start", "step-finish", "text", "reasoning", "tool"})


def _one_of(value: object, names: frozenset[str]) -> bool:
    # A list or object is unhashable: `in` on a frozenset would raise.
    return type(value) is str and value in names


def _distinctive(event: dict[str, Any]) -> bool:
    """An OpenCode part (``part.type`` with a dash, ``callID``) or its ``sessionID``."""
    part = event.get("part")
    if isinstance(part, dict) and (_one_of(part.get("type"), _PART_TYPES) or "callID" in part):
        return True
    if event.get("type") == "step_finish":
        return isinstance(part, dict) and isinstance(part.get("tokens"), dict)
    return isinstance(event.get("sessionID"), str) and isinstance(part, dict)


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``opencode run --format json`` wrote ``lines``.

    Every JSON line must be an OpenCode event type and at least one must wrap
    an OpenCode part (``"part": {"type": "step-start", ...}``, a tool part with
    ``callID``, a ``step_finish`` with ``tokens``); plain text is tolerated
    while JSON events dominate.
    """
    events = 0
    distinctive = 0
    other = 0
    for line in lines:
        event = parse_json_object(line)
        if event is None:
            other += 1
            continue
        kind = event.get("type")
        if kind is None and "error" in event:
            events += 1  # the bare {"error": ...} object of a failed run
            continue
        if not _one_of(kind, _OPENCODE_TYPES):
            return 0.0
        events += 1
        distinctive += _distinctive(event)
    if not events or other > events:
        return 0.0
    if distinctive:
        return 0.95 if other == 0 else 0.85
    # Only bare error or text events: too little to tell.
    return 0.3
