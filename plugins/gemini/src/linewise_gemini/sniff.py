"""How surely the first lines of a log are Gemini CLI stream-json."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.extract import parse_json_object, strip_ansi

__all__ = ["plain_line_kind", "sniff"]

# What a plain line is, which the sniff and the parser (importing it from here) both ask:
# kept beside the sniff, which detection imports alone.

# Gemini CLI writes its notices to stderr; they reach a log when the two streams
# were merged (2>&1). Informational ones become `system` entries ...
_NOTICE: Final = re.compile(
    r"(?:Loaded cached credentials"
    r"|Data collection is disabled"
    r"|YOLO mode is enabled"
    r"|Server '[^']*' supports tool updates"
    r"|Found stored OAuth token"
    r"|Loading extension:"
    r"|Hook registry initialized"
    r"|Session cleanup disabled"
    r"|Flushing log events"
    r"|Ripgrep is not available"
    r"|MCP issues detected"
    r"|\[(?:STARTUP|INFO|DEBUG)\]"
    r"|\(node:\d+\)"
    r"|\(Use `node --trace-)",
    re.IGNORECASE,
)
# ... and failures `stderr` entries (an auth error, a retried API call, a stack frame).
_PROBLEM: Final = re.compile(
    r"(?:\[(?:ERROR|WARN|WARNING)\]"
    r"|(?:Error|Warning)\b"
    r"|Attempt \d+ failed\b"
    r"|_?\w*(?:Error|Exception):"
    r"|at \S.*:\d+:\d+\)?$)",
)

# Longer non-JSON lines are not looked at as notices (and the patterns stay cheap).
_NOTICE_LENGTH: Final = 2000


def plain_line_kind(line: str) -> str:
    """``"system"``, ``"stderr"`` or ``"stdout"``: what a non-JSON line of a Gemini log is.

    Gemini's own notices ("Loaded cached credentials.") are ``system``, its
    warnings and errors ``stderr``; anything else stays raw ``stdout``.
    """
    if len(line) > _NOTICE_LENGTH:
        return "stdout"  # Gemini's notices are one short line; long text is not one
    text = strip_ansi(line).strip()
    if _NOTICE.match(text):
        return "system"
    if _PROBLEM.match(text):
        return "stderr"
    return "stdout"


# Event types of Gemini's stream-json, and of the Claude-like schema early
# integrations wrote; a JSON line of any other type (OpenCode's "step_start",
# Codex's "thread.started", Cursor's "tool_call" ...) means another CLI wrote the log.
_GEMINI_TYPES: Final = frozenset(
    {"init", "message", "tool_use", "tool_result", "error", "result"}
    | {"system", "assistant", "user", "thinking", "text"}
)


def _distinctive(event: dict[str, Any]) -> bool:
    """Fields only Gemini's stream-json has (look-alike types of other CLIs lack them)."""
    kind = event.get("type")
    if kind == "init":
        return isinstance(event.get("session_id"), str) and "model" in event
    if kind == "message":
        # Gemini's content is text (or a list of parts); Rush's session records put an
        # object ({"text": ...}) there, with the same type and role.
        return event.get("role") in ("user", "assistant") and (
            "content" in event and type(event["content"]) is not dict
        )
    if kind == "tool_use":
        return isinstance(event.get("tool_id"), str) and isinstance(event.get("tool_name"), str)
    if kind == "tool_result":
        return isinstance(event.get("tool_id"), str) and event.get("status") in ("success", "error")
    if kind == "result":
        return isinstance(event.get("stats"), dict) or (
            event.get("status") in ("success", "error") and "subtype" not in event
        )
    if kind == "error":
        return event.get("severity") in ("warning", "error")
    return False


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely Gemini CLI ``--output-format stream-json`` wrote ``lines``.

    Every JSON line must be a Gemini event type and at least one must have a
    shape only Gemini writes (a top-level ``init``, a ``message`` with a role,
    a ``tool_use`` with ``tool_id``, a ``result`` with ``stats``). Gemini's
    own stderr notices count for it; other plain text is tolerated while JSON
    events dominate.
    """
    events = 0
    distinctive = 0
    other = 0
    for line in lines:
        event = parse_json_object(line)
        if event is None:
            other += plain_line_kind(line) == "stdout"
            continue
        kind = event.get("type")
        if not isinstance(kind, str):
            return 0.0
        if kind not in _GEMINI_TYPES and not kind.startswith("acpx."):
            return 0.0
        events += 1
        distinctive += _distinctive(event)
    if not events or other > events:
        return 0.0
    if distinctive:
        return 0.95 if other == 0 else 0.85
    # Only the generic Claude-like types: Claude's and Cursor's streams look alike,
    # and they are far more common than Gemini's early schema.
    return 0.1
