"""What a session came to (:class:`SessionInfo`), read through the ordinary pipeline."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final

from linewise_contracts.usage import TokenUsage

from linewise.plugins.guard import PluginCallError
from linewise.sessions.records import session_lines
from linewise.settings.defaults import MAX_LINE_CHARS

if TYPE_CHECKING:
    from linewise_contracts.entries import TranscriptEntry

    from linewise.plugins.registry import LoadedParser, Registry
    from linewise.sessions._stores import SessionFile
    from linewise.transcript.run_report import RunReport

__all__ = ["PROMPT_CHARS", "SessionInfo", "read_facts", "read_report", "unread_info"]

#: How much of the first prompt a :class:`SessionInfo` keeps.
PROMPT_CHARS: Final = 200


@dataclass(frozen=True, slots=True)
class SessionInfo:
    """One session on disk and what it came to. ``None`` is unknown, never zero.

    ``id`` is what ``linewise render ID`` takes: the session id the CLI gave,
    else the key of it in its store file, else the file's name without suffix.
    ``started`` and ``ended`` are UTC ISO 8601 times of the first and last
    records' own times; ``times_from`` is ``records`` then, or ``file`` when the
    records carry no time at all and both are the file's modification time.
    Tokens and cost are the CLI's own figures for
    the whole session; ``None`` when it reported none. ``problem`` says why the
    facts are incomplete (the plugin failed part way, say).

    ``token_usage`` is the session's tokens in the one vocabulary and
    ``model_usage`` the same per model, where the CLI says. ``cost_source`` is
    ``reported`` (the CLI's figure) or ``estimated`` (priced from ``price_data``,
    the price table's name and version, with each model's share in
    ``model_costs``); None when the cost is unknown.
    """

    cli: str
    adapter_type: str
    path: str
    key: str | None
    session_id: str | None
    project: str | None
    started: str | None
    ended: str | None
    model: str | None
    messages: int
    tool_calls: int
    input_tokens: int | None
    output_tokens: int | None
    cached_tokens: int | None
    cost_usd: float | None
    status: str
    outcome: str
    first_prompt: str | None
    size: int
    problem: str | None = None
    cost_source: str | None = None
    price_data: str | None = None
    times_from: str = "records"
    # Last, in this order: the facts cache keeps them together (one JSON column).
    token_usage: TokenUsage = field(default_factory=TokenUsage)
    model_usage: dict[str, TokenUsage] = field(default_factory=dict)
    model_costs: dict[str, float] = field(default_factory=dict)

    @property
    def id(self) -> str:
        """The id to find this session by."""
        if self.session_id:
            return self.session_id
        if self.key:
            return self.key
        name = self.path.replace("\\", "/").rsplit("/", 1)[-1]
        return name.split(".", 1)[0] or name

    @property
    def newest(self) -> str:
        """The time the listing sorts by: the end, else the start."""
        return self.ended or self.started or ""

    def to_json(self) -> dict[str, Any]:
        """A JSON-compatible dict (camelCase keys, like the entries)."""
        data = {"id": self.id, **{_CAMEL[name]: getattr(self, name) for name in _CAMEL}}
        data["tokenUsage"] = self.token_usage.to_json()
        data["modelUsage"] = {model: usage.to_json() for model, usage in self.model_usage.items()}
        return data


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


#: Each field's name in JSON (camelCase, like the entries).
_CAMEL: Final = {name: _camel(name) for name in SessionInfo.__dataclass_fields__}


def utc_iso(ts: str) -> str | None:
    """``ts`` (ISO 8601) as UTC with milliseconds and ``Z``, so times sort as strings."""
    try:
        moment = datetime.fromisoformat(ts.strip())
    except (ValueError, AttributeError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class _Collector:
    """What the entries tell beyond :class:`~linewise.transcript.fold.RunFold`.

    ``file_time`` is the time the host stamps on entries whose record has no time
    of its own (the file's modification time): it never counts as an event's time.
    """

    def __init__(self, file_time: str | None = None) -> None:
        self.file_time = file_time
        self.times_from = "records"
        self.messages = 0
        self.cwd: str | None = None
        self.first_prompt: str | None = None
        self.started: str | None = None
        self.ended: str | None = None
        self.text: list[str] = []

    def add(self, entry: TranscriptEntry) -> None:
        kind = entry["kind"]
        if kind in ("user", "assistant"):
            text = entry["text"]  # type: ignore[typeddict-item]
            if "parentToolUseId" not in entry:
                self.messages += 1
                if kind == "user" and self.first_prompt is None and text.strip():
                    self.first_prompt = _shorten(text)
            self.text.append(text)
        elif kind == "init" and self.cwd is None:
            cwd = entry.get("cwd")
            self.cwd = cwd if isinstance(cwd, str) and cwd else None
        ts = utc_iso(entry["ts"])
        if ts is not None and ts != self.file_time:
            if self.started is None or ts < self.started:
                self.started = ts
            if self.ended is None or ts > self.ended:
                self.ended = ts


def _shorten(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= PROMPT_CHARS else flat[: PROMPT_CHARS - 1] + "…"


def read_facts(
    found: SessionFile, parser: LoadedParser, registry: Registry
) -> tuple[SessionInfo, str]:
    """The session's facts and its message text (user and assistant), read through the pipeline.

    The plugin's ``summarize_run``, when it has one, gives tokens, cost and
    outcome (the same as ``linewise summarize``); otherwise the transcript's
    result entries do, and without any, tokens and cost are unknown.
    """
    report, collector, problem = read_report(found, parser, registry)
    return _info(found, report, collector, problem), "\n".join(collector.text)


def read_report(
    found: SessionFile, parser: LoadedParser, registry: Registry
) -> tuple[RunReport, _Collector, str | None]:
    """The session read through the pipeline and the one fold: its run report (as
    ``linewise summarize`` makes it, priced at the session's last record), what the
    entries told beyond the fold, and why the facts are incomplete (None: they are not)."""
    from linewise.stream.pipeline import Pipeline
    from linewise.transcript.fold import RunFold
    from linewise.transcript.run_report import folded_report
    from linewise.transcript.summary import plugin_summary

    mtime = datetime.fromtimestamp(found.mtime_ns / 1e9, UTC)
    ts = mtime.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    collector = _Collector(ts)
    pipeline = Pipeline(
        parser.adapter_type, registry=registry, on_entry=collector.add, fold=RunFold()
    )
    problem = None
    try:
        for line in session_lines(parser, found.path, found.key):
            pipeline.receive("stdout", line + "\n", ts)
    except PluginCallError as error:
        registry.call_failures.add(error.failure)
        problem = f"read in part: {error.failure.describe()}"
    except OSError as error:
        problem = f"read in part: {error.strerror or error}"
    pipeline.close(ts)
    if collector.started is None:  # no record had a time: the file's is all there is
        collector.started = collector.ended = ts
        collector.times_from = "file"
    summary, summary_problem = None, None
    if problem is None and parser.summarize_run is not None:
        try:
            lines = session_lines(parser, found.path, found.key, max_chars=MAX_LINE_CHARS)
            summary, summary_problem = plugin_summary(parser, lines)
        except Exception as error:
            summary_problem = str(error)
    report = folded_report(
        pipeline, summary, summary_problem, source=str(found.path), when=collector.ended
    )
    return report, collector, problem or summary_problem


def _info(
    found: SessionFile, report: RunReport, collector: _Collector, problem: str | None
) -> SessionInfo:
    from linewise.render.outcome import summary_outcome, summary_tokens_known
    from linewise.transcript.prices import cost_source

    summary = report.summary
    known = summary_tokens_known(summary) and not (
        report.summary_source == "transcript" and not report.stats.results
    )
    usage = summary.usage
    return SessionInfo(
        cli=found.cli,
        adapter_type=found.adapter_type,
        path=str(found.path),
        key=found.key,
        session_id=summary.session_id or report.stats.session_id,
        project=collector.cwd,
        started=collector.started,
        ended=collector.ended,
        model=summary.model or report.stats.model,
        messages=collector.messages,
        tool_calls=report.stats.tool_calls,
        input_tokens=usage.input_tokens if known else None,
        output_tokens=usage.output_tokens if known else None,
        cached_tokens=usage.cached_tokens if known else None,
        cost_usd=summary.cost_usd,
        status=report.status,
        outcome="unknown" if report.status == "unknown" else summary_outcome(summary),
        first_prompt=collector.first_prompt,
        size=found.size,
        problem=problem,
        token_usage=summary.token_usage,
        model_usage=dict(summary.model_usage),
        cost_source=cost_source(summary),
        model_costs=dict(report.estimate.by_model) if report.estimate else {},
        price_data=report.estimate.price_data if report.estimate else None,
        times_from=collector.times_from,
    )


def unread_info(found: SessionFile, problem: str) -> SessionInfo:
    """A session that could not be read at all: where it is, and ``problem`` saying why;
    everything else unknown."""
    return SessionInfo(
        cli=found.cli,
        adapter_type=found.adapter_type,
        path=str(found.path),
        key=found.key,
        session_id=None,
        project=None,
        started=None,
        ended=None,
        model=None,
        messages=0,
        tool_calls=0,
        input_tokens=None,
        output_tokens=None,
        cached_tokens=None,
        cost_usd=None,
        status="unknown",
        outcome="unknown",
        first_prompt=None,
        size=found.size,
        problem=problem,
    )
