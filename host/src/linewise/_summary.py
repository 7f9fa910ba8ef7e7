"""Run summaries: what a run came to, from its plugin's ``summarize_run`` and its transcript."""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import IO, Any, Final, Literal, TypeAlias

from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.summary import RunSummary, Usage

from linewise._defaults import MAX_LINE_CHARS, READ_SIZE
from linewise._diagnostics import Diagnostics
from linewise._lines import read_lines
from linewise._registry import LoadedParser, Registry, get_registry
from linewise.errors import UnknownAdapterError

__all__ = [
    "RunReport",
    "RunStatus",
    "RunTotals",
    "SummarySource",
    "TranscriptStats",
    "plugin_summary",
    "summarize_log",
    "total",
]

SummarySource: TypeAlias = Literal["plugin", "transcript"]
RunStatus: TypeAlias = Literal["complete", "error", "cut off", "unknown"]

#: Most tokens a summary believes one run used; beyond it a count is nonsense.
MAX_TOKENS: Final = 10**15
_KEPT_ERRORS: Final = 20


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

    def _add_result(self, entry: Any) -> None:
        self.results += 1
        self.open_session = False
        self.usage += Usage(
            input_tokens=_tokens(entry["inputTokens"]),
            output_tokens=_tokens(entry["outputTokens"]),
            cached_tokens=_tokens(entry["cachedTokens"]),
        )
        cost = _finite(entry["costUsd"])
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
        """The run summary the transcript alone gives (no turns: entries do not carry them)."""
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


@dataclass(frozen=True, slots=True)
class RunReport:
    """One run summarised: the run summary, transcript counts, and where the summary came from.

    ``summary`` is the plugin's ``summarize_run`` result when the plugin
    exports one and it worked (``summary_source == "plugin"``), else the one
    :class:`TranscriptStats` gives; ``summary_problem`` says why the plugin's
    was not used when it should have been.
    """

    source: str
    adapter_type: str
    summary: RunSummary
    stats: TranscriptStats
    diagnostics: Diagnostics
    summary_source: SummarySource = "transcript"
    summary_problem: str | None = None
    detection: str | None = None

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
            "diagnostics": self.diagnostics.to_json(),
        }


@dataclass(frozen=True, slots=True)
class RunTotals:
    """Sums over several runs; ``cost_usd`` over the runs whose cost is known."""

    runs: int = 0
    turns: int = 0
    tool_calls: int = 0
    tool_errors: int = 0
    errors: int = 0
    usage: Usage = field(default_factory=Usage)
    cost_usd: float | None = None
    statuses: dict[str, int] = field(default_factory=dict)

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
            "costUsd": self.cost_usd,
            "statuses": dict(self.statuses),
        }


def total(reports: Iterable[RunReport]) -> RunTotals:
    """The totals of ``reports``."""
    runs = turns = tool_calls = tool_errors = errors = 0
    usage = Usage()
    costs: list[float] = []
    statuses: dict[str, int] = {}
    for report in reports:
        summary = report.summary
        runs += 1
        turns += summary.turns or 0
        tool_calls += report.stats.tool_calls
        tool_errors += report.stats.tool_errors
        errors += len(summary.errors)
        usage += summary.usage
        if summary.cost_usd is not None:
            costs.append(summary.cost_usd)
        statuses[report.status] = statuses.get(report.status, 0) + 1
    return RunTotals(
        runs=runs,
        turns=turns,
        tool_calls=tool_calls,
        tool_errors=tool_errors,
        errors=errors,
        usage=usage,
        cost_usd=sum(costs) if costs else None,
        statuses=statuses,
    )


def _finite(value: object) -> float | None:
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
    number = _finite(value)
    if number is None or not 0 <= number <= MAX_TOKENS:
        return 0
    return int(number)


def _summary_problem(summary: RunSummary) -> str | None:
    """Why a plugin's run summary cannot be shown, or None when it is sane."""
    usage = summary.usage
    for name, count in (
        ("input_tokens", usage.input_tokens),
        ("output_tokens", usage.output_tokens),
        ("cached_tokens", usage.cached_tokens),
    ):
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_TOKENS:
            return f"usage.{name} is not a token count"
    if summary.cost_usd is not None and _finite(summary.cost_usd) is None:
        return "cost_usd is not a finite number"
    if summary.turns is not None and (
        isinstance(summary.turns, bool)
        or not isinstance(summary.turns, int)
        or not 0 <= summary.turns <= MAX_TOKENS
    ):
        return "turns is not a count"
    return None


def plugin_summary(
    parser: LoadedParser, lines: Iterable[str], *, strict: bool = False
) -> tuple[RunSummary | None, str | None]:
    """The plugin's ``summarize_run(lines)``, or None and why not.

    A plugin without the export gives ``(None, None)``; one that raises or
    returns something other than a :class:`RunSummary` gives ``(None, reason)``
    (raises instead when ``strict``).
    """
    summarize: Callable[[Iterable[str]], RunSummary] | None = parser.summarize_run
    if summarize is None or parser.is_fallback:
        return None, None
    try:
        summary = summarize(lines)
    except KeyboardInterrupt:
        raise
    except BaseException as error:
        if strict:
            raise
        return None, f"{parser.adapter_type} summarize_run raised {type(error).__name__}: {error}"
    if not isinstance(summary, RunSummary):
        return None, (
            f"{parser.adapter_type} summarize_run returned a {type(summary).__name__}, "
            "not a RunSummary"
        )
    problem = _summary_problem(summary)
    if problem is not None:
        return None, f"{parser.adapter_type} summarize_run: {problem}"
    return summary, None


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
    from linewise._pipeline import Pipeline

    registry = registry or get_registry()
    if adapter_type != "auto" and adapter_type not in registry.adapter_types:
        raise UnknownAdapterError(adapter_type, registry.adapter_types)
    start = stream.tell()
    pipeline = Pipeline(adapter_type, registry=registry, max_line_chars=max_line_chars)
    while chunk := stream.read(READ_SIZE):
        pipeline.feed(chunk)
    pipeline.close()
    session = pipeline.session
    parser = registry.load(session.adapter_type)
    stream.seek(start)
    summary, problem = plugin_summary(
        parser, read_lines(stream, max_chars=max_line_chars), strict=registry.strict
    )
    stats = pipeline.stats
    detection = session.detection
    return RunReport(
        source=source,
        adapter_type=session.adapter_type,
        summary=summary or stats.to_summary(),
        stats=stats,
        diagnostics=session.diagnostics,
        summary_source="plugin" if summary is not None else "transcript",
        summary_problem=problem,
        detection=detection.reason if detection is not None else None,
    )
