"""How surely the first lines of a log are ``codex exec --json`` output."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final

import orjson
from linewise_contracts.extract import dig, iso_timestamp, parse_json_object

from linewise_codex.legacy import is_legacy_event

__all__ = ["CODEX_EVENT_TYPES", "read_event", "read_event_at", "sniff"]

# What the sniff and the parser (which imports them from here) both read, kept beside the
# sniff: detection imports it alone.

#: Top-level event types ``codex exec --json`` writes.
CODEX_EVENT_TYPES: Final = frozenset(
    {
        "thread.started",
        "turn.started",
        "turn.completed",
        "turn.failed",
        "item.started",
        "item.updated",
        "item.completed",
        "item.plan.delta",
        "request_user_input",
        "error",
    }
)

# A logger's prefix before a JSON event: "[2025-11-11T12:19:39.412Z] [INFO] {...}".
_LOG_PREFIX: Final = re.compile(
    r"\[(\d{4}-\d\d-\d\d[T ][0-9:.]+(?:Z|[+-]\d\d:?\d\d)?)\]\s*(?:\[[A-Za-z]+\]\s*)?(?=\{)"
)
#: orjson's decoder, held here: compiled, a call to it is then direct, not a lookup in orjson.
_loads: Final = orjson.loads


def _codex_event(event: dict[str, Any]) -> bool:
    kind = event.get("type")
    if type(kind) is str:
        return kind in CODEX_EVENT_TYPES or kind.startswith("acpx.")
    return is_legacy_event(event)


def read_event_at(line: str) -> tuple[dict[str, Any] | None, str | None]:
    """The Codex event on ``line`` and the time a logger's prefix gave it (or None).

    The event is a JSON object, or one a logger prefixed with a timestamp
    (``[2025-11-11T12:19:39.412Z] [INFO] {...}``); a prefixed line counts
    only when its JSON is a Codex (or ``acpx.*``) event, so a wrapper's own
    log lines stay text.
    """
    try:
        event = _loads(line)  # the common case of parse_json_object, inline
    except orjson.JSONDecodeError:
        event = parse_json_object(line)
    else:
        if type(event) is not dict:
            event = None
    if event is not None or not line.startswith("["):
        return event, None
    match = _LOG_PREFIX.match(line)
    if match is None:
        return None, None
    event = parse_json_object(line[match.end() :])
    if event is None or not _codex_event(event):
        return None, None
    return event, iso_timestamp(match.group(1))


def read_event(line: str) -> dict[str, Any] | None:
    """The Codex event on ``line`` (see :func:`read_event_at`)."""
    return read_event_at(line)[0]


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
