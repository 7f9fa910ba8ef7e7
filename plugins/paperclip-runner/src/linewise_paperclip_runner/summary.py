"""A Paperclip runner's run: session, model, reported usage, claimed result, terminal state."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from linewise_contracts.extract import parse_json_object
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage

from linewise_paperclip_runner.sniff import PRP_LINE_TYPE
from linewise_paperclip_runner.values import first, num, obj, str_

__all__ = ["summarize_run"]

_OUTCOMES: Final = {"succeeded": "completed", "failed": "failed", "cancelled": "interrupted"}
_KEPT_ERRORS: Final = 20


def _count(value: object) -> int:
    number = num(value)
    return int(number) if number > 0 else 0


class _Run:
    def __init__(self) -> None:
        self.session: str | None = None
        self.model: str | None = None
        # A usage event with `total` is cumulative (the latest wins); `runDelta` adds up.
        self.total: tuple[int, int, int] | None = None
        self.deltas = [0, 0, 0]
        self.reported = False
        self.cost = 0.0
        self.summary: str | None = None
        self.terminal: dict[str, Any] | None = None
        self.errors: list[str] = []
        self.error_count = 0

    def add(self, event: dict[str, Any]) -> None:
        kind = str_(event.get("eventType"))
        payload = obj(event.get("payload"))
        self.session = str_(event.get("normalizedSessionId")) or self.session
        if kind in ("session.started", "session.resumed"):
            self.model = str_(obj(payload.get("context")).get("model")) or self.model
        elif kind == "model.route.changed":
            self.model = str_(payload.get("effectiveModel")) or self.model
        elif kind == "usage.reported" or (
            kind in ("item.started", "item.completed") and payload.get("kind") == "usage"
        ):
            self._usage(payload)
        elif kind in ("run.result.proposed", "run.result.accepted"):
            candidate = payload if kind.endswith("proposed") else obj(payload.get("result"))
            self.summary = str_(candidate.get("summary")) or self.summary
        elif kind == "run.terminal":
            self.terminal = payload
        elif kind in ("turn.failed", "item.failed", "session.failed"):
            message = str_(obj(payload.get("error")).get("message"), str_(payload.get("message")))
            self.error_count += 1
            if len(self.errors) < _KEPT_ERRORS:
                self.errors.append(message or kind)

    def _usage(self, payload: dict[str, Any]) -> None:
        usage = payload.get("usage")
        scope = usage if type(usage) is dict and usage else payload
        self.cost += max(num(first(scope.get("costUsd"), scope.get("cost_usd"))), 0)
        counts, cumulative = scope, False
        for name in ("total", "runDelta"):
            value = scope.get(name)
            if type(value) is dict and value:
                counts, cumulative = value, name == "total"
                break
        figures = (
            _count(first(counts.get("inputTokens"), counts.get("input_tokens"))),
            _count(first(counts.get("outputTokens"), counts.get("output_tokens"))),
            _count(
                first(
                    counts.get("cachedInputTokens"),
                    counts.get("cached_input_tokens"),
                    counts.get("cacheReadTokens"),
                )
            ),
        )
        self.reported = True
        if cumulative:
            self.total = figures
        else:
            self.deltas = [a + b for a, b in zip(self.deltas, figures, strict=True)]

    def summary_of(self) -> RunSummary:
        inputs, outputs, cached = self.total if self.total is not None else tuple(self.deltas)
        terminal = self.terminal
        details: dict[str, Any] = {}
        outcome = None
        if terminal is not None:
            run = str_(terminal.get("runTerminalState"))
            run = run if run in _OUTCOMES else "succeeded"
            outcome = _OUTCOMES[run]
            details["runState"] = run
            details["disposition"] = str_(terminal.get("reportedWorkDisposition")) or "done"
        return RunSummary(
            session_id=self.session,
            model=self.model,
            usage=Usage(input_tokens=inputs, output_tokens=outputs, cached_tokens=cached),
            # Whether a harness's inputTokens include the cache reads is not said by the
            # protocol: the uncached input stays unknown rather than guessed.
            token_usage=TokenUsage(cache_read=cached, output=outputs)
            if self.reported
            else TokenUsage(),
            cost_usd=self.cost if self.cost > 0 else None,
            cost_source="reported" if self.cost > 0 else None,
            final_text=self.summary,
            outcome=outcome,
            is_error=outcome == "failed" or bool(self.errors),
            errors=tuple(self.errors),
            complete=terminal is not None,
            details=details,
        )


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """The run the runner's stdout describes; ``complete`` once it said its terminal state."""
    run = _Run()
    for line in lines:
        value = parse_json_object(line)
        if value is not None and value.get("type") == PRP_LINE_TYPE:
            event = obj(value.get("event"))
            if event:
                run.add(event)
    return run.summary_of()
