"""The summary of a Hermes session: the session row's counters, per model, and how it ended."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import as_list, as_number, as_object, as_string, parse_json_object
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage, token_count

from linewise_hermes.session.parser import message_text
from linewise_hermes.session.sniff import MESSAGE_RECORD, SESSION_RECORD, USAGE_RECORD

__all__ = ["session_tokens", "summarize_session"]

# The last assistant message's finish_reason in the outcome vocabulary.
_OUTCOMES: Final = {"stop": "completed", "length": "max_tokens", "content_filter": "refused"}


def session_tokens(row: dict[str, Any]) -> TokenUsage:
    """A sessions (or session_model_usage) row's counters in the vocabulary.

    Hermes normalises every provider's usage before it stores it
    (``agent/usage_pricing.py``'s ``CanonicalUsage``): ``input_tokens`` is the
    uncached input, cache reads and writes are apart, ``reasoning_tokens`` is
    part of ``output_tokens``. Its columns default to 0, so a row whose input
    and output are both 0 recorded nothing: unknown, not 0.
    """
    if not token_count(row.get("input_tokens")) and not token_count(row.get("output_tokens")):
        return TokenUsage()
    return TokenUsage(
        uncached_input=token_count(row.get("input_tokens")),
        cache_read=token_count(row.get("cache_read_tokens")),
        cache_write=token_count(row.get("cache_write_tokens")),
        output=token_count(row.get("output_tokens")),
        reasoning=token_count(row.get("reasoning_tokens")),
    )


def _cost(session: dict[str, Any]) -> float | None:
    """The billed cost Hermes recorded (``actual_cost_usd``); its own estimate is not one."""
    actual = as_number(session.get("actual_cost_usd"), -1)
    if actual > 0 or (actual == 0 and session.get("cost_status") == "actual"):
        return float(actual)
    return None


def summarize_session(lines: Iterable[str]) -> RunSummary:
    """Summarise a Hermes session read through :func:`.store.session_records`.

    Tokens are the session row's counters (a session document has none:
    unknown), per model from ``session_model_usage``; the cost is
    ``actual_cost_usd`` (``reported``) when Hermes recorded a billed cost, its
    estimate is kept in ``details["hermesEstimatedCostUsd"]``. The outcome is
    the last assistant message's ``finish_reason`` (``stop`` completed,
    ``length`` max_tokens, ``content_filter`` refused); a session whose last
    message is not the assistant's, or asks for tools, is not complete.
    """
    session: dict[str, Any] = {}
    by_model: dict[str, TokenUsage] = {}
    last_role = finish = final_text = None
    tool_calls = 0
    for line in lines:
        record = parse_json_object(line)
        if record is None:
            continue
        kind = record.get("type")
        if kind == SESSION_RECORD:
            session = as_object(record.get("session"))
        elif kind == USAGE_RECORD:
            model = as_string(record.get("model"))
            used = session_tokens(record)
            if model and not used.is_empty:
                by_model[model] = by_model.get(model, TokenUsage()) + used
        elif kind == MESSAGE_RECORD:
            message = as_object(record.get("message"))
            last_role = as_string(message.get("role")) or last_role
            if last_role == "assistant":
                calls = as_list(message.get("tool_calls"))
                tool_calls += len(calls)
                finish = "tool_calls" if calls else as_string(message.get("finish_reason"))
                final_text = message_text(message.get("content")).strip() or final_text
    tokens = session_tokens(session)
    cost = _cost(session)
    ended = last_role == "assistant" and finish not in (None, "", "tool_calls")
    details: dict[str, JsonValue] = {"toolCalls": tool_calls}
    for name, key in (
        ("cwd", "cwd"),
        ("title", "title"),
        ("source", "source"),
        ("endReason", "end_reason"),
        ("parentSessionId", "parent_session_id"),
        ("billingProvider", "billing_provider"),
        ("finishReason", None),
    ):
        value = finish if key is None else as_string(session.get(key))
        if value:
            details[name] = value
    estimate = as_number(session.get("estimated_cost_usd"), -1)
    if estimate >= 0 and "estimated_cost_usd" in session:
        details["hermesEstimatedCostUsd"] = estimate
    return RunSummary(
        session_id=as_string(session.get("id")) or None,
        model=as_string(session.get("model")) or next(iter(by_model), None),
        usage=Usage(
            input_tokens=(tokens.uncached_input or 0) + (tokens.cache_write or 0),
            output_tokens=tokens.output or 0,
            cached_tokens=tokens.cache_read or 0,
        ),
        cost_usd=cost,
        final_text=final_text,
        outcome=_OUTCOMES.get(finish or "") if ended else None,
        is_error=finish == "content_filter",
        complete=ended,
        details=details,
        token_usage=tokens,
        model_usage=by_model,
        cost_source="reported" if cost is not None else None,
    )
