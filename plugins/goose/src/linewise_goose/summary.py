"""The whole-run summary of a Goose ``stream-json`` run."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import as_object, as_string, parse_json_object
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage

from linewise_goose.ending import changed_model, complete_cost, token_usage

__all__ = ["is_unknown_session_error", "summarize_run", "token_usage"]

_UNKNOWN_SESSION: Final = re.compile(
    r"\bsession\b[^\n]{0,200}?\bnot found\b|\bno session (?:found|named)\b", re.IGNORECASE
)
_ERRORS_KEPT: Final = 1000


def is_unknown_session_error(stdout: str, stderr: str = "") -> bool:
    """True when Goose could not resume the session it was given (``--resume --name``)."""
    return bool(_UNKNOWN_SESSION.search(stdout) or _UNKNOWN_SESSION.search(stderr))


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """Summarise a whole ``goose run --output-format stream-json`` run.

    Usage and cost come from the terminal ``complete`` event (``cost_usd``
    when goose priced the run); the final text is the last assistant message's
    text (streamed pieces joined); the model is the last ``model_change``.
    Goose reports errors as they happen and may recover (``rate limited,
    retrying``): a run that completed is completed, one that did not is failed
    when it reported an error and cut off otherwise.
    """
    model: str | None = None
    tokens = TokenUsage()
    cost: float | None = None
    final_parts: list[str] = []
    last_id: object = None
    errors: list[str] = []
    omitted = tool_calls = 0
    complete = False
    for line in lines:
        event = parse_json_object(line)
        if event is None:
            continue
        kind = event.get("type")
        if kind == "message":
            message = as_object(event.get("message"))
            if message.get("role") != "assistant":
                continue
            texts = []
            content = message.get("content")
            for part in content if type(content) is list else []:
                body = as_object(part)
                if body.get("type") == "text":
                    texts.append(as_string(body.get("text")))
                elif body.get("type") == "toolRequest":
                    tool_calls += 1
            if texts:
                ident = message.get("id")
                if ident is None or ident != last_id:
                    final_parts = []
                final_parts += texts
                last_id = ident
        elif kind == "model_change":
            model = changed_model(event) or model
        elif kind == "error":
            error = event.get("error")
            text = (error if type(error) is str else str(error)).strip()
            if text and text not in errors:
                if len(errors) < _ERRORS_KEPT:
                    errors.append(text)
                else:
                    omitted += 1
        elif kind == "complete":
            complete = True
            tokens = tokens + token_usage(event)
            spent = complete_cost(event)
            if spent is not None:
                cost = (cost or 0.0) + spent
    details: dict[str, JsonValue] = {"toolCalls": tool_calls}
    if omitted:
        details["errorsOmitted"] = omitted
    final = "".join(final_parts).strip() or None
    outcome = "completed" if complete else ("failed" if errors else ("cut_off" if final else None))
    return RunSummary(
        model=model,
        usage=Usage(
            input_tokens=(tokens.uncached_input or 0) + (tokens.cache_write or 0),
            output_tokens=tokens.output or 0,
            cached_tokens=tokens.cache_read or 0,
        ),
        cost_usd=cost,
        cost_source="reported" if cost is not None else None,
        final_text=final,
        outcome=outcome,
        is_error=not complete and bool(errors),
        errors=tuple(errors),
        unknown_session=is_unknown_session_error("\n".join(errors)),
        complete=complete,
        details=details,
        token_usage=tokens,
    )
