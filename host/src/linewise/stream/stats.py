"""Transcript statistics: what one run came to, counted entry by entry as it streams.

:class:`TranscriptStats` is kept for every transcript the host renders (it is
compiled with the hot path). A plugin's own run summary is
:func:`linewise.transcript.summary.plugin_summary`; reports over whole logs
(``linewise summarize``) are in :mod:`linewise.transcript.run_report`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Final

from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.summary import RunSummary, Usage

__all__ = [
    "MAX_TOKENS",
    "TranscriptStats",
    "finite",
]


#: Most tokens a summary believes one run used; beyond it a count is nonsense.
MAX_TOKENS: Final = 10**15
_KEPT_ERRORS: Final = 20
#: A run_terminal's run state -> the outcome word (linewise_contracts.outcomes).
_RUN_OUTCOMES: Final = {"succeeded": "completed", "failed": "failed", "cancelled": "interrupted"}


@dataclass(slots=True)
class TranscriptStats:
    """What a transcript alone tells about a run, counted entry by entry in constant memory.

    It stands in for a plugin's ``summarize_run`` when there is none, and
    supplies what a run summary has no field for (tool calls, failed tool
    results) when there is one.
    """

    entries: int = 0
    #: ``stdout`` entries: lines the parser did not recognise, shown raw.
    raw_lines: int = 0
    tool_calls: int = 0
    tool_errors: int = 0
    results: int = 0
    session_id: str | None = None
    model: str | None = None
    usage: Usage = field(default_factory=Usage)
    cost_usd: float | None = None
    errors: list[str] = field(default_factory=list)
    error_count: int = 0
    outcome: str | None = None
    is_error: bool = False
    final_text: str | None = None
    started: bool = False
    # An init (a new session) after the last result: that session has no result yet.
    open_session: bool = False
    #: Contract 1.3: the last run_terminal's states and the disposition the run reported.
    run_state: str | None = None
    turn_state: str | None = None
    disposition: str | None = None
    stop_reason: str | None = None

    def add(self, entry: TranscriptEntry) -> None:
        """Count one entry."""
        self.entries += 1
        kind = entry["kind"]
        if kind == "tool_call":
            self.tool_calls += 1
        elif kind == "tool_result":
            self.tool_errors += entry["isError"] is True  # type: ignore[typeddict-item]
        elif kind == "init":
            self.session_id = entry["sessionId"] or self.session_id  # type: ignore[typeddict-item]
            self.model = entry["model"] or self.model  # type: ignore[typeddict-item]
            self.started = True
            self.open_session = True
        elif kind == "result":
            self._add_result(entry)
        elif kind == "stdout":
            self.raw_lines += 1
        elif kind == "run_result":
            self.final_text = entry["summary"] or self.final_text  # type: ignore[typeddict-item]
            self.disposition = entry["disposition"]  # type: ignore[typeddict-item]
        elif kind == "run_terminal":
            self._add_terminal(entry)

    def _add_terminal(self, entry: Any) -> None:
        self.run_state = entry["runState"]
        self.turn_state = entry["turnState"]
        self.disposition = entry["disposition"]
        self.stop_reason = entry.get("stopReason")
        self.open_session = False

    def _add_result(self, entry: Any) -> None:
        self.results += 1
        self.open_session = False
        self.usage += Usage(
            input_tokens=_tokens(entry["inputTokens"]),
            output_tokens=_tokens(entry["outputTokens"]),
            cached_tokens=_tokens(entry["cachedTokens"]),
        )
        cost = finite(entry["costUsd"])
        if cost is not None:
            self.cost_usd = cost if self.cost_usd is None else self.cost_usd + cost
        self.outcome = entry["subtype"] or None
        self.is_error = entry["isError"] is True
        self.final_text = entry["text"] or self.final_text
        if self.is_error:
            messages = list(entry["errors"]) or [entry["subtype"] or "error"]
            self.error_count += len(messages)
            room = _KEPT_ERRORS - len(self.errors)
            self.errors.extend(messages[: max(room, 0)])

    @property
    def complete(self) -> bool | None:
        """True when the last session ended with a result; None when the transcript cannot tell."""
        if not (self.started or self.results):
            return None
        return self.results > 0 and not self.open_session

    def to_summary(self) -> RunSummary:
        """The run summary the transcript alone gives (no turns: entries do not carry them).

        A run that said its terminal state (contract 1.3's ``run_terminal``) is
        complete, and its run state gives the outcome (succeeded: completed,
        cancelled: interrupted, failed: failed), with the states in ``details``.
        """
        if self.run_state is not None:
            details: dict[str, Any] = {
                "runState": self.run_state,
                "turnState": self.turn_state,
                "disposition": self.disposition,
            }
            if self.stop_reason:
                details["stopReason"] = self.stop_reason
            return RunSummary(
                session_id=self.session_id,
                model=self.model,
                usage=self.usage,
                cost_usd=self.cost_usd,
                final_text=self.final_text,
                outcome=_RUN_OUTCOMES[self.run_state],
                is_error=self.run_state == "failed" or self.is_error,
                errors=tuple(self.errors),
                complete=True,
                details=details,
            )
        return RunSummary(
            session_id=self.session_id,
            model=self.model,
            usage=self.usage,
            cost_usd=self.cost_usd,
            final_text=self.final_text,
            outcome=self.outcome,
            is_error=self.is_error,
            errors=tuple(self.errors),
            complete=bool(self.complete),
        )


def finite(value: object) -> float | None:
    """A number as a float, or None when it is not one a summary can hold (huge, inf, nan)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def _tokens(value: object) -> int:
    """A token count; 0 for one no run can have (negative, fractional nonsense, huge)."""
    number = finite(value)
    if number is None or not 0 <= number <= MAX_TOKENS:
        return 0
    return int(number)
