"""How surely the first lines of a log are Cline CLI's ``--json`` output."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.sniffing import score_json_events

__all__ = ["sniff"]

_TYPES: Final = frozenset({"hook_event", "agent_event", "run_result", "error", "say", "ask"})


def _verdict(event: dict[str, Any]) -> bool | None:
    kind = event.get("type")
    if type(kind) is not str or kind not in _TYPES:
        return False
    if kind == "hook_event":
        return "hookEventName" in event
    if kind == "agent_event":
        inner = event.get("event")
        return type(inner) is dict and type(inner.get("type")) is str
    if kind == "run_result":
        return "finishReason" in event
    return None  # errors: every CLI writes them


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``cline --json`` wrote ``lines``.

    One event must be Cline's own (``hook_event`` with ``hookEventName``,
    ``agent_event`` wrapping an event, ``run_result`` with ``finishReason``)
    and none another CLI's; plain text lines (Cline prints ``[warn]`` notes)
    are tolerated while events outnumber them.
    """
    return score_json_events(lines, _verdict)
