"""The whole-run summary of an OpenCode ``run --format json`` run, and its classifier."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from typing import Any, Final

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import (
    as_int,
    as_list,
    as_object,
    as_string,
    parse_json_object,
)
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage

from linewise_opencode.ending import step_cost, step_failed, step_reason
from linewise_opencode.outcome import finish_outcome
from linewise_opencode.parser import error_text, error_value
from linewise_opencode.usage import step_tokens

__all__ = ["is_unknown_session_error", "summarize_run"]

_UNKNOWN_SESSION: Final = re.compile(
    r"unknown\s+session"
    r"|\bsession\b[^\n]{0,200}?\bnot\s+found"
    # A resumed session whose file is gone: NotFoundError naming .../session/.../ses_x.json
    r"|resource\s+not\s+found:[^\n]*[\\/]session[\\/][^\n]*\.json"
    r"|\bno\s+session\b",
    re.IGNORECASE,
)


def is_unknown_session_error(*texts: str) -> bool:
    """True when OpenCode could not find the session it was asked to continue (``--session``).

    Pass the run's stdout and stderr (or its error messages), so a caller can
    retry with a fresh session.
    """
    return any(_UNKNOWN_SESSION.search(text) for text in texts)


def _session_id(event: dict[str, Any]) -> str:
    for value in (event.get("sessionID"), as_object(event.get("part")).get("sessionID")):
        if type(value) is str and value.strip():
            return value.strip()
    return ""


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """Summarise a whole OpenCode run from its ``--format json`` lines.

    Usage and cost add up over the ``step_finish`` events (in ``usage``
    reasoning tokens count as output, cache writes as input, cache reads are
    the cached tokens; ``token_usage`` keeps them apart, see :mod:`.usage`).
    The outcome is the last step's finish reason in the contract's words
    (:func:`finish_outcome`; OpenCode's own in ``details["finishReason"]``).
    The final text is the assistant's text parts joined by blank
    lines. A run is complete when its last step finished for good (not to call
    tools), when OpenCode said it is done, or when it ended on an error.
    """
    session_id: str | None = None
    messages: list[str] = []
    positions: dict[str, int] = {}  # text part id -> its index in messages
    usage = Usage()
    token_usage = TokenUsage()
    costs: list[float] = []
    reasoning_tokens = cache_writes = steps = 0
    errors: list[str] = []
    tool_errors: list[str] = []
    rejected: list[JsonValue] = []
    last_reason: str | None = None
    step_open = False  # a step started and has not finished
    ended = False  # nothing but the end can follow: done, or an error after the last step
    failed_step = False
    other_text: deque[str] = deque(maxlen=50)
    for line in lines:
        event = parse_json_object(line)
        if event is None:
            if line.strip():
                other_text.append(line.strip())
            continue
        ident = _session_id(event)
        if ident:
            session_id = ident
        kind = event.get("type")
        part = as_object(event.get("part"))
        if kind == "text":
            text = as_string(part.get("text")).strip()
            part_id = as_string(part.get("id"))
            if part_id in positions:  # a later snapshot of a part: it replaces the earlier
                messages[positions[part_id]] = text
            elif text:
                if part_id:
                    positions[part_id] = len(messages)
                messages.append(text)
            ended = False
        elif kind == "step_start":
            step_open, ended = True, False
        elif kind == "step_finish":
            tokens = as_object(part.get("tokens"))
            cache = as_object(tokens.get("cache"))
            reasoning = as_int(tokens.get("reasoning"))
            usage += Usage(
                input_tokens=as_int(tokens.get("input")) + as_int(cache.get("write")),
                output_tokens=as_int(tokens.get("output")) + reasoning,
                cached_tokens=as_int(cache.get("read")),
            )
            token_usage += step_tokens(tokens)
            reasoning_tokens += reasoning
            cache_writes += as_int(cache.get("write"))
            cost = step_cost(part)
            if cost is not None:
                costs.append(cost)
            steps += 1
            last_reason = step_reason(part)
            failed_step = step_failed(part)
            step_open = ended = False
        elif kind == "tool_use":
            state = as_object(part.get("state"))
            if state.get("status") == "error":
                text = as_string(state.get("error")).strip()
                if text:
                    tool_errors.append(text)
            ended = False
        elif kind == "done":
            rejected = [item for item in as_list(event.get("rejected")) if type(item) is str]
            ended = True
        elif kind == "error" or "error" in event:
            text = error_text(error_value(event)).strip()
            if text:
                errors.append(text)
            ended = True
    finished_for_good = last_reason is not None and last_reason != "tool-calls" and not step_open
    texts = [*errors, *other_text]
    details: dict[str, JsonValue] = {
        "usageBasis": "step_finish",
        "steps": steps,
        "reasoningTokens": reasoning_tokens,
        "cacheWriteTokens": cache_writes,
        "toolErrors": list(tool_errors),
    }
    if rejected:
        details["rejectedPermissions"] = rejected
    if last_reason is not None:
        details["finishReason"] = last_reason
    final = "\n\n".join(message for message in messages if message)
    return RunSummary(
        session_id=session_id,
        model=None,  # `run --format json` does not name the model
        usage=usage,
        cost_usd=sum(costs) if costs else None,
        final_text=final or None,
        outcome=finish_outcome(
            last_reason, failed=bool(errors) or failed_step, complete=ended or finished_for_good
        ),
        is_error=bool(errors) or failed_step,
        errors=tuple(errors),
        unknown_session=is_unknown_session_error(*texts),
        complete=ended or finished_for_good,
        details=details,
        token_usage=token_usage,
        cost_source="reported" if costs else None,
    )
