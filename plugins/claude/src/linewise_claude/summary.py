"""The whole-run summary of a Claude stream-json run, and the classifiers it uses."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Mapping
from typing import Any, Final

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import (
    as_int,
    as_list,
    as_number,
    as_object,
    as_string,
    dig,
    parse_json_object,
    to_json_text,
)
from linewise_contracts.summary import RunSummary, Usage

__all__ = [
    "is_max_turns_result",
    "is_refusal_result",
    "is_unknown_session_error",
    "model_usage_totals",
    "summarize_run",
]

_UNKNOWN_SESSION: Final = re.compile(
    r"no conversation found with session id"
    r"|\bsession\b[^\n]{0,200}?\bnot found\b"
    r"|--resume requires a valid session",
    re.IGNORECASE,
)


def _texts(result: Mapping[str, Any] | None) -> list[str]:
    if not result:
        return []
    texts = [as_string(result.get("result"))]
    for error in as_list(result.get("errors")):
        message = dig(error, "message")
        texts.append(error if type(error) is str else as_string(message) or to_json_text(error))
    return [text for text in texts if text]


def is_unknown_session_error(result: Mapping[str, Any] | None, *extra_text: str) -> bool:
    """True when Claude refused to resume a session it does not know.

    Looks at the result event's ``result`` and ``errors`` and at any extra text
    (stderr, say), so a caller can retry without ``--resume``.
    """
    return any(_UNKNOWN_SESSION.search(text) for text in [*_texts(result), *extra_text])


def _stop_reasons(result: Mapping[str, Any]) -> list[str]:
    return [
        value.strip().lower()
        for value in (result.get("stop_reason"), result.get("stopReason"))
        if type(value) is str
    ]


def is_max_turns_result(result: Mapping[str, Any] | None) -> bool:
    """True when the run stopped because it used up ``--max-turns`` (structured fields only)."""
    if not result:
        return False
    if as_string(result.get("subtype")) == "error_max_turns":
        return True
    return any(reason.startswith("max_turns") for reason in _stop_reasons(result))


def is_refusal_result(result: Mapping[str, Any] | None) -> bool:
    """True when the model refused (``stop_reason: refusal`` or ``subtype: model_refusal``)."""
    if not result:
        return False
    if as_string(result.get("subtype")) == "model_refusal":
        return True
    return "refusal" in _stop_reasons(result)


def model_usage_totals(model_usage: object) -> Usage | None:
    """Usage summed over ``modelUsage`` (every model the run used, subagents included).

    Cache writes count as input; cache reads are the cached tokens. None when
    ``modelUsage`` is missing or empty.
    """
    models = as_object(model_usage)
    if not models:
        return None
    total = Usage()
    for numbers in models.values():
        entry = as_object(numbers)
        total += Usage(
            input_tokens=as_int(entry.get("inputTokens"))
            + as_int(entry.get("cacheCreationInputTokens")),
            output_tokens=as_int(entry.get("outputTokens")),
            cached_tokens=as_int(entry.get("cacheReadInputTokens")),
        )
    return total


def _result_usage(result: Mapping[str, Any]) -> Usage:
    totals = model_usage_totals(result.get("modelUsage"))
    if totals is not None:
        return totals
    usage = as_object(result.get("usage"))
    return Usage(
        input_tokens=as_int(usage.get("input_tokens")),
        output_tokens=as_int(usage.get("output_tokens")),
        cached_tokens=as_int(usage.get("cache_read_input_tokens")),
    )


def _message_usage(message: Mapping[str, Any]) -> Usage:
    usage = as_object(message.get("usage"))
    return Usage(
        input_tokens=as_int(usage.get("input_tokens"))
        + as_int(usage.get("cache_creation_input_tokens")),
        output_tokens=as_int(usage.get("output_tokens")),
        cached_tokens=as_int(usage.get("cache_read_input_tokens")),
    )


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """Summarise a whole Claude stream-json run; concatenated sessions add up.

    Usage and cost of a finished session come from its ``result`` event
    (``modelUsage`` totals when present, else the ``usage`` block). A session
    cut off before its result is counted from its assistant messages (usage
    once per message id; no cost is known) and makes the run incomplete.
    """
    session_id: str | None = None
    model: str | None = None
    results: list[dict[str, Any]] = []
    last_text: str | None = None
    # Usage of the session still open (no result yet), by message id.
    open_usage: dict[str, Usage] = {}
    open_activity = False
    # Non-JSON lines (an error the CLI printed) are checked for session errors.
    other_text: deque[str] = deque(maxlen=20)
    for line in lines:
        event = parse_json_object(line)
        if event is None:
            if line.strip():
                other_text.append(line)
            continue
        kind = event.get("type")
        ident = event.get("session_id")
        if type(ident) is str and ident:
            session_id = ident
        if kind == "system" and event.get("subtype") == "init":
            model = as_string(event.get("model")) or model
            open_activity = True
        elif kind == "assistant":
            open_activity = True
            message = as_object(event.get("message"))
            model = model or as_string(message.get("model")) or None
            message_id = as_string(message.get("id"))
            if message_id and "usage" in message:
                open_usage[message_id] = _message_usage(message)
            for block in as_list(message.get("content")):
                if dig(block, "type") == "text" and as_string(block.get("text")).strip():
                    last_text = block["text"]
        elif kind == "result":
            results.append(event)
            open_usage.clear()
            open_activity = False

    last = results[-1] if results else None
    errors: list[str] = []
    for result in results:
        if result.get("is_error") is True or as_string(result.get("subtype")).startswith("error"):
            errors.extend(_texts(result) or [as_string(result.get("subtype"), "error")])
    usage = Usage()
    for result in results:
        usage += _result_usage(result)
    for part in open_usage.values():
        usage += part
    costs = [as_number(r.get("total_cost_usd"), -1) for r in results]
    known = [cost for cost in costs if cost >= 0]
    basis = "per_run" if results else "assistant_messages"
    if results and open_usage:
        basis = "per_run+assistant_messages"
    details: dict[str, JsonValue] = {
        "usageBasis": basis,
        "sessions": len(results) + (1 if open_activity else 0),
        "unfinishedSession": open_activity,
        "maxTurns": is_max_turns_result(last),
        "refusal": is_refusal_result(last),
    }
    final = as_string(last.get("result")) if last is not None and not open_activity else ""
    outcome = as_string(last.get("subtype")) if last is not None else ""
    return RunSummary(
        session_id=session_id,
        model=model,
        usage=usage,
        cost_usd=sum(known) if known else None,
        final_text=final or last_text,
        outcome=outcome or None,
        is_error=bool(last is not None and (last.get("is_error") is True)),
        errors=tuple(errors),
        unknown_session=is_unknown_session_error(last, *other_text),
        turns=sum(as_int(r.get("num_turns")) for r in results) if results else None,
        complete=last is not None and not open_activity,
        details=details,
    )
