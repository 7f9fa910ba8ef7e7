"""The whole-run summary of a Qwen Code ``-o stream-json`` run."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import as_int, as_list, as_object, as_string, parse_json_object
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage

__all__ = ["summarize_run", "token_usage"]

# Result subtypes (types.ts CLIResultMessage) in the outcome words.
_OUTCOMES: Final = {
    "success": "completed",
    "error_max_turns": "max_turns",
    "error_during_execution": "failed",
    "error_max_structured_output_retries": "failed",
}


def _count(value: object) -> int | None:
    number = as_int(value, -1)
    return number if number >= 0 else None


def token_usage(usage: dict[str, Any], *, camel: bool = False) -> TokenUsage:
    """Qwen's usage in the usage vocabulary.

    Qwen fills ``input_tokens`` from the model's prompt token count, which
    includes the cached part it reports as ``cache_read_input_tokens``, so the
    uncached input is the difference (unlike Claude's, which excludes it).
    ``modelUsage`` entries spell the same counts in camelCase.
    """
    keys = (
        ("inputTokens", "cacheReadInputTokens", "cacheCreationInputTokens", "outputTokens")
        if camel
        else (
            "input_tokens",
            "cache_read_input_tokens",
            "cache_creation_input_tokens",
            "output_tokens",
        )
    )
    given, read, write, output = (_count(usage.get(key)) for key in keys)
    uncached = given
    if given is not None:
        uncached = max(given - (read or 0) - (write or 0), 0)
    return TokenUsage(uncached_input=uncached, cache_read=read, cache_write=write, output=output)


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """Summarise a Qwen Code stream-json run from its ``system`` init and final ``result``.

    Usage is the last ``result``'s ``usage`` (the run's total; Qwen reports
    no cost, so ``cost_usd`` is None), per model from its ``modelUsage``. The
    outcome is the result's subtype in the outcome words; a run with no
    ``result`` is incomplete.
    """
    session: str | None = None
    model: str | None = None
    result: dict[str, Any] | None = None
    last_text: str | None = None
    results = 0
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
    if result is None:
        return RunSummary(
            session_id=session, model=model, final_text=last_text, details={"usageBasis": "none"}
        )
    usage = as_object(result.get("usage"))
    tokens = token_usage(usage)
    per_model = {
        name: token_usage(as_object(counts), camel=True)
        for name, counts in as_object(result.get("modelUsage")).items()
    }
    subtype = as_string(result.get("subtype"))
    outcome = _OUTCOMES.get(subtype, "failed" if result.get("is_error") is True else "completed")
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
        turns=_count(result.get("num_turns")),
        complete=True,
        details=details,
        token_usage=tokens,
        model_usage=per_model,
    )
