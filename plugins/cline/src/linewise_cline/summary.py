"""The whole-run summary of a ``cline --json`` run."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Final

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import as_number, as_object, as_string, parse_json_object
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage

from linewise_cline.ending import (
    count,
    result_cost,
    result_model,
    result_outcome,
    result_usage_block,
    token_usage,
)

__all__ = ["is_unknown_session_error", "summarize_run", "token_usage"]

_UNKNOWN_SESSION: Final = re.compile(
    r"\b(?:session|task) not found\b|\bno (?:session|task) (?:found|with id)\b", re.IGNORECASE
)
_ERRORS_KEPT: Final = 1000


def is_unknown_session_error(stdout: str, stderr: str = "") -> bool:
    """True when Cline could not find the session or task it was asked to resume."""
    return bool(_UNKNOWN_SESSION.search(stdout) or _UNKNOWN_SESSION.search(stderr))


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """Summarise a whole ``cline --json`` run.

    The terminal ``run_result`` gives the outcome (``completed``; ``error`` is
    failed; ``aborted``, a person stopping it, is interrupted), the final text,
    the model and the whole run's usage and cost (``aggregateUsage``, else
    ``usage``); without it the per-request ``usage`` events are summed and the
    run was cut off.
    """
    result: dict[str, Any] | None = None
    steps = TokenUsage()
    step_cost: float | None = None
    errors: list[str] = []
    omitted = tool_calls = 0
    task: str | None = None
    last_text: str | None = None
    for line in lines:
        event = parse_json_object(line)
        if event is None:
            continue
        kind = event.get("type")
        if kind == "hook_event":
            task = task or as_string(event.get("taskId")) or None
        elif kind == "agent_event":
            inner = as_object(event.get("event"))
            if inner.get("type") == "usage":
                steps = steps + token_usage(inner)
                spent = as_number(inner.get("cost"), -1)
                if spent >= 0:
                    step_cost = (step_cost or 0.0) + spent
            elif inner.get("type") == "content_start" and inner.get("contentType") == "tool":
                tool_calls += 1
            elif (
                inner.get("type") in ("content_end", "done")
                and inner.get("contentType", "text") == "text"
                and as_string(inner.get("text"))
            ):
                last_text = as_string(inner.get("text")).strip()
        elif kind == "run_result":
            result = event
        elif kind == "error":
            message = as_string(event.get("message")).strip()
            if message and message not in errors:
                if len(errors) < _ERRORS_KEPT:
                    errors.append(message)
                else:
                    omitted += 1
    final = result or {}
    reason = as_string(final.get("finishReason")) or None
    usage = result_usage_block(final)
    tokens = token_usage(usage) if usage else steps
    cost = result_cost(usage) if usage else step_cost
    if reason == "error" and as_string(final.get("text")):
        errors.append(as_string(final.get("text")))
    model = as_object(final.get("model"))
    details: dict[str, JsonValue] = {
        "toolCalls": tool_calls,
        "iterations": count(final.get("iterations")),
        "durationMs": count(final.get("durationMs")),
        "finishReason": reason,
        "provider": as_string(model.get("provider")) or None,
    }
    if omitted:
        details["errorsOmitted"] = omitted
    outcome = result_outcome(final) if result else ("failed" if errors else "cut_off")
    return RunSummary(
        session_id=task,
        model=result_model(final),
        usage=Usage(
            input_tokens=(tokens.uncached_input or 0) + (tokens.cache_write or 0),
            output_tokens=tokens.output or 0,
            cached_tokens=tokens.cache_read or 0,
        ),
        cost_usd=cost,
        cost_source="reported" if cost is not None else None,
        final_text=(as_string(final.get("text")).strip() if reason != "error" else None)
        or last_text,
        outcome=outcome,
        is_error=reason == "error" or (result is None and bool(errors)),
        errors=tuple(dict.fromkeys(errors)),
        unknown_session=is_unknown_session_error("\n".join(errors)),
        complete=result is not None,
        details=details,
        token_usage=tokens,
    )
