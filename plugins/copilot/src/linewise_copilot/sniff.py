"""How surely the first lines of a file are a GitHub Copilot CLI session's events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.extract import parse_json_object

__all__ = ["sniff"]

# The namespaces of Copilot CLI's event types ("session.start", "tool.execution_complete" ...).
_NAMESPACES: Final = frozenset(
    {"session", "user", "assistant", "tool", "system", "subagent", "hook", "skill"}
)


def _is_event(event: dict[str, Any]) -> bool:
    kind = event.get("type")
    if type(kind) is not str or not isinstance(event.get("data"), dict):
        return False
    namespace = kind.split(".", 1)[0]
    return (namespace in _NAMESPACES and "." in kind) or kind == "abort"


def _distinctive(event: dict[str, Any]) -> bool:
    """An event with Copilot's envelope: ``id``, ``timestamp`` and ``parentId`` beside ``data``."""
    return (
        isinstance(event.get("id"), str)
        and isinstance(event.get("timestamp"), str)
        and "parentId" in event
    )


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``lines`` open a Copilot CLI ``events.jsonl``.

    Every line must be an event ``{type: "<namespace>.<name>", data: {...}}``
    and one at least must carry the whole envelope (``id``, ``timestamp``,
    ``parentId``); a ``session.start`` from ``copilot-agent`` settles it.
    """
    events = 0
    distinctive = 0
    for line in lines:
        event = parse_json_object(line)
        if event is None or not _is_event(event):
            return 0.0
        events += 1
        distinctive += _distinctive(event)
    if not events or not distinctive:
        return 0.0
    return 0.95
