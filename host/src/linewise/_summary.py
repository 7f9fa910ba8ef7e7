"""Run summaries: what a run came to, from its plugin's ``summarize_run`` and its transcript."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any, Final, Literal, TypeAlias

from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.summary import RunSummary, Usage

from linewise._registry import LoadedParser, Registry, get_registry
from linewise._session import DEFAULT_MAX_LINE_CHARS, Diagnostics, TranscriptSession

__all__ = [
    "RunReport",
    "RunStatus",
    "RunTotals",
    "SummarySource",
    "TranscriptStats",
    "log_lines",
    "plugin_summary",
    "summarize_log",
    "total",
]

SummarySource: TypeAlias = Literal["plugin", "transcript"]
RunStatus: TypeAlias = Literal["complete", "error", "cut off", "unknown"]

_READ_SIZE: Final = 64 * 1024
_KEPT_ERRORS: Final = 20


@dataclass(slots=True)
class TranscriptStats:
    """What a transcript alone tells about a run, counted entry by entry in constant memory.

    It stands in for a plugin's ``summarize_run`` when there is none, and
    supplies what a run summary has no field for (tool calls, failed tool
    results) when there is one.
    """

    entries: int = 0
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

    def _add_result(self, entry: Any) -> None:
        self.results += 1
        self.open_session = False
        self.usage += Usage(
            input_tokens=int(entry["inputTokens"]),
            output_tokens=int(entry["outputTokens"]),
            cached_tokens=int(entry["cachedTokens"]),
        )
        cost = float(entry["costUsd"])
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


def log_lines(stream: IO[bytes], *, max_line_chars: int = DEFAULT_MAX_LINE_CHARS) -> Iterator[str]:
    """The non-blank lines of a log as a session sees them: decoded, stripped, bounded.

    A line longer than ``max_line_chars`` bytes is cut there and the rest of
    it skipped, so one enormous line cannot exhaust memory.
    """
    first = True
    while raw := stream.readline(max_line_chars + 1):
        if len(raw) > max_line_chars and not raw.endswith(b"\n"):
            raw = raw[:max_line_chars]
            while (rest := stream.readline(_READ_SIZE)) and not rest.endswith(b"\n"):
                pass
        text = raw.decode("utf-8", errors="replace")
        if first:
            text = text.removeprefix("\ufeff")
            first = False
        line = text.strip()
        if line:
            yield line


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
    except (Exception, SystemExit) as error:
        if strict:
            raise
        return None, f"{parser.adapter_type} summarize_run raised {type(error).__name__}: {error}"
    if not isinstance(summary, RunSummary):
        return None, (
            f"{parser.adapter_type} summarize_run returned a {type(summary).__name__}, "
            "not a RunSummary"
        )
    return summary, None


def _detect(stream: IO[bytes], registry: Registry) -> tuple[str, str]:
    from linewise._detect import SNIFF_MAX_LINES, detect_adapter

    lines: list[str] = []
    for line in log_lines(stream, max_line_chars=1024 * 1024):
        lines.append(line)
        if len(lines) >= SNIFF_MAX_LINES:
            break
    detection = detect_adapter(lines, registry=registry)
    return detection.adapter_type, detection.reason


def summarize_log(
    path: str | os.PathLike[str],
    adapter_type: str = "auto",
    *,
    registry: Registry | None = None,
    max_line_chars: int = DEFAULT_MAX_LINE_CHARS,
) -> RunReport:
    """Summarise one finished run's stdout log.

    The log is read twice in constant memory (the plugin's ``summarize_run``
    may keep what it likes): once through a transcript session, once as
    lines for ``summarize_run``. ``adapter_type="auto"`` detects it from the
    first lines. Raises :class:`OSError` when the file cannot be read and
    :class:`~linewise.UnknownAdapterError` for an unknown adapter type.
    """
    registry = registry or get_registry()
    with open(path, "rb") as stream:
        detection = None
        if adapter_type == "auto":
            adapter_type, detection = _detect(stream, registry)
            stream.seek(0)
        parser = registry.load(adapter_type)
        session = TranscriptSession(
            parser, strict=registry.strict, hooks=registry.hooks, max_line_chars=max_line_chars
        )
        stats = TranscriptStats()
        while chunk := stream.read(_READ_SIZE):
            for entry in session.feed(chunk):
                stats.add(entry)
        for entry in session.close():
            stats.add(entry)
        stream.seek(0)
        summary, problem = plugin_summary(
            parser, log_lines(stream, max_line_chars=max_line_chars), strict=registry.strict
        )
    return RunReport(
        source=os.fspath(path),
        adapter_type=adapter_type,
        summary=summary or stats.to_summary(),
        stats=stats,
        diagnostics=session.diagnostics,
        summary_source="plugin" if summary is not None else "transcript",
        summary_problem=problem,
        detection=detection,
    )
