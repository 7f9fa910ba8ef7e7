"""The HTML renderer: a transcript as one self-contained, searchable page that loads nothing."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from html import escape
from typing import IO, Any, Final

from linewise_contracts.entries import DIFF_CHANGE_TYPES, TranscriptEntry

from linewise._sanitize import neutralize
from linewise._version import __version__

__all__ = ["HtmlRenderer"]

# The reference colour convention, as CSS custom properties: lifecycle blue,
# assistant green, thinking grey, tool calls amber, results cyan, errors red.
_CSS: Final = """
:root{color-scheme:light dark;--bg:#f6f7f9;--panel:#fff;--fg:#1f2328;--muted:#59636e;
--line:#d5dbe1;--code:#f3f4f6;--assistant:#1a7f37;--tool:#9a6700;--result:#0b7285;
--error:#cf222e;--error-bg:#ffebe9;--thinking:#6e7781;--life:#0969da;--user:#8250df;
--mark:#ffd33d99;--sans:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;
--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--panel:#161b22;--fg:#e6edf3;
--muted:#9198a1;--line:#30363d;--code:#0d1117;--assistant:#3fb950;--tool:#d29922;
--result:#39c5cf;--error:#f85149;--error-bg:#3d1d20;--thinking:#9198a1;--life:#58a6ff;
--user:#bc8cff;--mark:#bb800966}}
*{box-sizing:border-box}
html{background:var(--bg);color:var(--fg);font:15px/1.55 var(--sans)}
body{margin:0;display:flex;flex-direction:column;align-items:center;padding-bottom:3rem}
body>*{width:min(64rem,100% - 2rem)}
#summary{order:-1}
h1{font-size:1.35rem;margin:0;overflow-wrap:anywhere}
code,pre,.mono{font-family:var(--mono);font-size:.85em}
pre{margin:0;white-space:pre-wrap;overflow-wrap:anywhere}
a{color:var(--life)}
.summary{margin-top:1.5rem;padding:1rem 1.25rem;background:var(--panel);
border:1px solid var(--line);border-top:4px solid var(--life);border-radius:8px}
.summary.failed{border-top-color:var(--error)}
.summary.unfinished{border-top-color:var(--thinking)}
.title-row{display:flex;gap:.75rem;align-items:center;flex-wrap:wrap}
.outcome{font:600 .8rem/1.8 var(--sans);padding:0 .6rem;border-radius:99px;color:#fff;
background:var(--assistant)}
.failed .outcome{background:var(--error)}
.unfinished .outcome{background:var(--thinking)}
.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(7.5rem,1fr));
gap:.6rem 1.25rem;margin:.9rem 0 0}
.figures div{min-width:0}
.figures dt{font-size:.72rem;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}
.figures dd{margin:0;font-weight:600;font-variant-numeric:tabular-nums;overflow-wrap:anywhere}
.figures dd code{font-weight:400}
.who{margin-top:.35rem;color:var(--muted);font-size:.9rem;overflow-wrap:anywhere}
.who strong{color:var(--fg)}
.toolbar{position:sticky;top:0;z-index:2;display:none;gap:.5rem;align-items:center;
flex-wrap:wrap;margin:.75rem 0;padding:.5rem 0;background:var(--bg)}
.js .toolbar{display:flex}
.toolbar input{flex:1 1 16rem;font:inherit;padding:.35rem .7rem;color:var(--fg);
background:var(--panel);border:1px solid var(--line);border-radius:6px}
.toolbar input:focus,button:focus-visible,summary:focus-visible{outline:2px solid var(--life);
outline-offset:1px}
button{font:inherit;font-size:.85rem;padding:.3rem .7rem;color:var(--fg);background:var(--panel);
border:1px solid var(--line);border-radius:6px;cursor:pointer}
button:hover{border-color:var(--muted)}
button:disabled{opacity:.45;cursor:default}
#search-status{font-size:.85rem;color:var(--muted);min-width:7rem}
main{display:flex;flex-direction:column;gap:.45rem}
.entry{--accent:var(--muted);background:var(--panel);border:1px solid var(--line);
border-left:3px solid var(--accent);border-radius:6px;padding:.45rem .8rem;min-width:0;
content-visibility:auto;contain-intrinsic-size:auto 2.6rem;scroll-margin:4.5rem 0 1rem}
.entry.miss{display:none}
.entry.current{box-shadow:0 0 0 2px var(--life)}
.head,summary{display:flex;gap:.6rem;align-items:baseline;min-width:0}
.kind{flex:none;font:600 .68rem/1.7 var(--mono);text-transform:uppercase;letter-spacing:.05em;
padding:0 .4rem;border-radius:4px;color:var(--accent);
background:color-mix(in srgb,var(--accent) 13%,transparent)}
time{margin-left:auto;flex:none;font-size:.75rem;color:var(--muted);
font-variant-numeric:tabular-nums}
.text{white-space:pre-wrap;overflow-wrap:anywhere;margin-top:.2rem}
.text code{background:var(--code);padding:.05rem .3rem;border-radius:4px}
.text pre.code{background:var(--code);padding:.5rem .7rem;border-radius:6px;margin:.3rem 0;
white-space:pre;overflow:auto}
.scroll{max-height:24rem;overflow:auto}
pre.out,.args pre,.body>.text{background:var(--code);padding:.45rem .65rem;border-radius:5px;
border:1px solid var(--line)}
.meta,.preview,.note{color:var(--muted);font-size:.85rem}
.preview{flex:1 1 auto;min-width:0;font-family:var(--mono);font-size:.8rem;white-space:nowrap;
overflow:hidden;text-overflow:ellipsis}
.meta{flex:none;font-size:.78rem}
details>summary{cursor:pointer;list-style:none}
details>summary::-webkit-details-marker{display:none}
details>summary::before{content:"\\25B8";flex:none;width:.7em;color:var(--muted)}
details[open]>summary::before{content:"\\25BE"}
details>.body{margin-top:.45rem;display:flex;flex-direction:column;gap:.4rem}
.assistant{--accent:var(--assistant)}
.assistant .text{font-size:1rem}
.user{--accent:var(--user)}
.thinking{--accent:var(--thinking);border-style:dashed;border-left-style:solid}
.thinking .preview{font-family:var(--sans);font-style:italic}
.thinking[open] .preview{visibility:hidden}
.thinking .body>.text{color:var(--muted);font-style:italic;font-family:var(--sans)}
.tool{--accent:var(--tool)}
.tool-name{flex:none;font:600 .9rem var(--mono)}
.label{font-size:.72rem;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}
.label code{text-transform:none;letter-spacing:0}
.args{margin:0;display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.3rem .7rem}
.args dt{font:.8rem var(--mono);color:var(--muted);padding-top:.45rem}
.args dd{margin:0;min-width:0}
.status{flex:none;font:600 .68rem/1.7 var(--mono);text-transform:uppercase;border-radius:4px}
.js .tool:not(:has(.slot>.tool-result))>summary .status::after{content:"no result";
color:var(--muted)}
.tool:has(.slot>.tool-result)>summary .status::after{content:"ok";padding:0 .4rem;
color:var(--result);background:color-mix(in srgb,var(--result) 13%,transparent)}
.tool:has(.slot>.tool-result.is-error){border-left-color:var(--error)}
.tool:has(.slot>.tool-result.is-error)>summary .status::after{content:"error";color:#fff;
background:var(--error)}
.tool-result{--accent:var(--result)}
.slot>.tool-result{border:0;padding:0;background:none;display:flex;flex-direction:column;
gap:.3rem}
.slot>.tool-result .backlink{display:none}
.slot:empty{display:none}
.is-error{--accent:var(--error)}
.is-error pre.out,.stderr pre{background:var(--error-bg)}
.err-mark{flex:none;font:700 .68rem/1.7 var(--mono);text-transform:uppercase;padding:0 .4rem;
border-radius:4px;color:#fff;background:var(--error)}
.system,.init{--accent:var(--life);background:none;border:0;border-left:3px solid var(--accent);
border-radius:0;padding:.1rem .8rem;font-size:.86rem}
.system .text{margin:0;color:var(--muted)}
.system .text{max-height:6.2rem;overflow:auto}
.init .head{flex-wrap:wrap}
.stdout{--accent:var(--thinking)}
.stderr{--accent:var(--error)}
.stderr pre,.stdout pre{padding:.35rem .6rem;border-radius:5px;margin-top:.25rem}
.stdout pre{background:var(--code)}
.result{--accent:var(--assistant);border-width:1px 1px 1px 4px}
.result.is-error{--accent:var(--error)}
.usage{font-size:.82rem;color:var(--muted);font-variant-numeric:tabular-nums}
.errors{margin:.3rem 0 0;padding-left:1.2rem;color:var(--error)}
.diff{--accent:var(--result)}
.diff pre{margin-top:.25rem;background:var(--code);border-radius:5px;padding:.35rem 0;
white-space:pre;overflow:auto}
.diff pre span{display:block;padding:0 .65rem}
.d-add{background:color-mix(in srgb,var(--assistant) 16%,transparent)}
.d-remove{background:color-mix(in srgb,var(--error) 16%,transparent)}
.d-hunk{color:var(--result)}
.d-file_header{font-weight:700}
.d-truncation{color:var(--muted);font-style:italic}
footer{margin-top:1.5rem;font-size:.8rem;color:var(--muted);text-align:center}
::highlight(linewise-match){background:var(--mark);color:inherit}
@media print{.toolbar{display:none!important}.scroll,.system .text{max-height:none}}
"""

# Runs once at the end of the page: moves each tool result written after other
# entries into its call's card, puts the run summary first for screen readers,
# and wires search, keyboard shortcuts and the expand/collapse/next-error buttons.
# It builds no markup from text: it only moves nodes and sets textContent.
_JS: Final = """
(() => {
  "use strict";
  const doc = document, main = doc.getElementById("transcript");
  doc.documentElement.classList.add("js");
  const summary = doc.getElementById("summary");
  if (summary) doc.body.prepend(summary);
  for (const result of main.querySelectorAll(":scope > .tool-result[data-call]")) {
    const card = doc.getElementById(result.dataset.call);
    const slot = card && card.querySelector(".slot");
    if (slot) slot.append(result);
  }
  // Simple class lookups, reads before writes: complex selectors run per card cost
  // chromium time that grows with the page (seconds on a few thousand cards).
  const counts = [];
  for (const card of main.getElementsByClassName("tool")) {
    const lines = card.getElementsByClassName("lines")[0];
    const meta = card.getElementsByClassName("meta")[0];
    if (lines && meta && meta !== lines) counts.push([meta, lines.textContent]);
  }
  for (const [meta, text] of counts) meta.textContent = text;

  const entries = Array.from(main.children);
  const box = doc.getElementById("search"), status = doc.getElementById("search-status");
  const marks = typeof Highlight === "function" && CSS.highlights ? new Highlight() : null;
  if (marks) CSS.highlights.set("linewise-match", marks);
  const MAX_MARKS = 5000, MAX_OPENED = 50;
  let texts = null, hits = [], at = -1, opened = [], timer = 0;

  function reveal(element) {
    for (let d = element.closest("details"); d; d = d.parentElement.closest("details")) {
      d.open = true;
    }
  }
  function go(element) {
    for (const old of main.querySelectorAll(".current")) old.classList.remove("current");
    element.classList.add("current");
    reveal(element);
    element.scrollIntoView({block: "center"});
  }
  // Marks each match in an entry; returns the closed details holding a match in their body.
  function mark(entry, query) {
    const closed = new Set(), walker = doc.createTreeWalker(entry, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const lower = node.data.toLowerCase();
      if (lower.length !== node.data.length) continue;
      for (let i = lower.indexOf(query); i !== -1; i = lower.indexOf(query, i + query.length)) {
        if (marks && marks.size < MAX_MARKS) {
          const range = new Range();
          range.setStart(node, i);
          range.setEnd(node, i + query.length);
          marks.add(range);
        }
        const holder = node.parentElement.closest("details");
        if (holder && !holder.open && !node.parentElement.closest("summary")) closed.add(holder);
      }
    }
    return closed;
  }
  function search() {
    clearTimeout(timer);
    timer = 0;
    const query = box.value.trim().toLowerCase();
    if (texts === null) texts = entries.map((entry) => entry.textContent.toLowerCase());
    if (marks) marks.clear();
    for (const d of opened) d.open = false;
    opened = [];
    hits = [];
    at = -1;
    entries.forEach((entry, index) => {
      const hit = !query || texts[index].includes(query);
      entry.classList.toggle("miss", !hit);
      entry.classList.remove("current");
      if (query && hit) hits.push(entry);
    });
    for (const entry of query ? hits : []) {
      for (const d of mark(entry, query)) {
        if (opened.length >= MAX_OPENED) break;
        d.open = true;
        opened.push(d);
      }
    }
    status.textContent = query ? hits.length + " of " + entries.length + " entries" : "";
  }
  function step(by) {
    if (timer) search();
    if (!hits.length) return;
    at = (at + by + hits.length) % hits.length;
    go(hits[at]);
    status.textContent = (at + 1) + " / " + hits.length + " matching entries";
  }
  box.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(search, entries.length > 2000 ? 200 : 30);
  });
  box.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      step(event.shiftKey ? -1 : 1);
    } else if (event.key === "Escape") {
      box.value = "";
      search();
      box.blur();
    }
  });
  doc.addEventListener("keydown", (event) => {
    const target = event.target;
    const typing = target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement;
    if (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      box.focus();
      box.select();
    }
  });
  doc.getElementById("next").addEventListener("click", () => step(1));
  doc.getElementById("previous").addEventListener("click", () => step(-1));
  doc.getElementById("expand").addEventListener("click", () => {
    for (const d of main.querySelectorAll("details")) d.open = true;
  });
  doc.getElementById("collapse").addEventListener("click", () => {
    for (const d of main.querySelectorAll("details")) d.open = false;
    opened = [];
  });
  const errors = Array.from(main.querySelectorAll(".is-error"));
  const errorButton = doc.getElementById("next-error");
  let errorAt = -1;
  errorButton.textContent = errors.length ? "Next error (" + errors.length + ")" : "No errors";
  errorButton.disabled = !errors.length;
  errorButton.addEventListener("click", () => {
    const shown = errors.filter((element) => !element.closest(".miss"));
    if (!shown.length) return;
    errorAt = (errorAt + 1) % shown.length;
    go(shown[errorAt]);
  });
  function followHash() {
    const target = location.hash && doc.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target && main.contains(target)) go(target);
  }
  window.addEventListener("hashchange", followHash);
  followHash();
})();
"""


def _source_hash(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


# Nothing may load: no fetch, image, font, frame or form target. Only the two
# inline blocks above run, pinned by hash, so even markup that slipped past
# escaping could neither execute a script nor reach the network.
_CSP: Final = (
    "default-src 'none'; "
    f"style-src {_source_hash(_CSS)}; "
    f"script-src {_source_hash(_JS)}; "
    "base-uri 'none'; form-action 'none'"
)

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
#: Distinct models and session ids listed in the header (the rest are counted).
_LISTED: Final = 20
_PREVIEW: Final = 160
# Input keys that say best, in one line, what a tool call does.
_PREVIEW_KEYS: Final = (
    "command",
    "cmd",
    "file_path",
    "filePath",
    "path",
    "pattern",
    "query",
    "url",
    "description",
    "prompt",
    "skill",
    "name",
)
_SCROLL: Final = ' class="scroll"'
_ERRORS: Final = '<ul class="errors">{}</ul>'
_ISO_TS: Final = re.compile(
    r"\d{4}-\d\d-\d\d[T ](\d\d:\d\d:\d\d)(?:\.\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?"
)
_FENCE: Final = re.compile(r"```[^\n`]*\n(.*?)(?:```|$)", re.DOTALL)
_INLINE_CODE: Final = re.compile(r"`([^`\n]+)`")
_BOLD: Final = re.compile(r"\*\*(?=\S)([^\n]+?)(?<=\S)\*\*")


def _text(value: object) -> str:
    """Agent text made inert for HTML: terminal sequences removed, then escaped."""
    return escape(neutralize(value if isinstance(value, str) else str(value)), quote=True)


def _json_text(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=repr)


def _script_json(value: object) -> str:
    """JSON that cannot end its <script> element or open a comment inside it."""
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"), default=repr)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _markdown(escaped: str) -> str:
    """The little Markdown agents use most (code fences, inline code, bold) on escaped text.

    It only wraps text that is already escaped in fixed tags, so it cannot
    introduce markup of the agent's choosing.
    """
    out: list[str] = []
    last = 0
    for fence in _FENCE.finditer(escaped):
        out.append(_inline(escaped[last : fence.start()]))
        out.append(f'<pre class="code">{fence.group(1).rstrip(chr(10))}</pre>')
        last = fence.end()
    out.append(_inline(escaped[last:]))
    return "".join(out)


def _inline(escaped: str) -> str:
    return _BOLD.sub(r"<strong>\1</strong>", _INLINE_CODE.sub(r"<code>\1</code>", escaped))


def _argument(value: object) -> str:
    """One tool input value: strings as they are (readable multi-line), the rest as JSON."""
    if isinstance(value, str):
        return f"<pre{_SCROLL if len(value) > 400 else ''}>{_text(value)}</pre>"
    return f"<pre{_SCROLL}>{_text(_json_text(value))}</pre>"


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.strip().encode("utf-8", "surrogatepass"), digest_size=16).digest()


def _line_count(text: str) -> int:
    body = text.rstrip("\n")
    return body.count("\n") + 1 if body else 0


def _lines_label(count: int) -> str:
    return "1 line" if count == 1 else f"{count:,} lines"


def _one_line(text: str) -> str:
    flat = " ".join(text[: _PREVIEW * 4].split())
    return flat if len(flat) <= _PREVIEW else flat[:_PREVIEW] + "…"


def _input_preview(value: object) -> str:
    if isinstance(value, dict):
        for key in _PREVIEW_KEYS:
            item = value.get(key)
            if isinstance(item, str) and item.strip():
                return _one_line(item)
    if isinstance(value, str):
        return _one_line(value)
    return "" if value in (None, {}, []) else _one_line(json.dumps(value, default=repr))


def _number(value: float) -> str:
    if isinstance(value, float) and not value.is_integer():
        return f"{value:,.1f}"
    return f"{int(value):,}"


def _money(value: float) -> str:
    return f"${value:,.2f}" if value >= 10 else f"${value:.4f}"


def _duration(first: str | None, last: str | None) -> str | None:
    try:
        start = datetime.fromisoformat(first or "")
        end = datetime.fromisoformat(last or "")
        seconds = int((end - start).total_seconds())
    except (ValueError, TypeError):
        return None
    if seconds <= 0:
        return None
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}h {minutes:02d}m"
    return f"{minutes}m {seconds:02d}s" if minutes else f"{seconds}s"


@dataclass(slots=True)
class _Figures:
    """What the header shows, gathered while entries stream past (a few numbers and names)."""

    models: list[str] = field(default_factory=list)
    sessions: list[str] = field(default_factory=list)
    more_models: bool = False
    more_sessions: bool = False
    results: int = 0
    input_tokens: float = 0
    output_tokens: float = 0
    cached_tokens: float = 0
    cost_usd: float = 0
    outcome: str | None = None
    failed: bool = False
    tool_calls: int = 0
    errors: int = 0
    first_error: str | None = None
    entries: int = 0
    first_ts: str | None = None
    last_ts: str | None = None

    def init(self, model: str, session: str) -> None:
        if model and model not in self.models:
            if len(self.models) < _LISTED:
                self.models.append(model)
            else:
                self.more_models = True
        if session and session not in self.sessions:
            if len(self.sessions) < _LISTED:
                self.sessions.append(session)
            else:
                self.more_sessions = True

    def to_json(self, title: str) -> dict[str, Any]:
        return {
            "title": title,
            "outcome": self.outcome,
            "isError": self.failed,
            "results": self.results,
            "models": self.models,
            "sessionIds": self.sessions,
            "inputTokens": self.input_tokens,
            "outputTokens": self.output_tokens,
            "cachedTokens": self.cached_tokens,
            "costUsd": self.cost_usd,
            "toolCalls": self.tool_calls,
            "errors": self.errors,
            "entries": self.entries,
            "firstTs": self.first_ts,
            "lastTs": self.last_ts,
            "linewise": __version__,
        }


class HtmlRenderer:
    """A transcript as one self-contained HTML page, written as the entries arrive.

    The page loads nothing (a Content-Security-Policy allows only its own
    inline style and script, by hash) and every piece of agent text is
    neutralised and escaped. Tool calls are collapsible cards holding their
    result (paired by ``toolUseId``), thinking is collapsed, errors are red,
    consecutive delta entries are merged, and a search box filters entries.

    Memory stays constant however long the transcript is: entries are written
    as they come. The usage header depends on the ``result`` entry, which
    comes last, so it is written by :meth:`close` after the transcript and
    shown first by the stylesheet (and moved first by the script, for screen
    readers); a machine-readable copy goes into a ``<script
    type="application/json" id="linewise-summary">`` block.
    """

    def __init__(self, stream: IO[str], *, title: str) -> None:
        self._stream = stream
        self._title = title
        self._figures = _Figures()
        self._counter = 0
        self._started = False
        self._closed = False
        self._last_ts: str | None = None
        # toolUseId -> (card element id, tool name) of calls still waiting for a result.
        self._pending: dict[str, tuple[str, str]] = {}
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

    # -- the page ---------------------------------------------------------------

    def _begin(self) -> None:
        if self._started:
            return
        self._started = True
        title = _text(self._title)
        self._stream.write(
            '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
            '<meta name="referrer" content="no-referrer">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<meta name="generator" content="linewise {__version__}">\n'
            f"<title>{title} · linewise</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
            + _TOOLBAR
            + '<main id="transcript">\n'
        )

    def write(self, entry: TranscriptEntry) -> None:
        """Add one entry to the page."""
        if self._closed:
            raise ValueError("this HTML renderer is closed")
        self._begin()
        item: Mapping[str, Any] = entry
        figures = self._figures
        figures.entries += 1
        ts = item.get("ts")
        if isinstance(ts, str) and ts:
            figures.first_ts = figures.first_ts or ts
            figures.last_ts = ts
        kind = item["kind"]
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

    def close(self) -> None:
        """Finish the page: the usage header, the summary block and the script."""
        if self._closed:
            return
        self._begin()
        self._end_delta()
        self._end_card()
        self._end_diff()
        self._closed = True
        summary = _script_json(self._figures.to_json(neutralize(self._title)))
        self._stream.write(
            "</main>\n"
            + self._header()
            + f'<script type="application/json" id="linewise-summary">{summary}</script>\n'
            + f"<footer>Rendered by linewise {__version__} from "
            + f"{self._figures.entries:,} entries.</footer>\n"
            + f"<script>{_JS}</script>\n</body>\n</html>\n"
        )
        self._stream.flush()

    def _header(self) -> str:
        figures = self._figures
        if figures.outcome is None:
            state, outcome = "unfinished", "no result"
        else:
            state = "failed" if figures.failed else "finished"
            outcome = figures.outcome
        who = (
            f"{self._names(figures.models, figures.more_models, code=False)}"
            f" · session {self._names(figures.sessions, figures.more_sessions, code=True)}"
        )
        errors = f"{figures.errors:,}"
        if figures.first_error:
            errors = f'<a href="#{figures.first_error}">{errors}</a>'
        tiles = [
            ("Input tokens", _number(figures.input_tokens)),
            ("Output tokens", _number(figures.output_tokens)),
            ("Cached tokens", _number(figures.cached_tokens)),
            ("Cost", _money(figures.cost_usd)),
            ("Tool calls", f"{figures.tool_calls:,}"),
            ("Errors", errors),
        ]
        if figures.results > 1:
            tiles.append(("Results", f"{figures.results:,}"))
        duration = _duration(figures.first_ts, figures.last_ts)
        if duration:
            tiles.append(("Duration", duration))
        body = "".join(f"<div><dt>{label}</dt><dd>{value}</dd></div>" for label, value in tiles)
        return (
            f'<header id="summary" class="summary {state}">'
            f'<div class="title-row"><h1>{_text(self._title)}</h1>'
            f'<span class="outcome">{_text(outcome)}</span></div>'
            f'<div class="who">model {who}</div>'
            f'<dl class="figures">{body}</dl></header>\n'
        )

    @staticmethod
    def _names(names: list[str], beyond: bool, *, code: bool) -> str:
        """The first three names and how many more (only the first _LISTED are kept)."""
        if not names:
            return "unknown"
        tag = "code" if code else "strong"
        shown = ", ".join(f"<{tag}>{_text(name)}</{tag}>" for name in names[:3])
        more = len(names) - 3
        if more <= 0:
            return shown
        return shown + f' <span class="note">+{more}{"+" if beyond else ""} more</span>'

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
            return f"<time>{_text(ts[:40])}</time>"
        # Only a timestamp of digits and separators goes into an attribute: no agent
        # text is ever placed in one.
        return f'<time title="{ts}">{match.group(1)}</time>'

    def _error(self, element_id: str) -> None:
        self._figures.errors += 1
        if self._figures.first_error is None:
            self._figures.first_error = element_id

    def _end_card(self) -> None:
        if self._card_open:
            self._stream.write("</div></div></details>\n")
            self._card_open = False
            self._card_use_id = None

    def _end_diff(self) -> None:
        if self._diff_open:
            self._stream.write("</pre></section>\n")
            self._diff_open = False

    # -- deltas --------------------------------------------------------------

    def _add_delta(self, kind: str, entry: Mapping[str, Any]) -> None:
        if self._delta_kind != kind:
            self._end_delta()
            self._delta_kind = kind
            self._delta_ts = entry["ts"]
        text: str = entry["text"]
        if self._delta_streaming:
            self._stream.write(_text(text))
            return
        self._delta_parts.append(text)
        self._delta_size += len(text)
        if self._delta_size > _DELTA_BUFFER:
            # Too long to hold: open the block now and stream the rest into it.
            self._delta_streaming = True
            if kind == "assistant":
                self._last_assistant = None  # not digested: never "the same as" a result
            ident = self._next_id()
            buffered = "".join(self._delta_parts)
            self._delta_parts.clear()
            head = self._time({"ts": self._delta_ts})
            if kind == "thinking":
                self._stream.write(
                    f'<details class="entry thinking" id="{ident}"><summary>'
                    f'<span class="kind">thinking</span>'
                    f'<span class="preview">{_text(_one_line(buffered))}</span>'
                    f'<span class="meta">long, streamed</span>{head}</summary>'
                    f'<div class="body"><div class="text">{_text(buffered)}'
                )
            else:
                self._stream.write(
                    f'<section class="entry {kind}" id="{ident}"><div class="head">'
                    f'<span class="kind">{kind}</span>{head}</div>'
                    f'<div class="text">{_text(buffered)}'
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
            self._dispatch({"kind": kind, "ts": self._delta_ts, "text": text})
        self._delta_parts.clear()
        self._delta_size = 0

    # -- entries -------------------------------------------------------------

    def _dispatch(self, entry: Mapping[str, Any]) -> None:
        kind = entry["kind"]
        if kind == "assistant":
            self._write_text_entry(entry, "assistant", markdown=True)
        elif kind == "user":
            self._write_text_entry(entry, "user", markdown=False)
        elif kind == "thinking":
            self._write_thinking(entry)
        elif kind == "tool_call":
            self._write_tool_call(entry)
        elif kind == "tool_result":
            self._write_tool_result(entry, inside_card=False)
        elif kind == "init":
            self._write_init(entry)
        elif kind == "result":
            self._write_result(entry)
        elif kind in ("system", "stdout", "stderr"):
            self._write_plain(entry, kind)
        elif kind == "diff":
            self._write_diff(entry)
        else:
            # Not a contract kind (entries are validated upstream); shown, never lost.
            self._write_plain({"ts": entry.get("ts"), "text": _json_text(dict(entry))}, "stdout")

    def _write_text_entry(self, entry: Mapping[str, Any], kind: str, *, markdown: bool) -> None:
        ident = self._next_id()
        if kind == "assistant":
            self._last_assistant = (_digest(entry["text"]), ident)
        text = _text(entry["text"])
        body = _markdown(text) if markdown else text
        scroll = "" if markdown else " scroll"
        self._stream.write(
            f'<section class="entry {kind}" id="{ident}"><div class="head">'
            f'<span class="kind">{kind}</span>{self._time(entry)}</div>'
            f'<div class="text{scroll}">{body}</div></section>\n'
        )

    def _write_thinking(self, entry: Mapping[str, Any]) -> None:
        text: str = entry["text"]
        self._stream.write(
            f'<details class="entry thinking" id="{self._next_id()}"><summary>'
            f'<span class="kind">thinking</span>'
            f'<span class="preview">{_text(_one_line(text))}</span>'
            f'<span class="meta">{_lines_label(_line_count(text))}</span>{self._time(entry)}'
            f'</summary><div class="body"><div class="text scroll">{_text(text)}</div></div>'
            "</details>\n"
        )

    def _write_tool_call(self, entry: Mapping[str, Any]) -> None:
        ident = self._next_id()
        self._figures.tool_calls += 1
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
        if isinstance(value, dict) and value:
            rows = "".join(
                f"<dt>{_text(key)}</dt><dd>{_argument(item)}</dd>" for key, item in value.items()
            )
            arguments = f'<dl class="args">{rows}</dl>'
        elif value in (None, {}, [], ""):
            arguments = '<span class="note">no input</span>'
        else:
            shown = value if isinstance(value, str) else _json_text(value)
            arguments = f'<div class="args"><pre class="scroll">{_text(shown)}</pre></div>'
        ids = "".join(
            f" · {label} <code>{_text(entry[key])}</code>"
            for label, key in (
                ("id", "toolUseId"),
                ("invocation", "invocationId"),
                ("action request", "actionRequestId"),
            )
            if isinstance(entry.get(key), str) and entry[key]
        )
        self._stream.write(
            f'<details class="entry tool" id="{ident}"><summary>'
            f'<span class="kind">tool</span><span class="tool-name">{_text(name)}</span>'
            f'<span class="preview">{_text(_input_preview(value))}</span>'
            f'<span class="meta"></span><span class="status"></span>{self._time(entry)}</summary>'
            f'<div class="body"><div class="label">input{ids}</div>{arguments}'
            '<div class="slot">'
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
        where = ""
        if call is None:
            classes += " orphan"
            link = (
                f'<span class="note">no matching tool call{" · " + _text(name) if name else ""}'
                f" · id <code>{_text(use_id)}</code></span>"
            )
        else:
            if not inside_card:
                where = f' data-call="{call[0]}"'
            link = f'<a class="backlink" href="#{call[0]}">↳ {_text(name or "tool call")}</a>'
        if error:
            self._error(ident)
        count = _line_count(content)
        mark = '<span class="err-mark">error</span>' if error else ""
        body = (
            f'<pre class="out scroll">{_text(content)}</pre>'
            if content
            else '<span class="note">no output</span>'
        )
        self._stream.write(
            f'<section class="{classes}" id="{ident}"{where}><div class="head">'
            f'<span class="kind">result</span>{mark}{link}'
            f'<span class="meta lines">{_lines_label(count)}</span>{self._time(entry)}</div>'
            f"{body}</section>\n"
        )

    def _write_init(self, entry: Mapping[str, Any]) -> None:
        self._figures.init(neutralize(entry["model"]), neutralize(entry["sessionId"]))
        self._stream.write(
            f'<div class="entry init" id="{self._next_id()}"><div class="head">'
            '<span class="kind">init</span><span>session started · model '
            f"<strong>{_text(entry['model'])}</strong> · session "
            f"<code>{_text(entry['sessionId'])}</code></span>{self._time(entry)}</div></div>\n"
        )

    def _write_result(self, entry: Mapping[str, Any]) -> None:
        figures = self._figures
        ident = self._next_id()
        figures.results += 1
        figures.input_tokens += entry["inputTokens"]
        figures.output_tokens += entry["outputTokens"]
        figures.cached_tokens += entry["cachedTokens"]
        figures.cost_usd += entry["costUsd"]
        error = entry["isError"] is True
        subtype = neutralize(entry["subtype"]) or ("error" if error else "success")
        figures.outcome = subtype
        figures.failed = error
        if error:
            self._error(ident)
        usage = (
            f"in {_number(entry['inputTokens'])} · out {_number(entry['outputTokens'])} · "
            f"cached {_number(entry['cachedTokens'])} · {_money(entry['costUsd'])}"
        )
        mark = '<span class="err-mark">error</span>' if error else ""
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
            text = f'<div class="text">{_markdown(_text(final))}</div>'
        errors = "".join(f"<li>{_text(message)}</li>" for message in entry["errors"])
        self._stream.write(
            f'<section class="entry result{" is-error" if error else ""}" id="{ident}">'
            f'<div class="head"><span class="kind">result</span>{mark}'
            f"<strong>{_text(subtype)}</strong>"
            f'<span class="usage">{usage}</span>{self._time(entry)}</div>{text}'
            f"{_ERRORS.format(errors) if errors else ''}</section>\n"
        )

    def _write_plain(self, entry: Mapping[str, Any], kind: str) -> None:
        ident = self._next_id()
        text: str = entry["text"]
        head = f'<span class="kind">{kind}</span>'
        if kind == "stderr":
            self._error(ident)
            head += '<span class="err-mark">stderr</span>'
            classes = "entry stderr is-error"
        else:
            classes = f"entry {kind}"
        if kind == "system":
            self._stream.write(
                f'<div class="{classes}" id="{ident}"><div class="head">{head}'
                f'<span class="text">{_text(text)}</span>{self._time(entry)}</div></div>\n'
            )
            return
        self._stream.write(
            f'<section class="{classes}" id="{ident}"><div class="head">{head}{self._time(entry)}'
            f'</div><pre class="scroll">{_text(text.rstrip(chr(10)))}</pre></section>\n'
        )

    def _write_diff(self, entry: Mapping[str, Any]) -> None:
        if not self._diff_open:
            self._stream.write(
                f'<section class="entry diff" id="{self._next_id()}"><div class="head">'
                f'<span class="kind">diff</span>{self._time(entry)}</div><pre>'
            )
            self._diff_open = True
        change = entry["changeType"]
        change = change if change in DIFF_CHANGE_TYPES else "context"
        # The newline inside the span keeps copied text line by line; a block's
        # trailing newline draws no extra line.
        self._stream.write(f'<span class="d-{change}">{_text(entry["text"])}\n</span>')
