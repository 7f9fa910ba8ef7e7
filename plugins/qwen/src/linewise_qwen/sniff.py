"""How surely the first lines of a log are Qwen Code's ``-o stream-json`` stdout."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.extract import as_object, parse_json_object

__all__ = ["sniff"]

# Qwen writes Claude's message types (types.ts: CLIMessage and the control messages).
_TYPES: Final = frozenset(
    {
        "system",
        "assistant",
        "user",
        "result",
        "stream_event",
        "control_request",
        "control_response",
        "control_cancel_request",
    }
)


def _qwen_only(event: dict[str, Any]) -> bool:
    """What only Qwen writes: its version in the init line, goal events, ``session_start``."""
    kind = event.get("type")
    if kind == "system":
        return "qwen_code_version" in event or event.get("subtype") == "session_start"
    if kind == "stream_event":
        return as_object(event.get("event")).get("type") in ("goal_state", "active_goal")
    return False


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``qwen -p ... -o stream-json`` wrote ``lines``.

    Every JSON line must be one of the message types Qwen writes (Claude's
    envelope), and one must be Qwen's own: the ``system`` init naming
    ``qwen_code_version``, a ``session_start`` system message, or a
    ``goal_state`` / ``active_goal`` stream event. Claude Code's stream
    (no such line) scores 0 here; plain text lowers the score.
    """
    events = qwen = other = 0
    for line in lines:
        event = parse_json_object(line)
        if event is None:
            other += line.strip() != ""
            continue
        kind = event.get("type")
        if type(kind) is not str or kind not in _TYPES or "parentUuid" in event:
            return 0.0
        events += 1
        qwen += _qwen_only(event)
    if not qwen or other > events:
        return 0.0
    return 0.97 if other == 0 else 0.9
