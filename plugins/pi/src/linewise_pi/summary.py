"""The whole-run summary of a Pi run, and the unknown-session check."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from typing import Any, Final

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import (
    as_int,
    as_number,
    as_object,
    as_string,
    dig,
    parse_json_object,
)
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage, token_count, without

from linewise_pi.ending import RunErrors, last_model, run_failed, run_outcome
from linewise_pi.parser import message_errors, message_text, message_tokens, message_usage

__all__ = ["is_unknown_session_error", "summarize_run"]

_UNKNOWN_SESSION: Final = re.compile(
    r"\bsession\b[^\n]{0,200}?\bnot found\b"
    r"|\bunknown session\b"
    r"|\bno session (?:available|found)\b"
    r"|\b(?:could not|cannot|failed to) (?:find|open|load|resume) session\b",
    re.IGNORECASE,
)


def is_unknown_session_error(stdout: str, stderr: str = "") -> bool:
    """True when Pi could not open the session it was asked to resume (``--session``).

    Takes the run's output text, like the reference's ``isPiUnknownSessionError``,
    so a caller can retry with a fresh session.
    """
    return bool(_UNKNOWN_SESSION.search(stdout) or _UNKNOWN_SESSION.search(stderr))


class _Run:
    """What one pass over the lines has seen so far."""

    def __init__(self) -> None:
        self.session_id: str | None = None
        self.model: str | None = None
        self.provider: str | None = None
        self.usage = Usage()
        self.tokens = TokenUsage()
        self.cost: float | None = None
        self.final_text: str | None = None
        self.partial: list[str] = []  # text streamed for a message not yet complete
        self.stop: str | None = None
        # A failed request is forgiven when a retry then answers (linewise_pi.ending).
        self.errors = RunErrors()
        self.counted = False  # this turn's assistant message is in the usage
        self.started = False
        self.open = False
        self.turns_ended = 0  # turn_end events: counted, Pi reports no count
        self.retries = 0
        self.compactions = 0
        self.tool_calls = 0
        self.failed_tools = 0
        self.extension_errors = 0
        self.other_text: deque[str] = deque(maxlen=20)

    def add_cost(self, value: object) -> None:
        cost = as_number(value, -1)
        if cost >= 0:
            self.cost = (self.cost or 0.0) + cost

    def assistant(self, message: dict[str, Any]) -> None:
        usage, _ = message_usage(message)
        self.usage += usage
        self.tokens += message_tokens(message)
        self.add_cost(dig(message, "usage", "cost", "total"))
        self.model = last_model([message]) or self.model
        self.provider = as_string(message.get("provider")) or self.provider
        self.stop = as_string(message.get("stopReason")) or self.stop
        self.partial.clear()
        self.counted = True
        text = message_text(message)
        if text:
            self.final_text = text
        self.errors.answered(message, message_errors(message))

    def usage_event(self, usage: dict[str, Any]) -> None:
        if "inputTokens" in usage or "outputTokens" in usage:
            self.usage += Usage(
                input_tokens=as_int(usage.get("inputTokens")),
                output_tokens=as_int(usage.get("outputTokens")),
                cached_tokens=as_int(usage.get("cachedInputTokens")),
            )
            # This camelCase shape names its cache count as OpenAI does: part of the input.
            cached = token_count(usage.get("cachedInputTokens"))
            self.tokens += TokenUsage(
                uncached_input=without(token_count(usage.get("inputTokens")), cached),
                cache_read=cached,
                output=token_count(usage.get("outputTokens")),
            )
            self.add_cost(usage.get("costUsd"))
            return
        self.usage += Usage(
            input_tokens=as_int(usage.get("input")) + as_int(usage.get("cacheWrite")),
            output_tokens=as_int(usage.get("output")),
            cached_tokens=as_int(usage.get("cacheRead")),
        )
        self.tokens += message_tokens({"usage": usage})
        self.add_cost(dig(usage, "cost", "total"))

    def event(self, kind: str, event: dict[str, Any]) -> None:
        self.errors.event(kind, event)
        if kind == "session":
            self.session_id = as_string(event.get("id")) or self.session_id
        elif kind == "agent_start":
            self.started = self.open = True
        elif kind == "agent_end":
            self.open = False
        elif kind == "turn_start":
            self.counted = False
        elif kind == "message_update":
            update = as_object(event.get("assistantMessageEvent"))
            if update.get("type") == "text_delta":
                self.partial.append(as_string(update.get("delta")))
        elif kind == "message_start":
            if dig(event, "message", "role") == "assistant":
                self.partial.clear()
        elif kind == "message_end":
            message = as_object(event.get("message"))
            if message.get("role") == "assistant":
                self.assistant(message)
        elif kind == "turn_end":
            self.turns_ended += 1
            message = as_object(event.get("message"))
            if message.get("role") == "assistant" and not self.counted:
                self.assistant(message)
            self.counted = False
        elif kind == "tool_execution_end":
            self.tool_calls += 1
            self.failed_tools += event.get("isError") is True
        elif kind == "auto_retry_start":
            self.retries += 1
        elif kind in ("auto_compaction_end", "compaction_end"):
            self.compactions += as_object(event.get("result")) != {}
        elif kind == "extension_error":
            self.extension_errors += 1
        elif kind == "usage":
            self.usage_event(as_object(event.get("usage")))
        elif kind == "response":
            ident = dig(event, "data", "sessionId")
            if type(ident) is str and ident:
                self.session_id = ident


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """Summarise a whole Pi ``--mode json`` (or RPC) run.

    Usage and cost add up every assistant message once (Pi repeats each in
    ``message_end`` and ``turn_end``; cache writes count as input), plus any
    standalone ``usage`` events. A failed request that a retry recovered is not
    an error. The run is complete when ``agent_end`` closed the last
    ``agent_start``; text streamed for a message that never completed becomes
    the final text of a run cut off. ``turns`` is None: Pi reports no count of
    the model's round trips; its ``turn_end`` events are ``details["turnsEnded"]``.
    """
    run = _Run()
    for line in lines:
        event = parse_json_object(line)
        if event is None:
            if line.strip():
                run.other_text.append(line.strip())
            continue
        run.event(as_string(event.get("type")), event)

    partial = "".join(run.partial).strip()
    errors = run.errors.texts
    details: dict[str, JsonValue] = {
        "provider": run.provider,
        "toolCalls": run.tool_calls,
        "failedToolCalls": run.failed_tools,
        "retries": run.retries,
        "compactions": run.compactions,
        "extensionErrors": run.extension_errors,
        "cutOffMessage": bool(partial),
        "stopReason": run.stop,
        "turnsEnded": run.turns_ended,
    }
    return RunSummary(
        session_id=run.session_id,
        model=run.model,
        usage=run.usage,
        cost_usd=run.cost,
        final_text=partial or run.final_text,
        outcome=_outcome(run, failed=bool(errors)),
        is_error=run_failed(run.stop, failed=bool(errors)),
        errors=tuple(errors),
        unknown_session=is_unknown_session_error("\n".join([*run.other_text, *errors])),
        complete=run.started and not run.open,
        details=details,
        token_usage=run.tokens,
        cost_source="reported" if run.cost is not None else None,
    )


def _outcome(run: _Run, *, failed: bool) -> str | None:
    """How the run ended in the contract's words (Pi's own stop reason is in ``details``)."""
    if run.started and run.open:
        return "cut_off"
    return run_outcome(run.stop, failed=failed)
