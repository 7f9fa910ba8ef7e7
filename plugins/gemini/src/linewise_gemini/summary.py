"""The whole-run summary of a Gemini stream-json run, and the classifiers it uses."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Mapping
from typing import Any, Final

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import (
    as_int,
    as_list,
    as_object,
    as_string,
    dig,
    error_text,
    parse_json_object,
)
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage

from linewise_gemini.ending import (
    is_error_result,
    is_turn_limit_result,
    result_cost,
    result_model_usage,
    result_outcome,
)
from linewise_gemini.final_text import FinalText
from linewise_gemini.parser import glued_event, plain_line_kind, read_session_id, read_usage
from linewise_gemini.usage import stats_tokens

__all__ = [
    "is_auth_required",
    "is_session_unrecoverable_error",
    "is_transient_network_error",
    "is_turn_limit_result",
    "summarize_run",
]

# A session Gemini cannot resume: unknown or missing, or grown past the model's
# context window (compression itself overflowed). A fresh session is the way out.
_SESSION_UNRECOVERABLE: Final = re.compile(
    r"unknown\s+session"
    r"|\bsession\b[^\n]{0,200}?\bnot\s+found"
    r"|\b(?:resume|checkpoint)\b[^\n]{0,200}?\bnot\s+found"
    r"|invalid\s+session\s+identifier"
    r"|no\s+previous\s+sessions\s+found"
    r"|(?:cannot|failed\s+to)\s+resume"
    r"|exceeds\s+the\s+maximum\s+number\s+of\s+tokens"
    r"|input\s+token\s+count\s+exceeds",
    re.IGNORECASE,
)
# DNS and connection failures (often while refreshing the OAuth token): retry later.
_TRANSIENT_NETWORK: Final = re.compile(
    r"\b(?:ENOTFOUND|EAI_AGAIN|ECONNRESET|ECONNREFUSED|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH)\b"
    r"|socket hang up"
    r"|fetch failed",
)
_AUTH_REQUIRED: Final = re.compile(
    r"not\s+authenticated|please\s+authenticate|authentication\s+required"
    r"|api[_ ]?key\s+(?:required|missing|invalid|not\s+(?:set|found|valid))"
    r"|unauthorized|invalid\s+credentials|not\s+logged\s+in|login\s+required"
    r"|manual\s+authorization\s+is\s+required|FatalAuthenticationError"
    r"|run\s+`?gemini\s+auth",
    re.IGNORECASE,
)
#: Error, warning and tool error messages a summary keeps of each (the rest are counted).
KEPT_MESSAGES: Final = 1000
# Where a result event carries the answer, when no assistant message did.
_RESULT_TEXT: Final = ("result", "text", "response")


def is_session_unrecoverable_error(*texts: str) -> bool:
    """True when Gemini cannot go on with the session it was asked to resume.

    Matches an unknown or missing session or checkpoint and a session whose
    history exceeds the model's input limit; not network failures. Pass the
    run's error messages and stderr.
    """
    return any(_SESSION_UNRECOVERABLE.search(text) for text in texts)


def is_transient_network_error(*texts: str) -> bool:
    """True when the run failed on DNS or a dropped connection, so a retry may succeed."""
    return any(_TRANSIENT_NETWORK.search(text) for text in texts)


def is_auth_required(*texts: str) -> bool:
    """True when Gemini stopped because it has no usable credentials (API key or login)."""
    return any(_AUTH_REQUIRED.search(line) for text in texts for line in text.splitlines())


def _first(event: Mapping[str, Any], *keys: str) -> object:
    # JavaScript's `a ?? b`, as the reference reads these fields.
    return next((event[key] for key in keys if event.get(key) is not None), None)


def _result_error(result: Mapping[str, Any]) -> str:
    return error_text(_first(result, "error", "message", "result")).strip()


def _question(message: object) -> dict[str, JsonValue] | None:
    for part in as_list(as_object(message).get("content")):
        if dig(part, "type") != "question":
            continue
        choices: list[JsonValue] = []
        for raw in as_list(part.get("choices")):
            choice: dict[str, JsonValue] = {
                "key": as_string(dig(raw, "key")).strip(),
                "label": as_string(dig(raw, "label")).strip(),
            }
            description = as_string(dig(raw, "description")).strip()
            if description:
                choice["description"] = description
            choices.append(choice)
        return {"prompt": as_string(part.get("prompt")).strip(), "choices": choices}
    return None


def _assistant_texts(event: Mapping[str, Any]) -> list[str]:
    content = _first(event, "content", "message")
    if type(content) is str:
        return [content]
    body = as_object(content)
    texts = [as_string(body.get("text"))]
    for part in as_list(body.get("content")):
        if dig(part, "type") in ("output_text", "text", "content"):
            texts.append(as_string(part.get("text")).strip() or as_string(part.get("content")))
    return texts


class _Messages:
    """Messages of one kind in order: the first :data:`KEPT_MESSAGES` kept, all counted."""

    def __init__(self) -> None:
        self.kept: list[str] = []
        self.count = 0

    def add(self, text: str) -> None:
        self.count += 1
        if len(self.kept) < KEPT_MESSAGES:
            self.kept.append(text)

    @property
    def omitted(self) -> int:
        return self.count - len(self.kept)


class _Classified:
    """Whether any text seen so far tells of lost credentials, a network failure or a
    session Gemini cannot resume (looked at as each text comes, so none need be kept)."""

    def __init__(self) -> None:
        self.auth_required = self.transient_network = self.unknown_session = False

    def add(self, text: str) -> None:
        self.auth_required = self.auth_required or is_auth_required(text)
        self.transient_network = self.transient_network or is_transient_network_error(text)
        self.unknown_session = self.unknown_session or is_session_unrecoverable_error(text)


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """Summarise a whole Gemini stream-json run (several runs in one log add up).

    The final text is the assistant's messages joined by blank lines, streamed
    fragments joined back into their message; on a run with more than a
    mebibyte of them only the latest are kept, and ``details["finalTextOmitted"]``
    counts the characters let go (see :mod:`.final_text`). Usage and cost come
    from the ``result`` events (Gemini reports no cost; one written by a wrapper
    is read); ``token_usage`` and ``model_usage`` map ``stats`` as
    :mod:`.usage` says. The outcome is ``completed``, ``failed``,
    ``max_turns`` (Gemini's turn limit) or ``cut_off`` (no result after the
    last activity). A run whose stream stops before its result is incomplete. Memory
    stays bounded however long the log: beyond :data:`KEPT_MESSAGES` errors,
    warnings or tool errors, the rest are counted in ``details`` (``errorsOmitted``
    and the like), never silently lost.
    """
    session_id: str | None = None
    model: str | None = None
    final_text = FinalText()
    streaming = False  # the last assistant message was a fragment still being streamed
    last: dict[str, Any] | None = None  # the last result event
    result_text = ""  # the text of the last result that has one
    results = 0
    usage = Usage()
    tokens = TokenUsage()
    per_model: dict[str, TokenUsage] = {}
    cost: float | None = None
    tool_calls_reported = duration_ms = 0
    models: set[str] = set()
    errors = _Messages()
    warnings = _Messages()
    tool_errors = _Messages()
    classified = _Classified()
    tool_uses = 0
    question: dict[str, JsonValue] | None = None
    open_activity = False  # events after the last result: a run without its result yet
    error_since_result = False
    # Non-JSON lines (stderr merged into the log) are checked by the classifiers;
    # Gemini's failure messages among them explain a run that never got going.
    other_text: deque[str] = deque(maxlen=50)
    failures: deque[str] = deque(maxlen=5)
    for line in lines:
        event = parse_json_object(line)
        if event is None:
            glued = glued_event(line)  # a notice with the event glued to its end
            text, event = glued if glued is not None else (line, None)
            plain = plain_line_kind(text)
            if text.strip() and plain != "system":
                other_text.append(text.strip())
            if plain == "stderr":
                failures.append(text.strip())
            if event is None:
                continue
        ident = read_session_id(event)
        if ident:
            session_id = ident
        kind = as_string(event.get("type"))
        subtype = as_string(event.get("subtype")).lower()
        if kind == "init" or (kind == "system" and subtype == "init"):
            model = as_string(event.get("model")) or model
            open_activity = True
            streaming = False
        elif kind == "assistant" or (kind == "message" and event.get("role") == "assistant"):
            open_activity = True
            fragment = kind == "message" and event.get("delta") is True
            texts = _assistant_texts(event)
            if fragment and streaming and not final_text.empty and texts:
                final_text.extend(texts[0])
                texts = texts[1:]
            for text in texts:
                final_text.add(text)
            streaming = fragment
            question = _question(_first(event, "content", "message")) or question
        elif kind == "result":
            last = event
            results += 1
            result_text = next(
                (text for key in _RESULT_TEXT if (text := as_string(event.get(key)).strip())),
                result_text,
            )
            input_tokens, output_tokens, cached_tokens = read_usage(event)
            usage += Usage(
                input_tokens=int(input_tokens),
                output_tokens=int(output_tokens),
                cached_tokens=int(cached_tokens),
            )
            tokens += stats_tokens(event)
            for name, part in result_model_usage(event).items():
                per_model[name] = per_model.get(name, TokenUsage()) + part
            paid = result_cost(event)
            if paid is not None:
                cost = paid if cost is None else cost + paid
            stats = as_object(event.get("stats"))
            tool_calls_reported += as_int(stats.get("tool_calls"))
            duration_ms += as_int(stats.get("duration_ms"))
            models.update(as_object(stats.get("models")))
            if is_error_result(event):
                message = _result_error(event) or as_string(event.get("status"), "error")
                errors.add(message)
                classified.add(message)
            open_activity = error_since_result = streaming = False
        elif kind == "error" or (kind == "system" and subtype == "error"):
            text = error_text(_first(event, "error", "message", "detail"))
            if event.get("severity") == "warning":
                warnings.add(text)
            else:
                errors.add(text or "error")
                classified.add(text or "error")
                error_since_result = True
        elif kind == "tool_use":
            open_activity = True
            streaming = False
            tool_uses += 1
        elif kind == "tool_result":
            streaming = False
            if as_string(event.get("status")).lower() == "error":
                tool_errors.add(
                    error_text(event.get("error")) or as_string(event.get("output"), "error")
                )

    if last is None and not errors.count and failures:
        # No result and no error event: the CLI failed before streaming (no
        # credentials, a bad --resume), and said so on stderr.
        for failure in failures:
            errors.add(failure)
            classified.add(failure)
        error_since_result = True
    for text in other_text:
        classified.add(text)
    final = final_text.text() or result_text
    details: dict[str, JsonValue] = {
        "runs": results + (1 if open_activity else 0),
        "toolCalls": max(tool_uses, tool_calls_reported),
        "toolErrors": list(tool_errors.kept),
        "warnings": list(warnings.kept),
        "durationMs": duration_ms,
        "turnLimit": is_turn_limit_result(last),
        "authRequired": classified.auth_required,
        "transientNetworkError": classified.transient_network,
    }
    if models:
        details["models"] = [*sorted(models)]
    if last is not None:
        details["status"] = as_string(last.get("subtype")) or as_string(last.get("status")) or None
    if question is not None:
        details["question"] = question
    for key, omitted in (
        ("finalTextOmitted", final_text.omitted),
        ("errorsOmitted", errors.omitted),
        ("warningsOmitted", warnings.omitted),
        ("toolErrorsOmitted", tool_errors.omitted),
    ):
        if omitted:
            details[key] = omitted
    return RunSummary(
        session_id=session_id,
        model=model,
        usage=usage,
        cost_usd=cost,
        final_text=final or None,
        outcome=_outcome(last, open_activity),
        # An error the CLI reported after its last result (or with none) fails the run too.
        is_error=(last is not None and is_error_result(last)) or error_since_result,
        errors=tuple(errors.kept),
        unknown_session=classified.unknown_session,
        turns=None,
        complete=last is not None and not open_activity,
        details=details,
        token_usage=tokens,
        model_usage=per_model if sum(per_model.values(), TokenUsage()) == tokens else {},
        cost_source="reported" if cost is not None else None,
    )


def _outcome(last: Mapping[str, Any] | None, open_activity: bool) -> str | None:
    """How the run ended, in the contract's words; Gemini's own status stays in ``last``."""
    if open_activity:
        return "cut_off"
    if last is None:
        return None
    return result_outcome(last)
