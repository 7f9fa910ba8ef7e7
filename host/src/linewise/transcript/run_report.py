"""Run reports: one finished run's log summarised (``linewise summarize``), and totals.

Kept apart from the compiled hot path: a report is made once per log, and its
dataclasses would cost every start-up their compiled creation.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import IO, Any, Literal, TypeAlias

from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage

from linewise.plugins.registry import Registry, get_registry
from linewise.settings.defaults import MAX_LINE_CHARS, READ_SIZE
from linewise.stream.diagnostics import Diagnostics
from linewise.stream.lines import read_lines
from linewise.transcript.fold import RunFold, TranscriptStats, run_fold
from linewise.transcript.prices import Estimate, cost_source
from linewise.transcript.summary import plugin_summary

__all__ = [
    "RunReport",
    "RunStatus",
    "RunTotals",
    "SummarySource",
    "folded_report",
    "summarize_log",
    "summarize_stream",
    "total",
]

SummarySource: TypeAlias = Literal["plugin", "transcript"]
RunStatus: TypeAlias = Literal["complete", "error", "cut off", "unknown"]


@dataclass(frozen=True, slots=True)
class RunReport:
    """One run summarised: the run summary, transcript counts, and where the summary came from.

    ``summary`` is the plugin's ``summarize_run`` result when the plugin
    exports one and it worked (``summary_source == "plugin"``), else the one
    :class:`TranscriptStats` gives; ``summary_problem`` says why the plugin's
    was not used when it should have been. ``estimate`` is how the cost was
    estimated, when the CLI reported none (see :func:`linewise.transcript.prices.priced`).
    """

    source: str
    adapter_type: str
    summary: RunSummary
    stats: TranscriptStats
    diagnostics: Diagnostics
    summary_source: SummarySource = "transcript"
    summary_problem: str | None = None
    detection: str | None = None
    estimate: Estimate | None = None

    @property
    def complete(self) -> bool | None:
        """Whether the run ended with its CLI's final result (None: cannot tell)."""
        if self.summary_source == "plugin":
            return self.summary.complete
        return self.stats.complete

    @property
    def status(self) -> RunStatus:
        """``complete``; ``error`` (it ended, with an error result or errors such as running
        out of turns); ``cut off`` (no final result); ``unknown`` (the transcript cannot tell)."""
        complete = self.complete
        if complete is None:
            return "unknown"
        if not complete:
            return "cut off"
        return "error" if self.summary.is_error or self.summary.errors else "complete"

    def to_json(self) -> dict[str, Any]:
        """A JSON-compatible dict (camelCase keys; ``summary`` as the contract writes it)."""
        return {
            "source": self.source,
            "adapterType": self.adapter_type,
            "detection": self.detection,
            "status": self.status,
            "complete": self.complete,
            "toolCalls": self.stats.tool_calls,
            "toolErrors": self.stats.tool_errors,
            "summarySource": self.summary_source,
            "summaryProblem": self.summary_problem,
            "summary": self.summary.to_json(),
            "costSource": cost_source(self.summary),
            "priceData": self.estimate.price_data if self.estimate else None,
            "unpricedModels": list(self.estimate.unpriced) if self.estimate else [],
            "diagnostics": self.diagnostics.to_json(),
        }


@dataclass(frozen=True, slots=True)
class RunTotals:
    """Sums over several runs; ``cost_usd`` over the runs whose cost is known, of which
    ``estimated_usd`` is estimated; ``unknown_cost`` runs have no known cost. ``turns``
    the same way: over the runs whose CLI reported them (None: no run's did), the
    ``unknown_turns`` others left out."""

    runs: int = 0
    turns: int | None = None
    tool_calls: int = 0
    tool_errors: int = 0
    errors: int = 0
    usage: Usage = field(default_factory=Usage)
    #: The runs' tokens in the usage vocabulary: what was reported, added up (None: no run did).
    token_usage: TokenUsage = field(default_factory=TokenUsage)
    cost_usd: float | None = None
    statuses: dict[str, int] = field(default_factory=dict)
    estimated_usd: float | None = None
    unknown_cost: int = 0
    unknown_turns: int = 0
    #: The costs were each known but their sum is past what a float holds: ``cost_usd`` is None.
    cost_overflowed: bool = False

    @property
    def cost_source(self) -> str | None:
        """``reported``, ``estimated``, ``mixed`` (some of each), or None (no cost known)."""
        if self.cost_usd is None:
            return None
        if self.estimated_usd is None:
            return "reported"
        return "estimated" if self.estimated_usd == self.cost_usd else "mixed"

    def to_json(self) -> dict[str, Any]:
        """A JSON-compatible dict (camelCase keys)."""
        return {
            "runs": self.runs,
            "turns": self.turns,
            "toolCalls": self.tool_calls,
            "toolErrors": self.tool_errors,
            "errors": self.errors,
            "usage": {
                "inputTokens": self.usage.input_tokens,
                "outputTokens": self.usage.output_tokens,
                "cachedTokens": self.usage.cached_tokens,
            },
            "tokenUsage": self.token_usage.to_json(),
            "costUsd": self.cost_usd,
            "costSource": self.cost_source,
            "estimatedCostUsd": self.estimated_usd,
            "runsWithUnknownCost": self.unknown_cost,
            "runsWithUnknownTurns": self.unknown_turns,
            "costOverflowed": self.cost_overflowed,
            "statuses": dict(self.statuses),
        }


