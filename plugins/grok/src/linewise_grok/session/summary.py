"""The summary of a Grok Build session folder: its facts, the turns' usage, how it ended."""

from __future__ import annotations

from collections.abc import Iterable

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import as_list, as_object, as_string, parse_json_object
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage

from linewise_grok.session.parser import history_text, turn_tokens
from linewise_grok.session.store import SESSION_RECORD

__all__ = ["summarize_session"]


def summarize_session(lines: Iterable[str]) -> RunSummary:
    """Summarise a session read through :func:`linewise_grok.session.store.session_records`.

    Tokens are the ``turn_completed`` updates' usage (Grok re-sends a turn's
    record as it grows: the last one per ``prompt_id`` counts), per model from
    their ``modelUsage``; a session without them (older builds, chat
    histories) has unknown tokens, never 0. ``costUsdTicks`` is not read: its
    scale is undocumented. The session is complete when its last record is a
    completed turn or an assistant message asking for no tool; other endings
    leave the outcome unknown.
    """
    facts: dict[str, object] = {}
    turns: dict[str, tuple[TokenUsage, dict[str, TokenUsage]]] = {}
    unnamed = tool_calls = 0
    final_text: str | None = None
    ended = False
    for line in lines:
        record = parse_json_object(line)
        if record is None:
            ended = False
            continue
        kind = record.get("type")
        if kind == SESSION_RECORD:
            facts = as_object(record.get("session"))
            continue
        update = as_object(as_object(record.get("params")).get("update"))
        step = update.get("sessionUpdate")
        if step == "turn_completed":
            prompt = as_string(update.get("prompt_id")) or f"#{unnamed}"
            unnamed += prompt.startswith("#")
            usage = as_object(update.get("usage"))
            per_model = {
                model: turn_tokens(value)
                for model, value in as_object(usage.get("modelUsage")).items()
                if type(value) is dict
            }
            turns[prompt] = (turn_tokens(usage), per_model)
            ended = True
        elif step == "tool_call" or kind == "tool_result":
            tool_calls += step == "tool_call"
            ended = False
        elif step == "agent_message_chunk":
            ended = False
        elif kind == "assistant":
            calls = as_list(record.get("tool_calls"))
            tool_calls += len(calls)
            final_text = history_text(record.get("content")) or final_text
            ended = not calls
        elif kind == "user":
            ended = False
    tokens = TokenUsage()
    by_model: dict[str, TokenUsage] = {}
    for total, per_model in turns.values():
        tokens += total
        for model, used in per_model.items():
            by_model[model] = by_model.get(model, TokenUsage()) + used
    details: dict[str, JsonValue] = {"toolCalls": tool_calls, "turnsCompleted": len(turns)}
    for name in ("cwd", "title"):
        value = as_string(facts.get(name))
        if value:
            details[name] = value
    return RunSummary(
        session_id=as_string(facts.get("id")) or None,
        model=as_string(facts.get("model")) or (next(iter(by_model), None)),
        usage=Usage(
            input_tokens=(tokens.uncached_input or 0) + (tokens.cache_write or 0),
            output_tokens=tokens.output or 0,
            cached_tokens=tokens.cache_read or 0,
        ),
        final_text=final_text,
        outcome="completed" if ended else None,
        complete=ended,
        details=details,
        token_usage=tokens,
        model_usage=by_model,
    )
