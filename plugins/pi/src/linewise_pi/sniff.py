"""How surely the first lines of a log are Pi's JSON event stream."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.extract import parse_json_object

__all__ = ["sniff"]

# Every event type Pi writes in `--mode json` and `--mode rpc`.
_PI_TYPES: Final = frozenset(
    {
        "session",
        "agent_start",
        "agent_end",
        "turn_start",
        "turn_end",
        "message_start",
        "message_update",
        "message_end",
        "tool_execution_start",
        "tool_execution_update",
        "tool_execution_end",
        "auto_compaction_start",
        "auto_compaction_end",
        "compaction_start",
        "compaction_end",
        "queue_update",
        "session_action_update",
        "auto_retry_start",
        "auto_retry_end",
        "extension_error",
        "response",
        "usage",
        "error",
    }
)
# Types the other agent CLIs write: one of these (or a dotted type such as Codex's
# "turn.started" or "cursor_cloud.init") means another CLI wrote the log. Other
# unknown types are tolerated, since Pi and its forks keep adding events.
_FOREIGN: Final = frozenset(
    {
        "system",
        "assistant",
        "user",
        "result",
        "stream_event",
        "rate_limit_event",
        "tool_call",
        "thinking",
        "init",
        "message",
        "tool_use",
        "tool_result",
        "step_start",
        "step_finish",
        "text",
        "reasoning",
        "thought",
        "end",
    }
)
# Types no other CLI writes (Codex says "turn.started", with a dot).
_PI_ONLY: Final = _PI_TYPES - {"response", "usage", "error", "session"}


def _distinctive(event: dict[str, Any]) -> bool:
    kind = event.get("type")
    if kind == "session":
        # The header of `--mode json`: {"type":"session","version":3,"id":...,"cwd":...}
        return "version" in event and "id" in event
    if kind == "response":
        return "command" in event and "success" in event
    return kind in _PI_ONLY


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely Pi (``pi --mode json`` or ``--mode rpc``) wrote ``lines``.

    One JSON line must be Pi's own (``agent_start``, ``message_update``,
    ``tool_execution_end``, the session header ...) and none another CLI's;
    plain text lines and unknown event types are tolerated while Pi's own
    events outnumber them.
    """
    events = distinctive = unknown = other = 0
    for line in lines:
        event = parse_json_object(line)
        if event is None:
            other += line.strip() != ""
            continue
        kind = event.get("type")
        if type(kind) is not str or kind in _FOREIGN or "." in kind:
            return 0.0
        events += 1
        distinctive += _distinctive(event)
        unknown += kind not in _PI_TYPES
    if not distinctive or other > events or unknown >= distinctive:
        return 0.0
    return 0.95 if other == unknown == 0 else 0.85
