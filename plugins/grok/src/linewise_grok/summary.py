"""The whole-run summary of a Grok streaming-json run, and the unknown-session classifier."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from typing import Any, Final

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import (
    as_int,
    as_object,
    as_string,
    parse_json_object,
)
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage

from linewise_grok.ending import end_cost, end_turns, named_model, normal, run_outcome, tokens_from
from linewise_grok.parser import _TurnBoundary, run_error

__all__ = ["is_unknown_session_error", "summarize_run", "usage_from"]

# The reference's pattern with its repetitions bounded: a multi-megabyte line
# must not make it quadratic.
_UNKNOWN_SESSION: Final = re.compile(
    r"unknown\s{1,20}session"
    r"|session(?:\s[^\n]{0,200}?)?\s{1,20}not\s{1,20}found"
    r"|resume\s[^\n]{0,200}?\s{1,20}not\s{1,20}found"
    r"|invalid\s{1,20}session",
    re.IGNORECASE,
)
# Reasoning kept for ``details["thought"]``; a runaway stream is cut.
_THOUGHT_LIMIT: Final = 100_000


def is_unknown_session_error(stdout: str, stderr: str = "") -> bool:
    """True when Grok refused to ``--resume`` a session it does not know.

    Reads the CLI's stdout and stderr text (blank lines ignored), like the
    reference's ``isGrokUnknownSessionError``, so a caller can retry without
    ``--resume``.
    """
    lines = (line.strip() for line in f"{stdout}\n{stderr}".splitlines())
    return _UNKNOWN_SESSION.search("\n".join(line for line in lines if line)) is not None


def usage_from(usage: object) -> Usage:
    """A Grok ``usage`` object as :class:`Usage`: cache writes count as input, reads as cached.

    ``input_tokens`` in headless output counts uncached input only, so the cache
    writes are added to it; ``reasoning_tokens`` are part of ``output_tokens``.
    """
    numbers = as_object(usage)
    return Usage(
        input_tokens=as_int(numbers.get("input_tokens"))
        + as_int(numbers.get("cache_creation_input_tokens")),
        output_tokens=as_int(numbers.get("output_tokens")),
        cached_tokens=as_int(numbers.get("cache_read_input_tokens")),
    )


class _Run:
    """What the lines of one Grok run have said so far."""

    def __init__(self) -> None:
        self.session_id: str | None = None
        self.model: str | None = None
        self.request_id: str | None = None
        self.stop_reason: str | None = None
        self.ends: list[dict[str, Any]] = []
        self.usage = Usage()
        self.tokens = TokenUsage()
        self.open_tokens = TokenUsage()
        self.basis: set[str] = set()
        # Usage of responses since the last ``end`` (what a cut-off run has to go on).
        self.open_usage = Usage()
        self.open_activity = False
        self.answer: list[str] = []
        self.last_answer = ""
        self.thought: list[str] = []
        self.thought_size = 0
        self.turns = _TurnBoundary()
        self.errors: list[str] = []
        self.tool_calls = 0
        self.max_turns_event = False
        self.other_text: deque[str] = deque(maxlen=20)

    def take(self, event: dict[str, Any]) -> None:
        kind = as_string(event.get("type")).strip()
        self.open_activity = True
        self.model = named_model(event, kind) or self.model
        if kind == "thought":
            self._think(as_string(event.get("data")))
        elif kind == "text":
            self.answer.append(as_string(event.get("data")))
        elif kind == "usage":
            self.open_usage += usage_from(event.get("usage"))
            self.open_tokens += tokens_from(event.get("usage"))
            self._close_response()
        elif kind == "tool_call":
            self.tool_calls += 1
            self._close_response()
        elif kind == "error":
            self.errors.append(run_error(dict(event)))
        elif kind == "max_turns_reached":
            self.max_turns_event = True
        elif kind == "end":
            self._end(event)

    def _think(self, chunk: str) -> None:
        if chunk and self.thought_size < _THOUGHT_LIMIT:
            chunk = self.turns.apply(chunk)
            self.thought.append(chunk)
            self.thought_size += len(chunk)

    def _close_response(self) -> None:
        text = "".join(self.answer).strip()
        if text:
            self.last_answer = text
        self.answer.clear()

    def _end(self, event: dict[str, Any]) -> None:
        self._close_response()
        self.ends.append(event)
        self.session_id = as_string(event.get("sessionId")).strip() or self.session_id
        self.stop_reason = as_string(event.get("stopReason")).strip() or self.stop_reason
        self.request_id = as_string(event.get("requestId")).strip() or self.request_id
        if "usage" in event:
            self.usage += usage_from(event.get("usage"))
            self.tokens += tokens_from(event.get("usage"))
            self.basis.add("end")
        elif self.open_usage != Usage() or self.open_tokens.known:
            self.usage += self.open_usage
            self.tokens += self.open_tokens
            self.basis.add("responses")
        self.open_usage = Usage()
        self.open_tokens = TokenUsage()
        self.open_activity = False

    def summary(self) -> RunSummary:
        unfinished = self.open_activity
        if unfinished:
            self._close_response()
            if self.open_usage != Usage() or self.open_tokens.known:
                self.usage += self.open_usage
                self.tokens += self.open_tokens
                self.basis.add("responses")
        known = [cost for cost in map(end_cost, self.ends) if cost is not None]
        stop = normal(self.stop_reason or "")
        refusal = stop == "refusal"
        details: dict[str, JsonValue] = {
            "stopReason": self.stop_reason,
            "requestId": self.request_id,
            "thought": "".join(self.thought).strip(),
            "usageBasis": "+".join(sorted(self.basis)) or None,
            "runs": len(self.ends) + (1 if unfinished else 0),
            "unfinishedRun": unfinished,
            "toolCalls": self.tool_calls,
            "maxTurns": self.max_turns_event or stop in ("maxturnrequests", "maxturns"),
            "maxTokens": stop == "maxtokens",
            "refusal": refusal,
            "cancelled": stop == "cancelled",
        }
        turns = [turn for turn in map(end_turns, self.ends) if turn is not None]
        return RunSummary(
            session_id=self.session_id,
            model=self.model,
            usage=self.usage,
            cost_usd=sum(known) if known else None,
            final_text=self.last_answer or None,
            outcome=self._outcome(stop, unfinished),
            is_error=bool(self.errors) or refusal,
            errors=tuple(self.errors),
            unknown_session=is_unknown_session_error(
                "\n".join(self.errors), "\n".join(self.other_text)
            ),
            turns=sum(turns) if turns else None,
            complete=bool(self.ends) and not unfinished,
            details=details,
            token_usage=self.tokens,
            cost_source="reported" if known else None,
        )

    def _outcome(self, stop: str, unfinished: bool) -> str | None:
        """How the run ended in the contract's words (Grok's own stop reason is in ``details``)."""
        if unfinished:
            return "cut_off"
        return run_outcome(stop, errors=bool(self.errors), max_turns=self.max_turns_event)


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """Summarise a whole Grok streaming-json run; concatenated runs add up.

    Session id, stop reason and request id come from ``end``; usage and cost
    from ``end`` too (``usage``, ``total_cost_usd``), else from the
    per-response ``usage`` events of a run cut off before its ``end``. The
    final text is the text of the last model response, not every response's
    text glued together; the reasoning, with turn boundaries restored, is
    ``details["thought"]``.
    """
    run = _Run()
    for line in lines:
        stripped = line.strip()
        if not stripped:
            continue
        event = parse_json_object(stripped)
        if event is None:
            run.other_text.append(stripped)
            continue
        run.take(event)
    return run.summary()