def total(reports: Iterable[RunReport]) -> RunTotals:
    """The totals of ``reports``."""
    runs = tool_calls = tool_errors = errors = unknown_turns = 0
    turns: int | None = None
    usage = Usage()
    tokens = TokenUsage()
    costs: list[float] = []
    estimated: list[float] = []
    unknown_cost = 0
    statuses: dict[str, int] = {}
    for report in reports:
        summary = report.summary
        runs += 1
        if summary.turns is None:
            unknown_turns += 1
        else:
            turns = (turns or 0) + summary.turns
        tool_calls += report.stats.tool_calls
        tool_errors += report.stats.tool_errors
        errors += len(summary.errors)
        usage += summary.usage
        tokens += summary.token_usage
        if summary.cost_usd is not None:
            costs.append(summary.cost_usd)
            if summary.cost_source == "estimated":
                estimated.append(summary.cost_usd)
        else:
            unknown_cost += 1
        statuses[report.status] = statuses.get(report.status, 0) + 1
    cost_usd, overflowed = _sum(costs)
    estimated_usd, estimate_overflowed = _sum(estimated)
    return RunTotals(
        runs=runs,
        turns=turns,
        tool_calls=tool_calls,
        tool_errors=tool_errors,
        errors=errors,
        usage=usage,
        token_usage=tokens,
        cost_usd=cost_usd,
        statuses=statuses,
        estimated_usd=None if overflowed else estimated_usd,
        unknown_cost=unknown_cost,
        unknown_turns=unknown_turns,
        cost_overflowed=overflowed or estimate_overflowed,
    )


def _sum(costs: list[float]) -> tuple[float | None, bool]:
    """The sum of ``costs`` (None for none), and True when it overflowed (then None: unknown)."""
    if not costs:
        return None, False
    value = sum(costs)
    if not math.isfinite(value):
        return None, True
    return value, False


def summarize_log(
    path: str | os.PathLike[str],
    adapter_type: str = "auto",
    *,
    registry: Registry | None = None,
    max_line_chars: int = MAX_LINE_CHARS,
) -> RunReport:
    """Summarise one finished run's stdout log.

    The log is read twice in constant memory (the plugin's ``summarize_run``
    may keep what it likes): once through a transcript session, once as
    lines for ``summarize_run``. ``adapter_type="auto"`` detects it from the
    first lines. Raises :class:`OSError` when the file cannot be read and
    :class:`~linewise.UnknownAdapterError` for an unknown adapter type.
    """
    with open(path, "rb") as stream:
        return summarize_stream(
            stream,
            os.fspath(path),
            adapter_type,
            registry=registry,
            max_line_chars=max_line_chars,
        )


def summarize_stream(
    stream: IO[bytes],
    source: str,
    adapter_type: str = "auto",
    *,
    registry: Registry | None = None,
    max_line_chars: int = MAX_LINE_CHARS,
) -> RunReport:
    """:func:`summarize_log` of an open, seekable byte stream named ``source`` (read from
    where it stands, then again from the start for the plugin's ``summarize_run``)."""
    from linewise.stream.pipeline import Pipeline

    registry = registry or get_registry()
    if adapter_type != "auto" and adapter_type not in registry.adapter_types:
        from linewise.plugins.suggest import unknown_adapter  # a mistyped name only

        raise unknown_adapter(adapter_type, registry.adapter_types)
    start = stream.tell()
    pipeline = Pipeline(
        adapter_type, registry=registry, max_line_chars=max_line_chars, fold=RunFold()
    )
    while chunk := stream.read(READ_SIZE):
        pipeline.receive("stdout", chunk)
    pipeline.close()
    session = pipeline.session
    parser = registry.load(session.adapter_type)
    stream.seek(start)
    summary, problem = plugin_summary(
        parser, read_lines(stream, max_chars=max_line_chars), strict=registry.strict
    )
    return folded_report(pipeline, summary, problem, source=source)


def folded_report(
    pipeline: Any,
    plugin: RunSummary | None,
    problem: str | None = None,
    *,
    source: str,
    when: str | None = None,
) -> RunReport:
    """The report of a whole run fed through ``pipeline`` (made with ``fold=RunFold()``).

    The one way a run's report is made (``summarize``, live runs, sessions,
    export): the fold's figures (:meth:`RunFold.summary`), the plugin's
    ``summarize_run`` result ``plugin`` for what only it knows (``problem``:
    why there is none), the cost priced at ``when`` where none was reported.
    """
    from linewise.transcript.prices import priced

    stats = run_fold(pipeline)
    session = pipeline.session
    detection = session.detection
    summary_source: SummarySource = "plugin" if plugin is not None else "transcript"
    summary, estimate = priced(stats.summary(plugin), when)
    return RunReport(
        source=source,
        adapter_type=session.adapter_type,
        summary=summary,
        estimate=estimate,
        stats=stats,
        diagnostics=session.diagnostics,
        summary_source=summary_source,
        summary_problem=problem,
        detection=detection.reason if detection is not None else None,
    )
