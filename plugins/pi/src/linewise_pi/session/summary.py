"""The summary of a Pi session file: its id, models, tokens and cost, and how it ended."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import as_list, as_number, as_object, as_string, parse_json_object
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage

from linewise_pi.parser import message_errors, message_text, message_tokens
from linewise_pi.session.parser import model_name

__all__ = ["summarize_session"]

# An assistant message's stopReason in the outcome vocabulary. A session whose last
# message asked for tools (toolUse) and has no answer after them was cut off.
_OUTCOMES: Final = {
    "stop": "completed",
    "length": "max_tokens",
    "error": "failed",
    "aborted": "interrupted",
}


def summarize_session(lines: Iterable[str]) -> RunSummary:
    """Summarise a Pi session file.

    Tokens add up the ``usage`` of every assistant message in the file, every
    branch (each was a request Pi made and paid for), per model too; the cost
    is the sum of their ``usage.cost.total`` when every message with usage
    reports one (``reported``), else unknown. The outcome is the last assistant
    message's ``stopReason`` (``stop`` completed, ``length`` max_tokens,
    ``error`` failed, ``aborted`` interrupted); a session whose last message is
    not the assistant's, or asks for tools, is not complete.
    """
    session_id = cwd = name = stop = final_text = None
    model = ""
    tokens = TokenUsage()
    by_model: dict[str, TokenUsage] = {}
    cost: float | None = 0.0
    priced = messages = tool_calls = 0
    errors: list[str] = []
    last_role: str | None = None
    for line in lines:
        record = parse_json_object(line)
        if record is None:
            continue
        kind = record.get("type")
        if kind == "session":
            session_id = as_string(record.get("id")) or session_id
            cwd = as_string(record.get("cwd")) or cwd
            model = model_name(record.get("provider"), record.get("modelId")) or model
        elif kind == "model_change":
            model = model_name(record.get("provider"), record.get("modelId")) or model
        elif kind == "session_info":
            name = as_string(record.get("name")) or name
        elif kind == "message":
            message = as_object(record.get("message"))
            last_role = as_string(message.get("role")) or last_role
            if last_role != "assistant":
                continue
            messages += 1
            model = model_name(message.get("provider"), message.get("model")) or model
            stop = as_string(message.get("stopReason")) or None
            final_text = message_text(message) or final_text
            errors += message_errors(message)
            tool_calls += sum(
                1
                for block in as_list(message.get("content"))
                if type(block) is dict and block.get("type") == "toolCall"
            )
            used = message_tokens(message)
            if used.known:
                tokens += used
                if model:
                    by_model[model] = by_model.get(model, TokenUsage()) + used
                total = as_number(
                    as_object(as_object(message.get("usage")).get("cost")).get("total"), -1
                )
                if total >= 0 and cost is not None:
                    cost += total
                    priced += 1
                else:
                    cost = None
    ended = last_role == "assistant" and stop not in (None, "toolUse")
    details: dict[str, JsonValue] = {"assistantMessages": messages, "toolCalls": tool_calls}
    for label, value in (("cwd", cwd), ("sessionName", name), ("stopReason", stop)):
        if value:
            details[label] = value
    cost = cost if priced else None
    return RunSummary(
        session_id=session_id,
        model=model or None,
        usage=_wire(tokens),
        cost_usd=cost,
        final_text=final_text,
        outcome=_OUTCOMES.get(stop or "") if ended else None,
        is_error=bool(errors),
        errors=tuple(dict.fromkeys(errors)),
        complete=ended,
        details=details,
        token_usage=tokens,
        model_usage=by_model,
        cost_source="reported" if cost is not None else None,
    )


def _wire(tokens: TokenUsage) -> Usage:
    # The 1.x wire view: input without cache reads (cache writes counted as input).
    return Usage(
        input_tokens=(tokens.uncached_input or 0) + (tokens.cache_write or 0),
        output_tokens=tokens.output or 0,
        cached_tokens=tokens.cache_read or 0,
    )
