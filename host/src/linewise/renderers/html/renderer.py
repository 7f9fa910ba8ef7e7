"""The HTML renderer: a transcript as one self-contained, searchable page that loads nothing."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import IO, Any, Final, assert_never

from linewise_contracts.entries import DIFF_CHANGE_TYPES, TranscriptEntry
from linewise_contracts.extract import BoundedMap, to_json_text
from linewise_contracts.summary import RunSummary

from linewise._version import __version__
from linewise.renderers.html.assets import page_assets
from linewise.renderers.html.header import Figures
from linewise.renderers.html.markup import (
    escaped,
    line_count,
    lines_label,
    markdown,
    shortened,
)
from linewise.renderers.html.tools import checklist_from_text, tool_input, tool_summary
from linewise.renderers.outcome import result_failed, result_label, result_usage
from linewise.renderers.preview import one_line, subagent_label, tool_preview
from linewise.renderers.sanitising import neutralize

__all__ = ["PAGE_ENTRIES", "HtmlRenderer"]

_TOOLBAR: Final = """<div class="toolbar" role="search">
<input id="search" type="search" placeholder="Search the transcript  ( / )" autocomplete="off"
 aria-label="Search the transcript; Enter for the next match, Escape to clear">
<span id="search-status" aria-live="polite"></span>
<button id="previous" type="button" title="Previous match (Shift+Enter)">&#8593;</button>
<button id="next" type="button" title="Next match (Enter)">&#8595;</button>
<button id="expand" type="button">Expand all</button>
<button id="collapse" type="button">Collapse all</button>
<button id="next-error" type="button">Next error</button>
</div>
"""

#: Text of one merged delta block kept before it is streamed straight through.
_DELTA_BUFFER: Final = 256 * 1024
#: Tool calls still waiting for their result that are remembered for pairing.
_PENDING_CALLS: Final = 10_000
#: Top-level entries per page: the first page is shown, later ones are <template>
#: pages the script opens as the reader scrolls (a browser then lays out a page at a time).
PAGE_ENTRIES: Final = 1000
_PREVIEW: Final = 160
#: A system message longer than this, or of more lines, is folded with its first line shown.
_SYSTEM_INLINE: Final = 240
_ISO_TS: Final = re.compile(
    r"\d{4}-\d\d-\d\d[T ](\d\d:\d\d:\d\d)(?:\.\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?"
)


def _script_json(value: object) -> str:
    """JSON that cannot end its <script> element or open a comment inside it."""
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"), default=repr)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.strip().encode("utf-8", "surrogatepass"), digest_size=16).digest()


def _preview(value: object) -> str:
    preview = tool_preview(value, _PREVIEW)
    if preview is not None:
        return preview.text
    if value in (None, {}, [], ""):
        return ""
    return one_line(to_json_text(value)[: _PREVIEW * 4], _PREVIEW)


class HtmlRenderer:
    """A transcript as one self-contained HTML page, written as the entries arrive.

    The page loads nothing (a Content-Security-Policy allows only its own
    inline style and script, by hash; both ship as ``page.css`` and ``page.js``)
    and every piece of agent text is neutralised and escaped. Tool calls are
    collapsible cards holding their result (paired by ``toolUseId``); a
    subagent's entries go inside the card of the call that started it, in a
    collapsible block with its own count of tool calls and errors; thinking is
    collapsed; failures are red; consecutive delta entries are merged; a search
    box filters entries. To-do lists are checklists, edits and patches coloured
    diffs, long system messages (hook output) fold open.

    Bounded: memory stays constant however long the transcript is (entries are
    written as they come), one piece of text shows at most
    :data:`~linewise.renderers.bounds.HTML_TEXT_LIMIT` characters with a note of
    what was left out, tool inputs are pretty-printed only under a guard, and
    after :data:`PAGE_ENTRIES` entries the rest goes into ``<template>`` pages
    the browser parses but lays out only when the reader gets there.

    The header depends on the ``result`` entry, which comes last, so it is
    written by :meth:`close` after the transcript and shown first by the
    stylesheet (and moved first by the script, for screen readers); a
    machine-readable copy goes into a ``<script type="application/json"
    id="linewise-summary">`` block. Given a run summary, :meth:`close` takes
    outcome, tokens and cost from it.
    """

    def __init__(self, stream: IO[str], *, title: str) -> None:
        self._stream = stream
        self._title = title
        self._figures = Figures()
        self._counter = 0
        self._started = False
        self._closed = False
        self._last_ts: str | None = None
        # toolUseId -> (card element id, tool name) of calls still waiting for a result.
        self._pending: dict[str, tuple[str, str]] = {}
        # toolUseId -> card element id of calls that started a subagent.
        self._subagents: BoundedMap[str, str] = BoundedMap(_PENDING_CALLS)
        # The last card stays open so a result that follows at once is written inside it.
        self._card_open = False
        self._card_use_id: str | None = None
        self._diff_open = False
        # A digest of the last assistant text (not the text: memory stays constant).
        self._last_assistant: tuple[bytes, str] | None = None
        # A run of delta fragments: buffered up to _DELTA_BUFFER, then streamed.
        self._delta_kind: str | None = None
        self._delta_parts: list[str] = []
        self._delta_size = 0
        self._delta_ts = ""
        self._delta_streaming = False
        self._delta_nest = ""
        # ' data-parent="eN"' on the element of an entry from a subagent.
        self._nest = ""
        self._on_page = 0
        self._in_template = False

    # -- the page ---------------------------------------------------------------

    def _begin(self) -> None:
        if self._started:
            return
        self._started = True
        css, _, policy = page_assets()
        self._stream.write(
            '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{policy}">\n'
            '<meta name="referrer" content="no-referrer">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<meta name="generator" content="linewise {__version__}">\n'
            f"<title>{escaped(self._title)} · linewise</title>\n<style>{css}</style>\n"
            "</head>\n<body>\n" + _TOOLBAR
        )

    def write(self, entry: TranscriptEntry) -> None:
        """Add one entry to the page."""
        if self._closed:
            raise ValueError("this HTML renderer is closed")
        if not self._started:
            self._begin()
            self._stream.write('<main id="transcript">\n')
        item: Mapping[str, Any] = entry
        figures = self._figures
        figures.entries += 1
        ts = item.get("ts")
        if isinstance(ts, str) and ts:
            figures.first_ts = figures.first_ts or ts
            figures.last_ts = ts
        nest = self._nest_of(item)
        kind = item["kind"]
        if nest != self._delta_nest:
            self._end_delta()
        self._nest = nest
        if item.get("delta") is True and kind in ("assistant", "thinking"):
            self._end_card()
            self._end_diff()
            self._add_delta(kind, item)
            return
        self._end_delta()
        if kind == "tool_result" and self._card_open and self._card_use_id == item["toolUseId"]:
            self._write_tool_result(item, inside_card=True)
            self._end_card()
            return
        self._end_card()
        if kind != "diff":
            self._end_diff()
        self._dispatch(item)

    def _nest_of(self, entry: Mapping[str, Any]) -> str:
        parent = entry.get("parentToolUseId")
        if not isinstance(parent, str) or not parent:
            return ""
        card = self._subagents.get(parent)
        # A parent call this page never showed: the entry stays where it is, marked.
        return f' data-parent="{card}"' if card else ' data-orphan-parent=""'

    def close(self, *, summary: RunSummary | None = None) -> None:
        """Finish the page: the header (from ``summary`` when given), the summary block, script."""
        if self._closed:
            return
        if not self._started:
            self._begin()
            self._stream.write('<main id="transcript">\n')
        self._end_delta()
        self._end_card()
        self._end_diff()
        self._closed = True
        if self._in_template:
            self._stream.write("</template>\n")
        figures = self._figures
        if summary is not None and summary.model:
            figures.init(neutralize(summary.model), "")
        _, js, _ = page_assets()
        data = _script_json(figures.to_json(neutralize(self._title), summary))
        errors = figures.errors
        self._stream.write(
            "</main>\n"
            + '<button id="more" type="button" hidden>Show more</button>\n'
            + figures.header(self._title, summary)
            + f'<script type="application/json" id="linewise-summary">{data}</script>\n'
            + f"<footer>Rendered by linewise {__version__} from "
            + f"{figures.entries:,} entries.</footer>\n"
            # Outside the toolbar's markup (written first) so the count is known.
            + f'<template id="error-count" data-errors="{errors}"></template>\n'
            + f"<script>{js}</script>\n</body>\n</html>\n"
        )
        self._stream.flush()

    # -- helpers -----------------------------------------------------------------

    def _next_id(self) -> str:
        self._counter += 1
        return f"e{self._counter}"

    def _time(self, entry: Mapping[str, Any]) -> str:
        """The entry's time, shown only when it differs from the previous entry's."""
        ts = entry.get("ts")
        if not isinstance(ts, str) or not ts or ts == self._last_ts:
            return ""
        self._last_ts = ts
        match = _ISO_TS.fullmatch(ts)
        if match is None:
            return f"<time>{escaped(ts[:40])}</time>"
        # Only a timestamp of digits and separators goes into an attribute: no agent
        # text is ever placed in one.
        return f'<time title="{ts}">{match.group(1)}</time>'

    def _end_card(self) -> None:
        if self._card_open:
            self._stream.write("</div></div></details>\n")
            self._card_open = False
            self._card_use_id = None

    def _end_diff(self) -> None:
        if self._diff_open:
            self._stream.write("</pre></section>\n")
            self._diff_open = False

    def _page_break(self) -> None:
        """Start a new <template> page every PAGE_ENTRIES top-level entries."""
        self._on_page += 1
        if self._on_page <= PAGE_ENTRIES:
            return
        self._on_page = 1
        if self._in_template:
            self._stream.write("</template>\n")
        self._stream.write('<template class="page">\n')
        self._in_template = True

    # -- deltas --------------------------------------------------------------

    def _add_delta(self, kind: str, entry: Mapping[str, Any]) -> None:
        if self._delta_kind != kind:
            self._end_delta()
            self._delta_kind = kind
            self._delta_ts = entry["ts"]
            self._delta_nest = self._nest
        text: str = entry["text"]
        if self._delta_streaming:
            self._stream.write(escaped(text))
            return
        self._delta_parts.append(text)
        self._delta_size += len(text)
        if self._delta_size > _DELTA_BUFFER:
            # Too long to hold: open the block now and stream the rest into it.
            self._delta_streaming = True
            self._page_break()
            if kind == "assistant":
                self._last_assistant = None  # not digested: never "the same as" a result
            ident = self._next_id()
            buffered = "".join(self._delta_parts)
            self._delta_parts.clear()
            head = self._time({"ts": self._delta_ts})
            nest = self._delta_nest
            if kind == "thinking":
                self._stream.write(
                    f'<details class="entry thinking" id="{ident}"{nest}><summary>'
                    f'<span class="kind">thinking</span>'
                    f'<span class="preview">{escaped(one_line(buffered, _PREVIEW))}</span>'
                    f'<span class="meta">long, streamed</span>{head}</summary>'
                    f'<div class="body"><div class="text">{escaped(buffered)}'
                )
            else:
                self._stream.write(
                    f'<section class="entry {kind}" id="{ident}"{nest}><div class="head">'
                    f'<span class="kind">{kind}</span>{head}</div>'
                    f'<div class="text">{escaped(buffered)}'
                )

    def _end_delta(self) -> None:
        kind = self._delta_kind
        if kind is None:
            return
        self._delta_kind = None
        if self._delta_streaming:
            self._delta_streaming = False
            closing = "</div></div></details>\n" if kind == "thinking" else "</div></section>\n"
            self._stream.write(closing)
        else:
            text = "".join(self._delta_parts)
            nest, self._nest = self._nest, self._delta_nest
            self._dispatch({"kind": kind, "ts": self._delta_ts, "text": text})
            self._nest = nest
        self._delta_parts.clear()
        self._delta_size = 0
        self._delta_nest = ""

    # -- entries -------------------------------------------------------------

    def _dispatch(self, entry: Mapping[str, Any]) -> None:
        if not self._diff_open:
            self._page_break()
        kind = entry["kind"]
        match kind:
            case "assistant":
                self._write_text_entry(entry, "assistant", markdown_text=True)
            case "user":
                self._write_text_entry(entry, "user", markdown_text=False)
            case "thinking":
                self._write_thinking(entry)
            case "tool_call":
                self._write_tool_call(entry)
            case "tool_result":
                self._write_tool_result(entry, inside_card=False)
            case "init":
                self._write_init(entry)
            case "result":
                self._write_result(entry)
            case "system":
                self._write_system(entry)
            case "stdout" | "stderr":
                self._write_plain(entry, kind)
            case "diff":
                self._write_diff(entry)
            case _:
                assert_never(kind)

    def _write_text_entry(
        self, entry: Mapping[str, Any], kind: str, *, markdown_text: bool
    ) -> None:
        ident = self._next_id()
        if kind == "assistant" and not self._nest:
            self._last_assistant = (_digest(entry["text"]), ident)
        text = shortened(entry["text"])
        body = markdown(text) if markdown_text else text
        scroll = "" if markdown_text else " scroll"
        self._stream.write(
            f'<section class="entry {kind}" id="{ident}"{self._nest}><div class="head">'
            f'<span class="kind">{kind}</span>{self._time(entry)}</div>'
            f'<div class="text{scroll}">{body}</div></section>\n'
        )

    def _write_thinking(self, entry: Mapping[str, Any]) -> None:
        text: str = entry["text"]
        self._stream.write(
            f'<details class="entry thinking" id="{self._next_id()}"{self._nest}><summary>'
            f'<span class="kind">thinking</span>'
            f'<span class="preview">{escaped(one_line(text, _PREVIEW))}</span>'
            f'<span class="meta">{lines_label(line_count(text))}</span>{self._time(entry)}'
            f'</summary><div class="body"><div class="text scroll">{shortened(text)}</div></div>'
            "</details>\n"
        )

    def _write_tool_call(self, entry: Mapping[str, Any]) -> None:
        ident = self._next_id()
        self._figures.tool_calls += 1
        if self._nest:
            self._figures.subagent_calls += 1
        name = entry["name"] if isinstance(entry.get("name"), str) else ""
        use_id = entry.get("toolUseId")
        if isinstance(use_id, str) and use_id:
            self._pending.pop(use_id, None)
            self._pending[use_id] = (ident, name)
            if len(self._pending) > _PENDING_CALLS:
                # The oldest unanswered call is forgotten; a late result shows as unpaired.
                del self._pending[next(iter(self._pending))]
        else:
            use_id = None
        value = entry.get("input")
        agent = subagent_label(name, value)
        subagent = badge = ""
        if agent is not None and use_id is not None:
            self._subagents[use_id] = ident
            badge = '<span class="sub-badge"></span>'
            subagent = (
                f'<details class="subagent" open><summary><span class="kind">subagent</span>'
                f'<span class="preview">{escaped(agent)}</span>'
                '<span class="meta sub-count"></span></summary>'
                '<div class="sub-entries"></div></details>'
            )
        ids = "".join(
            f" · {label} <code>{escaped(entry[key])}</code>"
            for label, key in (
                ("id", "toolUseId"),
                ("invocation", "invocationId"),
                ("action request", "actionRequestId"),
            )
            if isinstance(entry.get(key), str) and entry[key]
        )
        self._stream.write(
            f'<details class="entry tool" id="{ident}"{self._nest}><summary>'
            f'<span class="kind">tool</span><span class="tool-name">{escaped(name)}</span>'
            f'<span class="preview">{escaped(tool_summary(name, value) or _preview(value))}</span>'
            f"{badge}"
            f'<span class="meta"></span><span class="status"></span>{self._time(entry)}</summary>'
            f'<div class="body"><div class="label">input{ids}</div>{tool_input(name, value)}'
            f'{subagent}<div class="slot">'
        )
        self._card_open = True
        self._card_use_id = use_id

    def _write_tool_result(self, entry: Mapping[str, Any], *, inside_card: bool) -> None:
        ident = self._next_id()
        use_id = entry["toolUseId"]
        call = self._pending.pop(use_id, None)
        error = entry["isError"] is True
        content: str = entry["content"].rstrip("\n")
        name = entry.get("toolName") or (call[1] if call else "")
        classes = "entry tool-result" + (" is-error" if error else "")
        where = "" if inside_card else self._nest
        if call is None:
            classes += " orphan"
            link = (
                f'<span class="note">no matching tool call{" · " + escaped(name) if name else ""}'
                f" · id <code>{escaped(use_id)}</code></span>"
            )
        else:
            if not inside_card:
                # The card may itself be inside a subagent: the script moves the result.
                where = f' data-call="{call[0]}"'
            link = f'<a class="backlink" href="#{call[0]}">↳ {escaped(name or "tool call")}</a>'
        if error:
            self._figures.error(ident)
        count = line_count(content)
        mark = '<span class="err-mark">error</span>' if error else ""
        body = (
            f'<pre class="out scroll">{shortened(content)}</pre>'
            if content
            else '<span class="note">no output</span>'
        )
        self._stream.write(
            f'<section class="{classes}" id="{ident}"{where}><div class="head">'
            f'<span class="kind">tool result</span>{mark}{link}'
            f'<span class="meta lines">{lines_label(count)}</span>{self._time(entry)}</div>'
            f"{body}</section>\n"
        )

    def _write_init(self, entry: Mapping[str, Any]) -> None:
        if not self._nest:
            self._figures.init(neutralize(entry["model"]), neutralize(entry["sessionId"]))
        model = escaped(entry["model"]) if entry["model"] else "not reported"
        self._stream.write(
            f'<div class="entry init" id="{self._next_id()}"{self._nest}><div class="head">'
            '<span class="kind">init</span><span>session started · model '
            f"<strong>{model}</strong> · session "
            f"<code>{escaped(entry['sessionId'])}</code></span>{self._time(entry)}</div></div>\n"
        )

    def _write_result(self, entry: Mapping[str, Any]) -> None:
        figures = self._figures
        ident = self._next_id()
        failed = result_failed(entry)
        label = neutralize(result_label(entry))
        if not self._nest:  # a subagent's own result is not the run's
            figures.results += 1
            figures.input_tokens += entry["inputTokens"]
            figures.output_tokens += entry["outputTokens"]
            figures.cached_tokens += entry["cachedTokens"]
            if entry["costUsd"] > 0:
                figures.cost_usd += entry["costUsd"]
                figures.cost_reported = True
            figures.outcome = label
            figures.failed = failed
        if failed:
            figures.error(ident)
        mark = '<span class="err-mark">failed</span>' if failed else ""
        final: str = entry["text"]
        if not final:
            text = ""
        elif self._last_assistant and self._last_assistant[0] == _digest(final):
            # Claude repeats its last message as the result text: point at it instead.
            text = (
                f'<div class="note"><a href="#{self._last_assistant[1]}">'
                "the last assistant message</a> is the final message</div>"
            )
        else:
            text = f'<div class="text">{markdown(shortened(final))}</div>'
        errors = "".join(f"<li>{escaped(message)}</li>" for message in entry["errors"][:100])
        listed = f'<ul class="errors">{errors}</ul>' if errors else ""
        self._stream.write(
            f'<section class="entry result{" is-error" if failed else ""}" id="{ident}"'
            f'{self._nest}><div class="head"><span class="kind">run result</span>{mark}'
            f"<strong>{escaped(label)}</strong>"
            f'<span class="usage">{escaped(result_usage(entry))}</span>{self._time(entry)}'
            f"</div>{text}"
            f"{listed}</section>\n"
        )

    def _write_system(self, entry: Mapping[str, Any]) -> None:
        ident = self._next_id()
        text: str = entry["text"].rstrip("\n")
        checklist = checklist_from_text(text)
        if checklist:
            self._stream.write(
                f'<section class="entry system todo-list" id="{ident}"{self._nest}>'
                f'<div class="head"><span class="kind">system</span>{self._time(entry)}</div>'
                f"{checklist}</section>\n"
            )
        elif len(text) <= _SYSTEM_INLINE and "\n" not in text:
            self._stream.write(
                f'<div class="entry system" id="{ident}"{self._nest}><div class="head">'
                f'<span class="kind">system</span><span class="text">{escaped(text)}</span>'
                f"{self._time(entry)}</div></div>\n"
            )
        else:
            # Hook output and the like: the first line, and the whole text one click away.
            self._stream.write(
                f'<details class="entry system long" id="{ident}"{self._nest}><summary>'
                f'<span class="kind">system</span>'
                f'<span class="preview">{escaped(one_line(text, _PREVIEW))}</span>'
                f'<span class="meta">{lines_label(line_count(text))}</span>{self._time(entry)}'
                f'</summary><div class="body"><pre class="out">{shortened(text)}</pre></div>'
                "</details>\n"
            )

    def _write_plain(self, entry: Mapping[str, Any], kind: str) -> None:
        ident = self._next_id()
        text: str = entry["text"]
        classes = f"entry {kind}"
        if kind == "stderr":
            self._figures.error(ident)
            classes += " is-error"
        self._stream.write(
            f'<section class="{classes}" id="{ident}"{self._nest}><div class="head">'
            f'<span class="kind">{kind}</span>{self._time(entry)}</div>'
            f'<pre class="scroll">{shortened(text.rstrip(chr(10)))}</pre></section>\n'
        )

    def _write_diff(self, entry: Mapping[str, Any]) -> None:
        if not self._diff_open:
            self._stream.write(
                f'<section class="entry diff" id="{self._next_id()}"{self._nest}>'
                f'<div class="head"><span class="kind">diff</span>{self._time(entry)}</div><pre>'
            )
            self._diff_open = True
        change = entry["changeType"]
        change = change if change in DIFF_CHANGE_TYPES else "context"
        # The newline inside the span keeps copied text line by line; a block's
        # trailing newline draws no extra line.
        self._stream.write(f'<span class="d-{change}">{shortened(entry["text"])}\n</span>')
