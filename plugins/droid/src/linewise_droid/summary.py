"""Whole-run summaries of a ``droid exec`` stream (a session file's: :mod:`.session.summary`)."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from typing import Any, Final

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import as_string, parse_json_object
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage

from linewise_droid.ending import (
    count,
    final_cost,
    final_failed,
    final_tokens,
    final_turns,
    token_usage,
)
from linewise_droid.parser import error_message, failed_run_error

__all__ = ["is_unknown_session_error", "summarize_run", "token_usage", "usage_of"]

_UNKNOWN_SESSION: Final = re.compile(
    r"\bsession\b[^\n]{0,200}?\bnot found\b|\b(?:unknown|invalid|no such) session\b"
    r"|\b(?:could not|cannot|failed to) (?:find|load|resume) session\b",
    re.IGNORECASE,
)
_ERRORS_KEPT: Final = 1000


def is_unknown_session_error(stdout: str, stderr: str = "") -> bool:
    """True when Droid could not resume the session it was given (``-s/--session-id``)."""
    return bool(_UNKNOWN_SESSION.search(stdout) or _UNKNOWN_SESSION.search(stderr))


def usage_of(tokens: TokenUsage) -> Usage:
    # The 1.x wire view: input without cache reads (cache writes counted as input, as Claude's).
    return Usage(
        input_tokens=(tokens.uncached_input or 0) + (tokens.cache_write or 0),
        output_tokens=tokens.output or 0,
        cached_tokens=tokens.cache_read or 0,
    )


class _Run:
    def __init__(self) -> None:
        self.session_id: str | None = None
        self.model: str | None = None
        self.cwd: str | None = None
        self.tokens = TokenUsage()
        self.cost: float | None = None
        self.final: dict[str, Any] | None = None
        self.last_text: str | None = None
        self.errors: list[str] = []
        self.errors_omitted = 0
        self.tool_calls = 0
        self.failed_tools = 0
        self.other_text: deque[str] = deque(maxlen=20)

    def error(self, text: str) -> None:
        text = text.strip()
        if not text or text in self.errors:
            return
        if len(self.errors) < _ERRORS_KEPT:
            self.errors.append(text)
        else:
            self.errors_omitted += 1

    def event(self, event: dict[str, Any]) -> None:
        self.session_id = as_string(event.get("session_id")) or self.session_id
        kind = event.get("type")
        if kind == "system" and event.get("subtype") == "init":
            self.model = as_string(event.get("model")) or self.model
            self.cwd = as_string(event.get("cwd")) or self.cwd
        elif kind == "message" and event.get("role") == "assistant":
            self.last_text = as_string(event.get("text")) or self.last_text
        elif kind == "tool_call":
            self.tool_calls += 1
        elif kind == "tool_result":
            self.failed_tools += event.get("isError") is True or "error" in event
        elif kind in ("completion", "result"):
            self.final = event
            tokens = final_tokens(event)
            if tokens is not None:
                self.tokens = self.tokens + tokens
            cost = final_cost(event)
            if cost is not None:
                self.cost = (self.cost or 0.0) + cost
            if final_failed(event):
                self.error(failed_run_error(event))
        elif kind == "error" or ("level" in event and type(event.get("error")) is dict):
            self.error(error_message(event) or "Droid reported an error.")


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """Summarise a whole ``droid exec -o stream-json`` run (or ``-o json``'s result).

    Usage and cost come from the terminal ``completion`` (Anthropic's field
    names; Droid reports no cost in stream-json, so it stays unknown); the final
    text is its ``finalText``, else the last assistant message of a run cut off.
    The run is complete when a ``completion`` (or ``result``) arrived.
    """
    run = _Run()
    for line in lines:
        event = parse_json_object(line)
        if event is None:
            if line.strip():
                run.other_text.append(line.strip())
            continue
        run.event(event)
    final = run.final or {}
    failed = final_failed(final)
    outcome: str | None
    if run.final is not None:
        outcome = "failed" if failed else "completed"
    elif run.errors:
        outcome = "failed"
    else:
        outcome = "cut_off" if run.last_text or run.tool_calls else None
    details: dict[str, JsonValue] = {
        "toolCalls": run.tool_calls,
        "failedToolCalls": run.failed_tools,
        "durationMs": count(final.get("durationMs", final.get("duration_ms"))),
    }
    if run.cwd:
        details["cwd"] = run.cwd
    if run.errors_omitted:
        details["errorsOmitted"] = run.errors_omitted
    turns = final_turns(final)
    text = as_string(final.get("finalText")) or as_string(final.get("result"))
    return RunSummary(
        session_id=run.session_id,
        model=run.model,
        usage=usage_of(run.tokens),
        cost_usd=run.cost,
        cost_source="reported" if run.cost is not None else None,
        final_text=text or run.last_text,
        outcome=outcome,
        is_error=bool(run.errors) or failed,
        errors=tuple(run.errors),
        unknown_session=is_unknown_session_error("\n".join([*run.other_text, *run.errors])),
        turns=turns,
        complete=run.final is not None,
        details=details,
        token_usage=run.tokens,
    )
