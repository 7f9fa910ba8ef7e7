"""The HTML renderer: a transcript as one self-contained, searchable page that loads nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any, assert_never

from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.summary import RunSummary

from linewise.render.html.cards import ToolCards
from linewise.render.html.deltas import DeltaRun
from linewise.render.html.described import DescribedBlocks
from linewise.render.html.entries import EntryBlocks
from linewise.render.html.frame import page_end, page_start
from linewise.render.html.paging import PAGE_ENTRIES, PageState

__all__ = ["PAGE_ENTRIES", "HtmlRenderer"]


class HtmlRenderer:
    """A transcript as one self-contained HTML page, written as the entries arrive.

    The page loads nothing (a Content-Security-Policy allows only its own
    inline style and script, by hash; both ship as ``page.css`` and ``page.js``)
    and every piece of agent text is neutralised and escaped, once, by the HTML
    writer (:mod:`linewise.render.html.markup`). Tool calls are
    collapsible cards holding their result (paired by ``toolUseId``); a
    subagent's entries go inside the card of the call that started it, in a
    collapsible block with its own count of tool calls and errors; thinking is
    collapsed; failures are red; consecutive delta entries are merged; a search
    box filters entries. To-do lists are checklists, edits and patches coloured
    diffs, long system messages (hook output) fold open.

    Bounded: memory stays constant however long the transcript is (entries are
    written as they come), one piece of text shows at most
    :data:`~linewise.render.bounds.HTML_TEXT_LIMIT` characters with a note of
    what was left out, tool inputs are pretty-printed only under a guard, and
    after :data:`PAGE_ENTRIES` entries the rest goes into ``<template>`` pages
    the browser parses but lays out only when the reader gets there.

    The header depends on the ``result`` entry, which comes last, so it is
    written by :meth:`close` after the transcript and shown first by the
    stylesheet (and moved first by the script, for screen readers); a
    machine-readable copy goes into a ``<script type="application/json"
    id="linewise-summary">`` block. Given a run summary, :meth:`close` takes
    outcome, tokens and cost from it.

    The pieces: :mod:`~linewise.render.html.frame` (head, toolbar, header,
    script), :mod:`~linewise.render.html.paging` (ids, times, pages),
    :mod:`~linewise.render.html.cards` (tool calls, results, subagents),
    :mod:`~linewise.render.html.entries` (every other kind),
    :mod:`~linewise.render.html.deltas` (merged deltas),
    :mod:`~linewise.render.html.described` (the kinds of contract 1.3); this class routes
    each entry to one of them.
    """

    def __init__(self, stream: IO[str], *, title: str, file_ts: str | None = None) -> None:
        # file_ts: the time the host stamped on lines without their own (the file's).
        self._title = title
        self._page = PageState(stream, file_ts=file_ts)
        self._cards = ToolCards(self._page)
        self._blocks = EntryBlocks(self._page)
        self._deltas = DeltaRun(self._page)
        self._described = DescribedBlocks(self._page)
        self._started = False
        self._closed = False

    def _begin(self) -> None:
        if not self._started:
            self._started = True
            self._page.write(page_start(self._title) + '<main id="transcript">\n')

    def write(self, entry: TranscriptEntry) -> None:
        """Add one entry to the page."""
        if self._closed:
            raise ValueError("this HTML renderer is closed")
        self._begin()
        item: Mapping[str, Any] = entry
        self._count(item)
        nest = self._cards.nest_of(item)
        kind = item["kind"]
        if nest != self._deltas.nest:
            self._end_delta()
        self._page.nest = nest
        if item.get("delta") is True and kind in ("assistant", "thinking"):
            self._cards.end()
            self._blocks.end_diff()
            self._add_delta(kind, item)
            return
        self._end_delta()
        if kind == "tool_result" and self._cards.answers_open_card(item):
            self._cards.write_result(item, inside_card=True)
            self._cards.end()
            return
        self._cards.end()
        if kind != "diff":
            self._blocks.end_diff()
        self._dispatch(item)

    def _count(self, entry: Mapping[str, Any]) -> None:
        figures = self._page.figures
        figures.entries += 1
        ts = entry.get("ts")
        if isinstance(ts, str) and ts:
            figures.first_ts = figures.first_ts or ts
            figures.last_ts = ts
        figures.clock.add(ts)

    def close(self, *, summary: RunSummary | None = None) -> None:
        """Finish the page: the header (from ``summary`` when given), the summary block, script."""
        if self._closed:
            return
        self._begin()
        self._end_delta()
        self._cards.end()
        self._blocks.end_diff()
        self._closed = True
        self._page.end_pages()
        figures = self._page.figures
        if summary is not None and summary.model:
            figures.init(summary.model, "")
        self._page.write(page_end(self._title, figures, summary))
        self._page.stream.flush()

    def _add_delta(self, kind: str, entry: Mapping[str, Any]) -> None:
        if self._deltas.kind != kind:
            self._end_delta()
            self._deltas.start(kind, entry["ts"], self._page.nest)
        if self._deltas.add(entry["text"]) and kind == "assistant":
            self._blocks.forget_assistant()

    def _end_delta(self) -> None:
        buffered = self._deltas.end()
        if buffered is None:
            return
        kind, ts, text, nest = buffered
        current, self._page.nest = self._page.nest, nest
        self._dispatch({"kind": kind, "ts": ts, "text": text})
        self._page.nest = current

    def _dispatch(self, entry: Mapping[str, Any]) -> None:
        if not self._blocks.in_diff:
            self._page.page_break()
        blocks = self._blocks
        kind = entry["kind"]
        match kind:
            case "assistant":
                blocks.text(entry, "assistant", markdown_text=True)
            case "user":
                blocks.text(entry, "user", markdown_text=False)
            case "thinking":
                blocks.thinking(entry)
            case "tool_call":
                self._cards.write_call(entry)
            case "tool_result":
                self._cards.write_result(entry, inside_card=False)
            case "init":
                blocks.init(entry)
            case "result":
                blocks.result(entry)
            case "system":
                blocks.system(entry)
            case "stdout" | "stderr":
                blocks.plain(entry, kind)
            case "diff":
                blocks.diff(entry)
            case (
                "provider_activity"
                | "workspace_change"
                | "workspace_file_reference"
                | "runtime_request"
                | "run_result"
                | "run_terminal"
            ):
                self._described.write(entry)
            case _:
                assert_never(kind)
