"""The summary of a Goose session: the row's accumulated tokens and how the chat ended."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import as_list, as_number, as_object, as_string, parse_json_object
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage, token_count

from linewise_goose.session.parser import session_model
from linewise_goose.session.store import SESSION_RECORD

__all__ = ["session_tokens", "summarize_session"]


def session_tokens(session: dict[str, Any]) -> TokenUsage:
    """The session's tokens: ``accumulated_input_tokens`` and ``accumulated_output_tokens``.

    Goose keeps no cache split in its store; its providers fold cache reads and
    writes into the input, which is read as the uncached input as the stream's
    ``complete`` event is when it has no cache fields. The last request's
    ``input_tokens``/``output_tokens`` are not the session's. None (unknown) where
    goose recorded nothing.
    """
    return TokenUsage(
        uncached_input=token_count(session.get("accumulated_input_tokens")),
        output=token_count(session.get("accumulated_output_tokens")),
    )


def summarize_session(lines: Iterable[str]) -> RunSummary:
    """Summarise a Goose session read through :func:`linewise_goose.session.store.session_records`.

    Tokens from :func:`session_tokens`; goose's own ``accumulated_cost`` (from its
    price table, not a bill) goes to ``details["gooseAccumulatedCostUsd"]``, so the
    cost is unknown unless linewise prices it. Complete when the last message is
    the assistant's and asks for no tool (``completed``); otherwise unknown.
    """
    session: dict[str, Any] = {}
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
        elif record.get("type") == "message":
            message = as_object(record.get("message"))
            last_role = as_string(message.get("role")) or last_role
            parts = [as_object(part) for part in as_list(message.get("content"))]
            requests = sum(part.get("type") == "toolRequest" for part in parts)
            tool_calls += requests
            asked_tools = requests > 0
            texts = [as_string(part.get("text")) for part in parts if part.get("type") == "text"]
            if last_role == "assistant" and any(texts):
                final_text = "".join(texts)
    tokens = session_tokens(session)
    ended = last_role == "assistant" and not asked_tools
    details: dict[str, JsonValue] = {"toolCalls": tool_calls}
    for name, key in (
        ("cwd", "working_dir"),
        ("title", "name"),
        ("description", "description"),
        ("sessionType", "session_type"),
        ("provider", "provider_name"),
    ):
        value = as_string(session.get(key))
        if value:
            details[name] = value
    cost = as_number(session.get("accumulated_cost"), -1)
    if cost >= 0 and "accumulated_cost" in session:
        details["gooseAccumulatedCostUsd"] = cost
    return RunSummary(
        session_id=as_string(session.get("id")) or None,
        model=session_model(session) or None,
        usage=Usage(input_tokens=tokens.uncached_input or 0, output_tokens=tokens.output or 0),
        final_text=final_text,
        outcome="completed" if ended else None,
        complete=ended,
        details=details,
        token_usage=tokens,
    )
