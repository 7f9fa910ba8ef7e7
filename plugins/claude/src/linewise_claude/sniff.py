"""How surely the first lines of a log are Claude Code stream-json."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.extract import parse_json_object

from linewise_claude.legacy import modern_lines

__all__ = ["sniff"]

# Event types Claude's stream-json uses; a JSON line of any other type (Cursor's
# "tool_call" or "thinking", Codex's "thread.started", Gemini's "init" ...) means
# another CLI wrote the log.
_CLAUDE_TYPES: Final = frozenset(
    {
        "system",
        "assistant",
        "user",
        "result",
        "stream_event",
        "rate_limit_event",
        "control_request",
        "control_response",
        "control_cancel_request",
        "keep_alive",
        # Claude Code 2.1.x (Agent SDK message types)
        "tool_progress",
        "tool_use_summary",
        "auth_status",
        "prompt_suggestion",
        "conversation_reset",
    }
)
_CLAUDE_ONLY_SUBTYPES: Final = frozenset(
    {
        "api_retry",
        "compact_boundary",
        "hook_started",
        "hook_response",
        "task_started",
        "task_progress",
        "task_updated",
        "task_notification",
        "thinking_tokens",
        "status",
        "notification",
        "hook_progress",
        "permission_denied",
        "informational",
        "model_refusal_fallback",
        "model_refusal_no_fallback",
        "session_state_changed",
        "task_summary",
        "post_turn_summary",
        "local_command_output",
        "files_persisted",
        "background_tasks_changed",
        "commands_changed",
        "memory_recall",
    }
)


# Result fields only Claude Code writes (Agent SDK's SDKResultMessage).
_CLAUDE_RESULT_KEYS: Final = (
    "modelUsage",
    "total_cost_usd",
    "structured_output",
    "api_error_status",
    "startup_failure_reason",
    "permission_denials",
    "duration_api_ms",
    "terminal_reason",
)


def _distinctive(event: dict[str, Any]) -> bool:
    """Fields only Claude Code writes (Cursor's look-alike events lack them)."""
    kind = event.get("type")
    if "parent_tool_use_id" in event or kind in (
        "stream_event",
        "rate_limit_event",
        "tool_progress",
        "tool_use_summary",
        "prompt_suggestion",
    ):
        return True
    if kind == "system":
        subtype = event.get("subtype")
        if type(subtype) is str and subtype in _CLAUDE_ONLY_SUBTYPES:
            return True
        return "claude_code_version" in event or isinstance(event.get("tools"), list)
    if kind == "result":
        return any(key in event for key in _CLAUDE_RESULT_KEYS)
    if kind == "assistant":
        message = event.get("message")
        return isinstance(message, dict) and str(message.get("id", "")).startswith("msg_")
    return False


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely Claude Code ``--output-format stream-json`` wrote ``lines``.

    Every JSON line must be a Claude event type, and at least one must carry a
    field only Claude writes; plain text lines (a banner, a stray warning) are
    tolerated when JSON events dominate. The bare messages of Claude Code
    before 1.0 and a ``--output-format json --verbose`` array are read as
    the events they stand for (:mod:`linewise_claude.legacy`).
    """
    events = 0
    distinctive = 0
    other = 0
    for line in modern_lines(lines):
        event = parse_json_object(line)
        if event is None:
            other += 1
            continue
        session = event.get("session_id")
        if type(session) is str and session.startswith("T-"):
            # Amp's thread ids: Amp writes Claude-compatible stream-json (linewise-amp reads it).
            return 0.0
        if "qwen_code_version" in event:
            # Qwen Code's init line: Qwen writes Claude's envelope (linewise-qwen reads it).
            return 0.0
        if "parentUuid" in event:
            # A session file's record (``claude_session``): stream-json has no parentUuid.
            return 0.0
        kind = event.get("type")
        # A frozenset lookup of an unhashable "type" (a list, say) would raise.
        if type(kind) is not str or kind not in _CLAUDE_TYPES:
            return 0.0
        events += 1
        distinctive += _distinctive(event)
    if not events or other > events:
        return 0.0
    if distinctive:
        return 0.95 if other == 0 else 0.85
    # Only generic system/assistant/user/result lines: Cursor's stream looks alike.
    return 0.4
