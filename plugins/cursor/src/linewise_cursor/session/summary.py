"""The summary of a cursor-agent transcript: its ids and metadata, turns and how the last ended."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import as_list, as_object, as_string, parse_json_object
from linewise_contracts.summary import RunSummary

from linewise_cursor.session.store import SESSION_RECORD

__all__ = ["summarize_transcript"]

# turn_ended's status in the outcome vocabulary; any other status is kept in details only.
_OUTCOMES: Final = {
    "success": "completed",
    "completed": "completed",
    "error": "failed",
    "failed": "failed",
    "aborted": "interrupted",
    "cancelled": "interrupted",
    "canceled": "interrupted",
}


def summarize_transcript(lines: Iterable[str]) -> RunSummary:
    """Summarise a transcript read through :func:`linewise_cursor.session.store.session_records`.

    The transcript records no tokens and no cost: both stay unknown (never 0).
    The model is the chat metadata's where it names one. The outcome is the
    last ``turn_ended`` status's (``success`` is ``completed``); a transcript
    whose last record is not a turn's end is not complete (a turn under way, or
    cut off), and its outcome unknown.
    """
    session_id = model = cwd = title = parent = status = final_text = None
    turns = tool_calls = 0
    ended = False
    for line in lines:
        record = parse_json_object(line)
        if record is None:
            ended = False
            continue
        kind = record.get("type")
        if kind == SESSION_RECORD:
            meta = as_object(record.get("meta"))
            session_id = as_string(record.get("sessionId")) or None
            model = as_string(meta.get("model")) or None
            cwd = as_string(meta.get("cwd")) or None
            title = as_string(meta.get("title")) or None
            parent = as_string(record.get("subagentOf")) or None
            continue
        if kind == "turn_ended":
            turns += 1
            status = as_string(record.get("status")) or "unknown"
            ended = True
            continue
        if kind is not None:
            continue  # the store's end record, or a type the summary does not read
        ended = False
        role = record.get("role")
        for block in as_list(as_object(record.get("message")).get("content")):
            block_kind = as_object(block).get("type")
            if block_kind == "tool_use":
                tool_calls += 1
            elif block_kind == "text" and role == "assistant":
                final_text = as_string(block.get("text")) or final_text
    details: dict[str, JsonValue] = {"toolCalls": tool_calls, "turnsEnded": turns}
    for name, value in (("cwd", cwd), ("title", title), ("subagentOf", parent)):
        if value:
            details[name] = value
    if status is not None:
        details["turnStatus"] = status
    outcome = _OUTCOMES.get(status or "") if ended else None
    return RunSummary(
        session_id=session_id,
        model=model,
        final_text=final_text,
        outcome=outcome,
        is_error=outcome == "failed",
        complete=ended,
        details=details,
    )
