"""Whole-run summaries of Kimi's stdout (a session file's: :mod:`linewise_kimi.session.summary`)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import as_object, as_string, content_text, parse_json_object
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage

__all__ = ["is_unknown_session_error", "summarize_run", "usage_of"]

_UNKNOWN_SESSION: Final = re.compile(
    r"\bsession\b[^\n]{0,200}?\bnot found\b|\b(?:unknown|no such) session\b"
    r"|\b(?:could not|cannot|failed to) (?:find|load|resume) session\b",
    re.IGNORECASE,
)


def is_unknown_session_error(stdout: str, stderr: str = "") -> bool:
    """True when Kimi could not resume the session it was given (``--session`` / ``-S``)."""
    return bool(_UNKNOWN_SESSION.search(stdout) or _UNKNOWN_SESSION.search(stderr))


def _wire_usage(usage: object) -> TokenUsage:
    # kosong's TokenUsage as the wire serialises it (snake_case).
    body = as_object(usage)

    def count(key: str) -> int | None:
        value = body.get(key)
        return value if type(value) is int and value >= 0 else None

    return TokenUsage(
        uncached_input=count("input_other"),
        cache_read=count("input_cache_read"),
        cache_write=count("input_cache_creation"),
        output=count("output"),
    )


def usage_of(tokens: TokenUsage) -> Usage:
    """The run summary's ``usage`` of Kimi's counts (the cache writes count as input)."""
    return Usage(
        input_tokens=(tokens.uncached_input or 0) + (tokens.cache_write or 0),
        output_tokens=tokens.output or 0,
        cached_tokens=tokens.cache_read or 0,
    )


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """Summarise Kimi's stdout: print mode's messages, or wire mode's events.

    Print mode reports no usage, no session id and no end of the run (the
    process exits): the final text is the last assistant message, the outcome
    unknown. Wire mode adds the step usage of ``StatusUpdate`` events, the
    result of each ``prompt`` (``finished`` is completed) and JSON-RPC errors.
    """
    tokens = TokenUsage()
    final: str | None = None
    errors: list[str] = []
    tool_calls = 0
    status: str | None = None
    wire = False
    for line in lines:
        event = parse_json_object(line)
        if event is None:
            continue
        if event.get("jsonrpc") == "2.0":
            wire = True
            params = as_object(event.get("params"))
            payload = as_object(params.get("payload"))
            kind = params.get("type")
            if kind == "StatusUpdate" and type(payload.get("token_usage")) is dict:
                tokens = tokens + _wire_usage(payload["token_usage"])
            elif kind == "ContentPart" and payload.get("type") == "text":
                final = (final or "") + as_string(payload.get("text"))
            elif kind == "TurnBegin":
                final = None
            elif kind == "ToolCall":
                tool_calls += 1
            result = as_object(event.get("result"))
            if as_string(result.get("status")):
                status = as_string(result.get("status"))
            error = as_object(event.get("error"))
            if as_string(error.get("message")):
                errors.append(as_string(error.get("message")))
            continue
        role = event.get("role")
        if role == "assistant":
            text = content_text(event.get("content")).strip()
            final = text or final
            calls = event.get("tool_calls")
            tool_calls += len(calls) if type(calls) is list else 0
    outcome = None
    if status == "finished":
        outcome = "completed"
    elif status == "cancelled":
        outcome = "interrupted"
    elif errors:
        outcome = "failed"
    details: dict[str, JsonValue] = {"toolCalls": tool_calls, "mode": "wire" if wire else "print"}
    return RunSummary(
        usage=usage_of(tokens),
        final_text=final.strip() if final else None,
        outcome=outcome,
        is_error=bool(errors),
        errors=tuple(dict.fromkeys(errors)),
        unknown_session=is_unknown_session_error("\n".join(errors)),
        complete=status is not None,
        details=details,
        token_usage=tokens,
    )
