"""The summary of a Copilot CLI legacy session document."""

from __future__ import annotations

from collections.abc import Iterable

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import as_list, as_object, as_string, parse_json_object
from linewise_contracts.summary import RunSummary

from linewise_copilot.session.history_parser import message_text
from linewise_copilot.session.history_store import MESSAGE_RECORD, SESSION_RECORD

__all__ = ["summarize_history"]


def summarize_history(lines: Iterable[str]) -> RunSummary:
    """Summarise a legacy document: its id and tool calls; tokens and cost unknown.

    The documents keep no token accounting at all (unknown, never 0). The
    session is complete when the last chat message is the assistant's and asks
    for no tool (``completed``); otherwise the outcome is unknown.
    """
    session: dict[str, object] = {}
    last_role: str | None = None
    asked_tools = False
    tool_calls = 0
    final_text: str | None = None
    for line in lines:
        record = parse_json_object(line)
        if record is None:
            continue
        if record.get("type") == SESSION_RECORD:
            session = as_object(record.get("session"))
        elif record.get("type") == MESSAGE_RECORD:
            message = as_object(record.get("message"))
            last_role = as_string(message.get("role")) or last_role
            calls = as_list(message.get("tool_calls"))
            tool_calls += len(calls)
            asked_tools = bool(calls)
            if last_role == "assistant":
                final_text = message_text(message.get("content")).strip() or final_text
    ended = last_role == "assistant" and not asked_tools
    details: dict[str, JsonValue] = {"toolCalls": tool_calls}
    for name in ("chatMessagesCount", "timelineCount"):
        value = session.get(name)
        if type(value) is int:
            details[name] = value
    return RunSummary(
        session_id=as_string(session.get("sessionId")) or None,
        model=as_string(session.get("model")) or as_string(session.get("selectedModel")) or None,
        final_text=final_text,
        outcome="completed" if ended else None,
        complete=ended,
        details=details,
    )
