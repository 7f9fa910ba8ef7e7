"""The whole-run summary of a Qwen Code ``-o stream-json`` run."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import as_list, as_object, as_string, parse_json_object
from linewise_contracts.summary import RunSummary, Usage

from linewise_qwen.ending import (
    result_model_usage,
    result_outcome,
    result_turns,
    token_usage,
)

__all__ = ["summarize_run", "token_usage"]


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """Summarise a Qwen Code stream-json run from its ``system`` init and final ``result``.

    Usage is the last ``result``'s ``usage`` (the session's total so far; Qwen
    reports no cost, so ``cost_usd`` is None), per model from its
    ``modelUsage``; the turns are the results' ``num_turns`` added up (each
    counts its own prompt's). The outcome is the result's subtype in the
    outcome words; a run with no ``result`` is incomplete. The result entries
    carry the same figures (:mod:`linewise_qwen.ending`).
    """
    session: str | None = None
    model: str | None = None
    result: dict[str, Any] | None = None
    last_text: str | None = None
    results = 0
    turns: int | None = None
    for line in lines:
        event = parse_json_object(line) if line.lstrip().startswith("{") else None
        if event is None:
            continue
        kind = event.get("type")
        session = session or as_string(event.get("session_id")) or None
        if kind == "system" and event.get("subtype") == "init":
            model = as_string(event.get("model")) or model
        elif kind == "assistant":
            message = as_object(event.get("message"))
            model = model or as_string(message.get("model")) or None
            texts = [
                as_string(as_object(block).get("text"))
                for block in as_list(message.get("content"))
                if as_object(block).get("type") == "text"
            ]
            last_text = "".join(texts).strip() or last_text
        elif kind == "result":
            result, results = event, results + 1
            own = result_turns(event)  # each result's own turns: they add up
            if own is not None:
                turns = own + (turns or 0)
    if result is None:
        return RunSummary(
            session_id=session, model=model, final_text=last_text, details={"usageBasis": "none"}
        )
    usage = as_object(result.get("usage"))
    tokens = token_usage(usage)
    per_model = result_model_usage(result)
    subtype = as_string(result.get("subtype"))
    outcome = result_outcome(result)
    error = as_object(result.get("error")).get("message") or result.get("error")
    errors = (as_string(error),) if as_string(error) else ()
    details: dict[str, JsonValue] = {
        "usageBasis": "per_run" if usage else "none",
        "subtype": subtype,
        "results": results,
        "permissionDenials": len(as_list(result.get("permission_denials"))),
    }
    return RunSummary(
        session_id=session,
        model=model,
        # The wire view's input is without cache reads, as the views label it.
        usage=Usage(
            input_tokens=tokens.uncached_input or 0,
            output_tokens=tokens.output or 0,
            cached_tokens=tokens.cache_read or 0,
        ),
        cost_usd=None,
        final_text=as_string(result.get("result")).strip() or last_text,
        outcome=outcome,
        is_error=result.get("is_error") is True or outcome in ("failed", "max_turns"),
        errors=errors,
        unknown_session=any("session" in e.lower() and "not found" in e.lower() for e in errors),
        turns=turns,
        complete=True,
        details=details,
        token_usage=tokens,
        model_usage=per_model,
    )
