"""The page's header: the run's outcome, tokens and cost, gathered while entries stream past."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

from linewise_contracts.summary import RunSummary

from linewise.render.clocks import RunClock, utc_span
from linewise.render.html.markup import data_text, escaped, number
from linewise.render.outcome import (
    cost_text,
    run_outcome,
    summary_cost,
    summary_tokens,
    summary_tokens_known,
)
from linewise.settings.version import __version__
from linewise.transcript.fold import RunFold

__all__ = ["Figures"]

#: Distinct models and session ids listed in the header (the rest are counted).
LISTED: Final = 20


def _duration(first: str | None, last: str | None) -> str | None:
    try:
        start = datetime.fromisoformat(first or "")
        end = datetime.fromisoformat(last or "")
        seconds = int((end - start).total_seconds())
    except (ValueError, TypeError, OverflowError):
        return None
    if seconds <= 0:
        return None
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}h {minutes:02d}m"
    return f"{minutes}m {seconds:02d}s" if minutes else f"{seconds}s"


def _span(first: str | None, last: str | None) -> str | None:
    """The run's date and time span in UTC (``2025-09-24 19:22 → 2025-09-25 02:10 UTC``).

    None when the first and last entries have one time: that is what entries
    without times of their own all get (the file's modification time), so it is
    not shown as the run's date.
    """
    try:
        start = datetime.fromisoformat(first or "").astimezone(UTC)
        end = datetime.fromisoformat(last or "").astimezone(UTC)
    except (ValueError, TypeError, OverflowError):
        return None
    if start == end:
        return None
    head = start.strftime("%Y-%m-%d %H:%M")
    tail = end.strftime("%H:%M" if end.date() == start.date() else "%Y-%m-%d %H:%M")
    return f"{head} UTC" if tail == start.strftime("%H:%M") else f"{head} → {tail} UTC"


def _names(names: list[str], beyond: bool, *, code: bool) -> str:
    """The first three names and how many more (only the first LISTED are kept)."""
    if not names:
        return "not reported"
    tag = "code" if code else "strong"
    shown = ", ".join(f"<{tag}>{escaped(name)}</{tag}>" for name in names[:3])
    more = len(names) - 3
    if more <= 0:
        return shown
    return shown + f' <span class="note">+{more}{"+" if beyond else ""} more</span>'


def _token_tiles(summary: RunSummary) -> list[tuple[str, str, str]]:
    """The run's tokens in the usage vocabulary, one tile per kind; unknown says so."""
    tokens = summary_tokens(summary)
    if tokens is None:  # an older plugin's wire-format usage: labelled as the CLI's own
        usage = summary.usage
        note = "the CLI's own count"
        return [
            ("Input tokens", number(usage.input_tokens), note),
            ("Cached tokens", number(usage.cached_tokens), note),
            ("Output tokens", number(usage.output_tokens), note),
        ]
    tiles: list[tuple[str, str, str]] = []
    reasoning = tokens.reasoning
    for label, count, note in (
        ("Uncached input", tokens.uncached_input, "input neither read from nor written to a cache"),
        ("Cache read", tokens.cache_read, "input read from a prompt cache"),
        ("Cache write", tokens.cache_write, "input written to a prompt cache"),
        ("Output", tokens.output, "generated, reasoning included"),
    ):
        if label == "Output" and count is not None and reasoning is not None:
            note = f"of it {number(reasoning)} reasoning"  # noqa: PLW2901 - the note of this tile
        tiles.append((label, number(count) if count is not None else "not reported", note))
    return tiles


@dataclass(slots=True)
class Figures:
    """What the header shows: a few numbers and names, so memory stays constant.

    Names (models, sessions, the outcome) are kept raw; the HTML writer
    (:mod:`linewise.render.html.markup`) neutralises and escapes them once, in
    the header and in the page's JSON summary.
    """

    models: list[str] = field(default_factory=list)
    sessions: list[str] = field(default_factory=list)
    more_models: bool = False
    more_sessions: bool = False
    #: The run's top-level results folded (tokens, cost), the one fold every view reads.
    run: RunFold = field(default_factory=RunFold)
    outcome: str | None = None
    failed: bool = False
    tool_calls: int = 0
    subagent_calls: int = 0
    errors: int = 0
    first_error: str | None = None
    entries: int = 0
    #: The run's terminal state in words, from a top-level ``run_terminal`` (contract 1.3).
    terminal: str | None = None
    terminal_state: str = "unfinished"
    first_ts: str | None = None
    last_ts: str | None = None
    #: The events' own first and last times, told apart from the file's time.
    clock: RunClock = field(default_factory=RunClock)

    def init(self, model: str, session: str) -> None:
        if model and model not in self.models:
            if len(self.models) < LISTED:
                self.models.append(model)
            else:
                self.more_models = True
        if session and session not in self.sessions:
            if len(self.sessions) < LISTED:
                self.sessions.append(session)
            else:
                self.more_sessions = True

    def add_result(self, entry: Mapping[str, Any], label: str, failed: bool) -> None:
        """Count a top-level ``result`` entry: its tokens, its cost when reported, its outcome."""
        self.run.add(entry)
        self.outcome = label
        self.failed = failed

    @property
    def results(self) -> int:
        return self.run.results

    @property
    def input_tokens(self) -> int:
        return self.run.usage.input_tokens

    @property
    def output_tokens(self) -> int:
        return self.run.usage.output_tokens

    @property
    def cached_tokens(self) -> int:
        return self.run.usage.cached_tokens

    @property
    def cost_reported(self) -> bool:
        return self.run.cost_usd is not None

    @property
    def cost_usd(self) -> float:
        return self.run.cost_usd or 0.0

    def _wire_tiles(self) -> list[tuple[str, str, str]]:
        """Without a run summary: the results' own counts, labelled as the CLI's; 0 is unknown."""
        note = "the CLI's own count"
        return [
            (label, number(count) if count else "not reported", note if count else "")
            for label, count in (
                ("Input tokens", self.input_tokens),
                ("Cached tokens", self.cached_tokens),
                ("Output tokens", self.output_tokens),
            )
        ]

    def error(self, element_id: str) -> None:
        self.errors += 1
        if self.first_error is None:
            self.first_error = element_id

    def _clock_tiles(self) -> list[tuple[str, str, str]]:
        """Duration and date from the events' own times; the file's time is never taken for them."""
        clock = self.clock
        duration = _duration(clock.first, clock.last)
        tiles = [("Duration", duration, "")] if duration else []
        span = _span(clock.first, clock.last)
        if span:
            note = "first to last entry" if clock.file_ts is None else "the events' own times"
            tiles.append(("When", escaped(span), note))
        elif clock.first is None and clock.file_timed:
            file_time = utc_span(clock.file_ts, clock.file_ts) or "unreadable"
            note = f"no entry has a time of its own; file time {file_time}"
            tiles.append(("When", "not known", escaped(note)))
        return tiles

    def to_json(self, title: str, summary: RunSummary | None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "title": data_text(title),
            "outcome": None if self.outcome is None else data_text(self.outcome),
            "isError": self.failed,
            "results": self.results,
            "models": [data_text(model) for model in self.models],
            "sessionIds": [data_text(session) for session in self.sessions],
            "inputTokens": self.input_tokens,
            "outputTokens": self.output_tokens,
            "cachedTokens": self.cached_tokens,
            # A cost no result reported is unknown, not zero.
            "costUsd": self.cost_usd if self.cost_reported else None,
            "toolCalls": self.tool_calls,
            "errors": self.errors,
            "entries": self.entries,
            "firstTs": self.first_ts,
            "lastTs": self.last_ts,
            "linewise": __version__,
        }
        if self.terminal is not None:  # contract 1.3's run_terminal, only where a run said it
            data["terminal"] = self.terminal
        if summary is None and not (self.input_tokens or self.output_tokens or self.cached_tokens):
            # No result carried a count: the zeros are unknown, not zero.
            data.update(inputTokens=None, outputTokens=None, cachedTokens=None)
        if summary is not None:
            data["run"] = summary.to_json()
            tokens = summary_tokens(summary)
            data["tokenUsage"] = tokens.to_json() if tokens is not None else None
            from linewise.transcript.prices import cost_source, price_data

            data["costSource"] = cost_source(summary)
            if summary.cost_source == "estimated":
                data.update(costUsd=summary.cost_usd, priceData=price_data())
            if not summary_tokens_known(summary):
                # The run reported no tokens: its results' zeros are unknown, not zero.
                data.update(inputTokens=None, outputTokens=None, cachedTokens=None)
        return data

    def header(self, title: str, summary: RunSummary | None) -> str:
        if summary is not None:
            outcome, failed = run_outcome(summary)
            state = "failed" if failed else "finished"
            scope = "whole run"
            tiles = _token_tiles(summary)
            cost = summary_cost(summary)
            models = [summary.model] if summary.model else self.models
        else:
            if self.outcome is None and self.terminal is not None:
                state, outcome = self.terminal_state, self.terminal
            elif self.outcome is None:
                state, outcome = "unfinished", "no result"
            else:
                state = "failed" if self.failed else "finished"
                outcome = self.outcome
            scope = "sum of results" if self.results > 1 else "from the result"
            tiles = self._wire_tiles()
            cost = cost_text(self.cost_usd) if self.cost_reported else "unknown"
            models = self.models
        who = (
            f"{_names(models, self.more_models, code=False)}"
            f" · session {_names(self.sessions, self.more_sessions, code=True)}"
        )
        errors = f"{self.errors:,}"
        if self.first_error:
            errors = f'<a href="#{self.first_error}">{errors}</a>'
        calls = f"{self.tool_calls:,}"
        if self.subagent_calls:
            calls += f' <span class="note">({self.subagent_calls:,} in subagents)</span>'
        tiles += [
            ("Cost", escaped(cost), ""),
            ("Tool calls", calls, ""),
            ("Errors", errors, ""),
        ]
        if self.results > 1:
            tiles.append(("Results", f"{self.results:,}", ""))
        tiles += self._clock_tiles()
        body = "".join(
            f"<div><dt>{label}</dt><dd>{value}</dd>"
            + (f'<dd class="note">{note}</dd>' if note else "")
            + "</div>"
            for label, value, note in tiles
        )
        return (
            f'<header id="summary" class="summary {state}">'
            f'<div class="title-row"><h1>{escaped(title)}</h1>'
            f'<span class="outcome">{escaped(outcome)}</span></div>'
            f'<div class="who">model {who}</div>'
            + (
                f'<div class="terminal">run end: {escaped(self.terminal)}</div>'
                if self.terminal
                else ""
            )
            + f'<div class="scope note">tokens and cost: {scope}</div>'
            f'<dl class="figures">{body}</dl></header>\n'
        )
