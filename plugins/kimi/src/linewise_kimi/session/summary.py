"""The whole-run summary of a Kimi session file (``kimi_session``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import as_object, as_string, parse_json_object
from linewise_contracts.summary import RunSummary
from linewise_contracts.usage import TokenUsage

from linewise_kimi.session.parser import record_usage
from linewise_kimi.session.store import SESSION_RECORD
from linewise_kimi.summary import usage_of

__all__ = ["summarize_session"]


def summarize_session(lines: Iterable[str]) -> RunSummary:
    """Summarise a Kimi session: turn usage records (step usage when there are none).

    ``usage.record`` names the model by its configured alias; ``llm.request``
    names the real model id, which wins. Kimi records no cost.
    """
    session_id: str | None = None
    model: str | None = None
    alias: str | None = None
    records = TokenUsage()
    steps = TokenUsage()
    final: str | None = None
    finish: str | None = None
    tool_calls = 0
    cwd: str | None = None
    for line in lines:
        record = parse_json_object(line)
        if record is None:
            continue
        kind = record.get("type")
        if kind == SESSION_RECORD:
            session_id = as_string(record.get("sessionId")) or None
        elif kind == "usage.record":
            records = records + TokenUsage(**record_usage(record.get("usage")))
            alias = as_string(record.get("model")) or alias
        elif kind == "llm.request":
            model = as_string(record.get("model")) or model
        elif kind == "config.update":
            cwd = as_string(record.get("cwd")) or cwd
        elif kind == "turn.prompt":
            final = None
        elif kind == "context.append_loop_event":
            event: dict[str, Any] = as_object(record.get("event"))
            loop = event.get("type")
            if loop == "step.end":
                steps = steps + TokenUsage(**record_usage(event.get("usage")))
                finish = as_string(event.get("finishReason")) or finish
            elif loop == "content.part" and as_object(event.get("part")).get("type") == "text":
                final = (final or "") + as_string(as_object(event.get("part")).get("text"))
            elif loop == "tool.call":
                tool_calls += 1
    tokens = records if records.known else steps
    details: dict[str, JsonValue] = {
        "toolCalls": tool_calls,
        "usageBasis": "turns" if records.known else ("steps" if steps.known else None),
        "finishReason": finish,
    }
    if cwd:
        details["cwd"] = cwd
    outcome = {"end_turn": "completed", "max_tokens": "max_tokens"}.get(finish or "")
    return RunSummary(
        session_id=session_id,
        model=model or alias,
        usage=usage_of(tokens),
        final_text=final.strip() if final else None,
        outcome=outcome,
        complete=finish == "end_turn",
        details=details,
        token_usage=tokens,
    )
