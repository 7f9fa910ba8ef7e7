"""The whole-run summary of an OpenHands conversation (stdout events or a conversation folder)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import (
    as_number,
    as_object,
    as_string,
    content_text,
    parse_json_object,
)
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage

from linewise_openhands import CONVERSATION_RECORD

__all__ = ["summarize_run", "token_usage"]

_OUTCOMES: Final = {
    "finished": "completed",
    "error": "failed",
    "stuck": "failed",
    "paused": "interrupted",
}
_DEPTH: Final = 6


def _count(value: object) -> int | None:
    number = as_number(value, -1)
    return int(number) if number >= 0 and number == int(number) else None


def token_usage(usage: dict[str, Any]) -> TokenUsage:
    """An OpenHands ``TokenUsage`` (its metrics' ``accumulated_token_usage``) in the vocabulary.

    OpenHands takes ``prompt_tokens`` from LiteLLM, where it is the whole
    prompt; cache reads and writes are counted beside it, so the uncached input
    is what remains. ``reasoning_tokens`` are part of ``completion_tokens``.
    """
    prompt = _count(usage.get("prompt_tokens"))
    read = _count(usage.get("cache_read_tokens"))
    write = _count(usage.get("cache_write_tokens"))
    uncached = prompt
    if prompt is not None:
        rest = prompt - (read or 0) - (write or 0)
        uncached = rest if rest >= 0 else prompt
    return TokenUsage(
        uncached_input=uncached,
        cache_read=read,
        cache_write=write,
        output=_count(usage.get("completion_tokens")),
        reasoning=_count(usage.get("reasoning_tokens")),
    )


def _metrics(value: object, depth: int = 0) -> list[dict[str, Any]]:
    """Every metrics object (one with ``accumulated_token_usage``) in a state value."""
    if depth > _DEPTH:
        return []
    if type(value) is dict:
        if type(value.get("accumulated_token_usage")) is dict:
            return [value]
        return [found for item in value.values() for found in _metrics(item, depth + 1)]
    if type(value) is list:
        return [found for item in value for found in _metrics(item, depth + 1)]
    return []


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """Summarise an OpenHands conversation.

    Usage and cost are the last state's metrics (each LLM's
    ``accumulated_token_usage`` and ``accumulated_cost``, summed over the
    conversation's LLMs), the outcome its last ``execution_status``, the final
    text the ``FinishAction`` message or the agent's last message.
    """
    metrics: list[dict[str, Any]] = []
    status: str | None = None
    final: str | None = None
    session_id: str | None = None
    model: str | None = None
    actions = errors_seen = 0
    errors: list[str] = []
    for line in lines:
        event = parse_json_object(line)
        if event is None:
            continue
        kind = event.get("kind")
        if kind == CONVERSATION_RECORD:
            session_id = as_string(event.get("id")) or None
            state = as_object(event.get("state"))
            metrics = _metrics(state) or metrics
            status = as_string(state.get("execution_status")) or status
            model = (
                as_string(as_object(as_object(state.get("agent")).get("llm")).get("model")) or None
            )
        elif kind == "ConversationStateUpdateEvent":
            key = as_string(event.get("key"))
            if key == "execution_status":
                status = as_string(event.get("value")) or status
            found = _metrics(event.get("value"))
            if found:
                metrics = found
        elif kind == "ActionEvent":
            actions += 1
            action = as_object(event.get("action"))
            if action.get("kind") == "FinishAction":
                final = as_string(action.get("message")) or final
        elif kind == "MessageEvent" and event.get("source") == "agent":
            text = content_text(as_object(event.get("llm_message")).get("content")).strip()
            final = text or final
        elif kind == "AgentErrorEvent":
            errors_seen += 1
            error = as_string(event.get("error")).strip()
            if error and error not in errors and len(errors) < 1000:
                errors.append(error)
    tokens = TokenUsage()
    cost: float | None = None
    for item in metrics:
        tokens = tokens + token_usage(as_object(item.get("accumulated_token_usage")))
        spent = as_number(item.get("accumulated_cost"), -1)
        if spent >= 0:
            cost = (cost or 0.0) + spent
        model = (
            model or as_string(as_object(item.get("accumulated_token_usage")).get("model")) or None
        )
    details: dict[str, JsonValue] = {
        "actions": actions,
        "agentErrors": errors_seen,
        "executionStatus": status,
    }
    return RunSummary(
        session_id=session_id,
        model=model,
        usage=Usage(
            input_tokens=(tokens.uncached_input or 0) + (tokens.cache_write or 0),
            output_tokens=tokens.output or 0,
            cached_tokens=tokens.cache_read or 0,
        ),
        cost_usd=cost,
        cost_source="reported" if cost is not None else None,
        final_text=final.strip() if final else None,
        outcome=_OUTCOMES.get(status or ""),
        is_error=status in ("error", "stuck"),
        errors=tuple(errors),
        complete=status in _OUTCOMES,
        details=details,
        token_usage=tokens,
    )
