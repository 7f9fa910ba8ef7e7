"""How surely lines are Kimi's stdout (print mode, wire mode) or a Kimi session file."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.extract import parse_json_object
from linewise_contracts.sniffing import score_json_events

__all__ = ["session_sniff", "sniff"]

_ROLES: Final = frozenset({"assistant", "tool", "user", "system"})
# Not "name": a tool reply naming its tool is Mistral Vibe's (kimi's carry only the call id).
_MESSAGE_FIELDS: Final = frozenset({"role", "content", "tool_calls", "tool_call_id", "id"})
_CONTEXT_ROLES: Final = frozenset({"_checkpoint", "_usage", "_system_prompt"})
# kimi --wire's methods (client requests and server notifications).
_METHODS: Final = frozenset(
    {"initialize", "prompt", "steer", "replay", "cancel", "event", "request"}
)
# kimi-cli's wire messages (src/kimi_cli/wire/types.py): events, then requests.
_WIRE_TYPES: Final = frozenset(
    {
        "TurnBegin",
        "SteerInput",
        "TurnEnd",
        "StepBegin",
        "StepInterrupted",
        "HookTriggered",
        "HookResolved",
        "CompactionBegin",
        "CompactionEnd",
        "MCPLoadingBegin",
        "MCPLoadingEnd",
        "StatusUpdate",
        "Notification",
        "ContentPart",
        "ToolCall",
        "ToolCallPart",
        "ToolResult",
        "ApprovalResponse",
        "ApprovalRequestResolved",
        "SubagentEvent",
        "PlanDisplay",
        "ApprovalRequest",
        "ToolCallRequest",
        "QuestionRequest",
    }
)


def _message(event: dict[str, Any]) -> bool | None:
    """True for a print-mode message only Kimi writes, False for another shape, None when plain."""
    if "type" in event or "jsonrpc" in event:
        return False
    role = event.get("role")
    if type(role) is not str:
        return False
    if role in _CONTEXT_ROLES:
        return True
    if role not in _ROLES or set(event) - _MESSAGE_FIELDS:
        return False
    calls = event.get("tool_calls")
    if type(calls) is list and calls:
        return all(type(call) is dict and type(call.get("function")) is dict for call in calls)
    return "tool_call_id" in event or None


def _wire(event: dict[str, Any]) -> bool | None:
    """True for a JSON-RPC message only kimi --wire sends, False for another's, None when plain."""
    method = event.get("method")
    if type(method) is str:
        if method not in _METHODS:
            return False
        params = event.get("params")
        if method in ("event", "request"):
            kind = params.get("type") if type(params) is dict else None
            if type(kind) is not str:
                return False
            return True if kind in _WIRE_TYPES else None  # a newer message type: tolerated
        return method != "initialize" or (type(params) is dict and "protocol_version" in params)
    result = event.get("result")
    if type(result) is dict and (
        "protocol_version" in result or result.get("status") in ("finished", "steered", "cancelled")
    ):
        return True
    return None if "error" in event or type(result) is dict else False


def _verdict(event: dict[str, Any]) -> bool | None:
    """One line judged: a wire message by :func:`_wire`, else a print-mode message."""
    return _wire(event) if event.get("jsonrpc") == "2.0" else _message(event)


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely `kimi --print --output-format stream-json` or `--wire` wrote ``lines``.

    Print mode's lines are bare OpenAI-style messages with no ``type`` (which
    every other CLI's events have); at least one must be Kimi's own (a message
    with ``tool_calls`` or a ``tool`` reply, or kimi-cli's ``_checkpoint`` /
    ``_usage`` roles). Wire mode's are JSON-RPC 2.0 with Kimi's methods and
    ``event`` envelopes. Plain text lines are tolerated while events outnumber them.
    """
    return score_json_events(lines, _verdict)


_SESSION_RECORDS: Final = frozenset(
    {"context.append_loop_event", "context.append_message", "turn.prompt", "usage.record"}
)


def session_sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``lines`` are a Kimi Code session's ``wire.jsonl`` records."""
    own = 0
    for line in lines:
        event = parse_json_object(line)
        if event is None:
            if line.strip():
                return 0.0
            continue
        kind = event.get("type")
        if type(kind) is not str:
            return 0.0
        if kind in _SESSION_RECORDS or (kind == "metadata" and "protocol_version" in event):
            own += 1
        elif "." not in kind and kind != "kimi_session":
            return 0.0
    return 0.95 if own else 0.0
