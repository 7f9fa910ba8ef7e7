"""How surely the first lines of a log are ``codex exec --json`` output."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.extract import dig

from linewise_codex.legacy import is_legacy_event
from linewise_codex.parser import CODEX_EVENT_TYPES, read_event

__all__ = ["sniff"]

# Item types of `codex exec --json` (and Paperclip's tool_use / tool_result shapes).
_ITEM_TYPES: Final = frozenset(
    {
        "agent_message",
        "reasoning",
        "plan",
        "command_execution",
        "file_change",
        "mcp_tool_call",
        "collab_tool_call",
        "web_search",
        "todo_list",
        "error",
        "tool_use",
        "tool_result",
    }
)


# Legacy `{"id", "msg"}` event types (codex-rs protocol `EventMsg`) only Codex writes.
_LEGACY_TYPES: Final = frozenset(
    {
        "session_configured",
        "task_started",
        "task_complete",
        "token_count",
        "agent_message_delta",
        "agent_reasoning_delta",
        "exec_command_begin",
        "exec_command_end",
        "patch_apply_begin",
        "patch_apply_end",
        "mcp_tool_call_begin",
        "mcp_tool_call_end",
    }
)


def _distinctive(event: dict[str, Any]) -> bool:
    """Events only Codex writes; a bare ``error`` event is not one (other CLIs have it too)."""
    if is_legacy_event(event):
        return event["msg"]["type"] in _LEGACY_TYPES
    kind = event.get("type")
    if kind == "thread.started":
        return isinstance(event.get("thread_id"), str)
    if kind in ("turn.started", "turn.completed", "turn.failed", "item.plan.delta"):
        return True
    if kind in ("item.started", "item.updated", "item.completed"):
        item_type = dig(event, "item", "type")
        return type(item_type) is str and item_type in _ITEM_TYPES
    return False


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``codex exec --json`` wrote ``lines``.

    Every JSON line must be a Codex event type (``acpx.*`` events, which
    several CLIs' adapters share, are neutral) and at least one must be
    distinctive (``thread.started``, ``turn.*``, ``item.*`` with a Codex item
    type, or a legacy ``{"id", "msg"}`` event of a type only Codex has).
    Events a logger prefixed with a timestamp count like raw ones; plain text
    lines lower the score, and alone they give 0.
    """
    distinctive = 0
    events = 0
    other = 0
    for line in lines:
        event = read_event(line)
        if event is None:
            other += 1
            continue
        kind = event.get("type")
        if is_legacy_event(event):
            kind = "legacy"
        elif type(kind) is not str or not (kind in CODEX_EVENT_TYPES or kind.startswith("acpx.")):
            return 0.0
        elif kind.startswith("acpx."):
            continue
        events += 1
        distinctive += _distinctive(event)
    if not distinctive:
        return 0.0
    if other == 0:
        return 0.95
    # Text beside the events: a banner, stderr mixed in, or a wrapper's own log lines.
    return 0.9 if events >= other else 0.8
