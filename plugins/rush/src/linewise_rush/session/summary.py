"""The summary of a Rush session: its id, messages and tool calls; tokens unknown."""

from __future__ import annotations

from collections.abc import Iterable

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import as_object, as_string, parse_json_object
from linewise_contracts.summary import RunSummary

from linewise_rush.session.parser import message_text
from linewise_rush.session.sniff import SESSION_RECORD

__all__ = ["summarize_run"]


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """Summarise a Rush session read through :func:`linewise_rush.session.store.session_records`.

    Rush's records carry no tokens or cost: both unknown, never 0. The session
    is complete when its last record is an assistant message (``completed``);
    a tool call or result last, or the person's message, leaves it unknown.
    """
    session_id: str | None = None
    agents: list[str] = []
    tool_calls = failed = 0
    final_text: str | None = None
    ended = False
    for line in lines:
        record = parse_json_object(line)
        if record is None:
            ended = False
            continue
        kind = record.get("type")
        if kind == SESSION_RECORD:
            session_id = as_string(record.get("sessionId")) or session_id
            continue
        agent = as_string(record.get("agent_id"))
        if agent and agent not in agents:
            agents.append(agent)
        if kind == "tool_call":
            tool_calls += 1
        elif kind == "tool_result":
            failed += (
                as_object(as_object(record.get("content")).get("output")).get("success") is False
            )
        role = as_string(record.get("role"))
        ended = kind == "message" and role == "assistant"
        if ended:
            final_text = message_text(record) or final_text
    details: dict[str, JsonValue] = {"toolCalls": tool_calls, "failedToolCalls": failed}
    if agents:
        details["agents"] = list(agents)
    return RunSummary(
        session_id=session_id,
        final_text=final_text,
        outcome="completed" if ended else None,
        complete=ended,
        details=details,
    )
