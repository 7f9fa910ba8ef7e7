"""The HTML renderer: one self-contained page, agent text inert, usage header right, memory flat."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
import tracemalloc
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise import open_session
from linewise.render.html import HtmlRenderer
from support import VALID_ENTRIES, corpus_path

TS = "2026-03-29T10:00:00.000Z"
VOID = {"meta", "input", "br", "hr", "img", "link", "source", "wbr", "area", "col", "embed"}
# Every element the renderer itself writes; anything else came from a log.
OWN_TAGS = {
    *("html", "head", "meta", "title", "style", "body", "script", "main", "header", "footer"),
    *("div", "span", "section", "details", "summary", "time", "h1", "input", "button"),
    *("dl", "dt", "dd", "pre", "code", "strong", "a", "ul", "li", "template"),
}
HOSTILE = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "'><svg onload=alert(1)>",
    "</script><script>window.__pwned=1</script>",
    "<!--",
    "</summary></details><iframe src=//evil.example>",
    "javascript:alert(1)",
    "\x1b]8;;https://evil.example/osc\x07click\x1b]8;;\x07",
    "\x1b]0;owned title\x07\x1b[2J\x1b[31mred\x1b[0m\r\x07",
    "**<b>bold</b>** `<i>code</i>` ```\n<u>fence</u>\n```",
    "&lt;already&gt; &amp;",
]


class Page(HTMLParser):
    """A parsed page: its elements with their ancestors, its text, scripts and styles."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self.raw = source
        self.doctype: str | None = None
        self.elements: list[tuple[str, dict[str, str], list[tuple[str, dict[str, str]]]]] = []
        self.stack: list[tuple[str, dict[str, str]]] = []
        self.scripts: list[tuple[dict[str, str], str]] = []
        self.styles: list[str] = []
        self.text: list[str] = []
        self.feed(source)
        self.close()
        assert not self.stack, f"unclosed elements: {[tag for tag, _ in self.stack]}"

    def handle_decl(self, decl: str) -> None:
        self.doctype = decl

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        self.elements.append((tag, values, list(self.stack)))
        if tag not in VOID:
            self.stack.append((tag, values))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, {n: v or "" for n, v in attrs}, list(self.stack)))

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1][0] == tag, f"</{tag}> closes {self.stack[-1:]}"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not self.stack:
            return
        tag, attrs = self.stack[-1]
        if tag == "script":
            self.scripts.append((attrs, data))
        elif tag == "style":
            self.styles.append(data)
        else:
            self.text.append(data)

    def find(self, tag: str, cls: str) -> list[tuple[dict[str, str], list[Any]]]:
        return [
            (attrs, ancestors)
            for name, attrs, ancestors in self.elements
            if name == tag and cls in attrs.get("class", "").split()
        ]

    def summary(self) -> dict[str, Any]:
        (data,) = [text for attrs, text in self.scripts if attrs.get("id") == "linewise-summary"]
        result: dict[str, Any] = json.loads(data)
        return result

    def header_text(self) -> str:
        return re.sub(r"\s+", " ", _between(self.raw, '<header id="summary"', "</header>"))


def _between(source: str, start: str, end: str) -> str:
    section = source[source.index(start) : source.index(end, source.index(start))]
    return re.sub(r"<[^>]+>", " ", section)


def render(entries: list[dict[str, Any]], title: str = "run.jsonl") -> str:
    out = io.StringIO()
    renderer = HtmlRenderer(out, title=title)
    for entry in entries:
        renderer.write(entry)  # type: ignore[arg-type]
    renderer.close()
    return out.getvalue()


def parse(source: str) -> Page:
    return Page(source)


def _call(ident: str, name: str = "Bash", **extra: Any) -> dict[str, Any]:
    call = {"kind": "tool_call", "ts": TS, "name": name, "input": {"command": "ls"}}
    return call | {"toolUseId": ident} | extra


def _result(ident: str, content: str = "ok", *, error: bool = False) -> dict[str, Any]:
    return {
        "kind": "tool_result",
        "ts": TS,
        "toolUseId": ident,
        "content": content,
        "isError": error,
    }


def _run_result(**figures: Any) -> dict[str, Any]:
    entry = {
        "kind": "result",
        "ts": TS,
        "text": "done",
        "inputTokens": 1200,
        "outputTokens": 345,
        "cachedTokens": 6789,
        "costUsd": 0.0421,
        "subtype": "success",
        "isError": False,
        "errors": [],
    }
    return entry | figures


# -- the page ------------------------------------------------------------------


def test_the_page_is_one_well_formed_document_with_a_strict_policy_first() -> None:
    source = render(VALID_ENTRIES)
    page = parse(source)
    assert page.doctype == "DOCTYPE html"
    head = [(tag, attrs) for tag, attrs, ancestors in page.elements if ("head", {}) in ancestors]
    assert head[0] == ("meta", {"charset": "utf-8"})
    assert head[1][1]["http-equiv"] == "Content-Security-Policy"
    policy = head[1][1]["content"]
    assert "default-src 'none'" in policy
    assert "unsafe" not in policy  # no unsafe-inline, unsafe-eval or unsafe-hashes
    # The policy pins the page's own style and script by hash, so they and only they run.
    (style,) = page.styles
    scripts = [text for attrs, text in page.scripts if "type" not in attrs]
    assert len(scripts) == 1
    for source_text, directive in ((style, "style-src"), (scripts[0], "script-src")):
        digest = base64.b64encode(hashlib.sha256(source_text.encode()).digest()).decode()
        assert f"{directive} 'sha256-{digest}'" in policy
    assert [tag for tag, _, _ in page.elements].count("script") == 2  # the code and the summary


def test_every_kind_of_entry_is_drawn() -> None:
    page = parse(render(VALID_ENTRIES))
    classes = {cls for _, attrs, _ in page.elements for cls in attrs.get("class", "").split()}
    kinds = {"assistant", "thinking", "user", "tool", "tool-result", "init", "result"}
    assert kinds | {"stderr", "system", "stdout", "diff"} <= classes
    ids = [attrs["id"] for _, attrs, _ in page.elements if "id" in attrs]
    assert len(ids) == len(set(ids))


def test_an_empty_transcript_is_still_a_whole_page() -> None:
    page = parse(render([]))
    assert page.summary()["outcome"] is None
    assert "no result" in page.header_text()


def test_rendering_is_deterministic() -> None:
    # No nonce and no clock: the same entries always give the same page.
    assert render(VALID_ENTRIES) == render(VALID_ENTRIES)


def test_close_is_idempotent_and_ends_the_page() -> None:
    out = io.StringIO()
    renderer = HtmlRenderer(out, title="t")
    renderer.close()
    renderer.close()
    assert out.getvalue().count("</html>") == 1
    with pytest.raises(ValueError, match="closed"):
        renderer.write({"kind": "stdout", "ts": TS, "text": "late"})


# -- nothing leaves the page ------------------------------------------------------


REFERENCES = ("src", "srcset", "action", "formaction", "poster", "data", "background", "ping")


def _assert_self_contained(page: Page) -> None:
    for tag, attrs, _ in page.elements:
        for name, value in attrs.items():
            assert name not in REFERENCES, (tag, name, value)
            if name == "href":
                assert re.fullmatch(r"#e\d+", value), value
            if name == "content" and tag == "meta" and attrs.get("http-equiv"):
                continue
            assert "://" not in value and "javascript:" not in value.lower(), (tag, name)
        assert tag != "link"
    for style in page.styles:
        assert "url(" not in style and "@import" not in style and "@font-face" not in style
    code = "".join(text for attrs, text in page.scripts if "type" not in attrs)
    for reference in ("fetch", "XMLHttpRequest", "WebSocket", "EventSource", "sendBeacon"):
        assert reference not in code
    assert "import(" not in code and "innerHTML" not in code and "://" not in code


def test_nothing_in_the_page_refers_outside_it() -> None:
    source = render(VALID_ENTRIES)
    _assert_self_contained(parse(source))
    assert "://" not in source  # no URL anywhere: not in markup, style, script or policy


def test_links_in_agent_text_stay_text() -> None:
    text = "see https://example.com/x and <a href='http://evil.example'>here</a>"
    page = parse(render([{"kind": "assistant", "ts": TS, "text": text}]))
    _assert_self_contained(page)
    assert text in "".join(page.text)


# -- agent text is inert -----------------------------------------------------------


def _everywhere(payload: str) -> list[dict[str, Any]]:
    """One entry of every kind with ``payload`` in every string field it has."""
    return [
        {"kind": "init", "ts": payload, "model": payload, "sessionId": payload},
        {"kind": "assistant", "ts": TS, "text": payload},
        {"kind": "assistant", "ts": TS, "text": payload, "delta": True},
        {"kind": "thinking", "ts": TS, "text": payload},
        {"kind": "thinking", "ts": TS, "text": payload, "delta": True},
        {"kind": "user", "ts": TS, "text": payload},
        {
            "kind": "tool_call",
            "ts": TS,
            "name": payload,
            "input": {payload: payload, "nested": [payload, {payload: payload}]},
            "toolUseId": payload,
            "invocationId": payload,
            "actionRequestId": payload,
        },
        {"kind": "tool_result", "ts": TS, "toolUseId": payload, "toolName": payload,
         "content": payload, "isError": True},
        {"kind": "tool_call", "ts": TS, "name": "x", "input": payload, "toolUseId": "p1"},
        {"kind": "stdout", "ts": TS, "text": "between"},
        {"kind": "tool_result", "ts": TS, "toolUseId": "p1", "content": payload, "isError": False},
        {"kind": "tool_result", "ts": TS, "toolUseId": "orphan" + payload, "content": payload,
         "isError": False},
        {"kind": "system", "ts": TS, "text": payload},
        {"kind": "stderr", "ts": TS, "text": payload},
        {"kind": "stdout", "ts": TS, "text": payload},
        {"kind": "diff", "ts": TS, "changeType": "add", "text": payload},
        {"kind": "diff", "ts": TS, "changeType": payload, "text": payload},
        _run_result(text=payload, subtype=payload, errors=[payload, payload], isError=True),
    ]  # fmt: skip


@pytest.mark.parametrize("payload", HOSTILE)
def test_hostile_text_in_any_field_stays_text(payload: str) -> None:
    source = render(_everywhere(payload), title=payload)
    page = parse(source)
    assert {tag for tag, _, _ in page.elements} <= OWN_TAGS
    for tag, attrs, _ in page.elements:
        assert not any(name.startswith("on") for name in attrs), (tag, attrs)
        assert "style" not in attrs  # no inline style: the policy would block it anyway
    _assert_self_contained(page)
    assert [tag for tag, _, _ in page.elements].count("script") == 2
    for _, text in page.scripts:
        assert "</script" not in text.lower() and "<!--" not in text
    assert page.summary()["title"] == page.summary()["models"][0]
    # No terminal sequence survives, and what they wrapped is still readable.
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", source)
    # A terminal string is neutralised, its payload shown as text (never hidden).
    if "owned title" in payload:
        assert "␛]0;owned title␇" in source


def test_the_payload_is_shown_literally() -> None:
    payload = '"><img src=x onerror=alert(1)>'
    page = parse(render(_everywhere(payload), title=payload))
    text = "".join(page.text)
    assert text.count(payload) >= 20


def test_markdown_wraps_only_text_that_is_already_escaped() -> None:
    source = render([{"kind": "assistant", "ts": TS, "text": "**<b>x</b>** and `<i>`"}])
    assert "<strong>&lt;b&gt;x&lt;/b&gt;</strong> and <code>&lt;i&gt;</code>" in source


def test_the_summary_block_cannot_end_its_script() -> None:
    title = "</script><script>alert(1)</script><!-- \u2028 & end"
    source = render([{"kind": "init", "ts": TS, "model": "</SCRIPT>", "sessionId": "<!--"}], title)
    block = source[source.index('id="linewise-summary">') + 22 :]
    block = block[: block.index("</script>")]
    assert "<" not in block and ">" not in block and "&" not in block
    summary = parse(source).summary()
    assert summary["title"] == title
    assert summary["models"] == ["</SCRIPT>"]
    assert summary["sessionIds"] == ["<!--"]


_SAFE_TEXT = st.text(st.characters(codec="utf-8") | st.sampled_from("<>&\"'`*\x1b\x07\r"))


@given(name=_SAFE_TEXT, content=_SAFE_TEXT, text=_SAFE_TEXT)
def test_no_text_changes_the_page_structure(name: str, content: str, text: str) -> None:
    def shape(name: str, content: str, text: str) -> list[tuple[str, list[str]]]:
        page = parse(
            render(
                [
                    _call("t1", name=name, input={name: content}),
                    _result("t1", content, error=True),
                    {"kind": "user", "ts": TS, "text": text},
                    {"kind": "stderr", "ts": TS, "text": text},
                    # A system message's line count chooses its drawing (folded or inline).
                    {"kind": "system", "ts": TS, "text": text.replace("\n", " ")},
                ],
                title=text,
            )
        )
        return [(tag, sorted(attrs)) for tag, attrs, _ in page.elements]

    # Empty text draws "no output"/"no input" notes; compare with the same emptiness.
    assert shape(name, content, text) == shape(
        "x" * len(name), "y" * len(content.rstrip("\n")), "z" * len(text)
    )


# -- cards, thinking, deltas ---------------------------------------------------------


def test_a_result_that_follows_its_call_is_written_inside_the_card() -> None:
    page = parse(render([_call("t1"), _result("t1", "hello")]))
    ((card, _),) = page.find("details", "tool")
    ((result, ancestors),) = page.find("section", "tool-result")
    assert ("details", card) in ancestors
    assert "data-call" not in result


def test_results_of_parallel_calls_point_at_their_cards() -> None:
    page = parse(render([_call("a"), _call("b"), _result("a", error=True), _result("b")]))
    cards = [attrs["id"] for attrs, _ in page.find("details", "tool")]
    results = page.find("section", "tool-result")
    assert [attrs["data-call"] for attrs, _ in results] == cards
    assert all(not any(tag == "details" for tag, _ in ancestors) for _, ancestors in results)
    assert "is-error" in results[0][0]["class"]
    assert page.summary()["errors"] == 1


def test_an_orphan_result_is_shown_plainly() -> None:
    source = render([_call("a"), _result("zzz", "lost")])
    page = parse(source)
    ((orphan, ancestors),) = page.find("section", "orphan")
    assert "data-call" not in orphan and not any(tag == "details" for tag, _ in ancestors)
    assert "no matching tool call" in "".join(page.text)
    # The second result for an id already answered is an orphan too.
    page = parse(render([_call("a"), _result("a"), _result("a")]))
    assert len(page.find("section", "orphan")) == 1


def test_calls_left_unanswered_are_remembered_only_up_to_a_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import linewise.render.html.cards as html_renderer

    monkeypatch.setattr(html_renderer, "_PENDING_CALLS", 2)
    gap = {"kind": "system", "ts": TS, "text": "between"}
    page = parse(render([_call("a"), _call("b"), _call("c"), gap, _result("a"), _result("c")]))
    assert len(page.find("section", "orphan")) == 1  # "a" was forgotten, "c" still pairs
    assert [attrs.get("data-call") for attrs, _ in page.find("section", "tool-result")] == [
        None,
        "e3",
    ]


def test_an_error_result_is_marked_red() -> None:
    page = parse(render([_call("a"), _result("a", "boom", error=True)]))
    ((result, _),) = page.find("section", "tool-result")
    assert "is-error" in result["class"].split()
    assert page.find("span", "err-mark")


def test_long_tool_output_scrolls_and_says_how_long_it_is() -> None:
    content = "\n".join(f"line {n}" for n in range(500)) + "\n"
    source = render([_call("a"), _result("a", content)])
    assert '<span class="meta lines">500 lines</span>' in source
    assert '<pre class="out scroll">line 0\nline 1' in source


def test_thinking_is_collapsed_by_default() -> None:
    page = parse(render([{"kind": "thinking", "ts": TS, "text": "first\nsecond"}]))
    ((thinking, _),) = page.find("details", "thinking")
    assert "open" not in thinking
    assert all("open" not in attrs for tag, attrs, _ in page.elements if tag == "details")


def test_consecutive_deltas_of_one_kind_merge_into_one_block() -> None:
    fragments: list[dict[str, Any]] = [
        {"kind": "assistant", "ts": TS, "text": "Hel", "delta": True},
        {"kind": "assistant", "ts": TS, "text": "lo <world>", "delta": True},
        {"kind": "thinking", "ts": TS, "text": "hm", "delta": True},
        {"kind": "thinking", "ts": TS, "text": "m", "delta": True},
        {"kind": "assistant", "ts": TS, "text": "!", "delta": True},
        {"kind": "system", "ts": TS, "text": "done"},
        {"kind": "assistant", "ts": TS, "text": "again", "delta": True},
    ]
    source = render(fragments)
    page = parse(source)
    assert len(page.find("section", "assistant")) == 3
    assert len(page.find("details", "thinking")) == 1
    assert "Hello &lt;world&gt;" in source and ">hmm</div>" in source
    assert page.summary()["entries"] == len(fragments)


def test_a_delta_run_too_long_to_hold_streams_through_whole() -> None:
    fragment = "0123456789abcdef" * 64  # 1 KiB
    entries = [{"kind": "thinking", "ts": TS, "text": fragment, "delta": True}] * 600
    source = render([*entries, {"kind": "system", "ts": TS, "text": "after"}])
    page = parse(source)
    assert len(page.find("details", "thinking")) == 1
    assert source.count(fragment) == 600


def test_consecutive_diff_lines_form_one_block() -> None:
    lines = [
        {"kind": "diff", "ts": TS, "changeType": "file_header", "text": "--- a/x"},
        {"kind": "diff", "ts": TS, "changeType": "hunk", "text": "@@ -1 +1 @@"},
        {"kind": "diff", "ts": TS, "changeType": "remove", "text": "-old"},
        {"kind": "diff", "ts": TS, "changeType": "add", "text": "+new"},
    ]
    page = parse(render([*lines, {"kind": "system", "ts": TS, "text": "x"}, *lines[:1]]))
    assert len(page.find("section", "diff")) == 2
    assert page.find("span", "d-add") and page.find("span", "d-remove")


# -- the usage header ----------------------------------------------------------------


def test_the_header_shows_the_run_figures_although_the_result_comes_last() -> None:
    source = render(
        [
            {"kind": "init", "ts": TS, "model": "claude-sonnet-4-6", "sessionId": "s-123"},
            _call("a"),
            _result("a", "boom", error=True),
            {"kind": "stderr", "ts": TS, "text": "warning"},
            _run_result(),
        ],
        title="fix the tests",
    )
    page = parse(source)
    header = page.header_text()
    for shown in ("fix the tests", "success", "claude-sonnet-4-6", "s-123", "1,200", "345"):
        assert shown in header
    assert "6,789" in header and "$0.0421" in header
    assert re.search(r"Tool calls\s+1\b", header) and re.search(r"Errors\s+2\b", header)
    # Written after the transcript, drawn before it.
    assert source.index('<main id="transcript">') < source.index('<header id="summary"')
    assert "#summary{order:-1}" in page.styles[0]
    assert page.summary() | {"linewise": None} == {
        "title": "fix the tests",
        "outcome": "success",
        "isError": False,
        "results": 1,
        "models": ["claude-sonnet-4-6"],
        "sessionIds": ["s-123"],
        "inputTokens": 1200,
        "outputTokens": 345,
        "cachedTokens": 6789,
        "costUsd": 0.0421,
        "toolCalls": 1,
        "errors": 2,
        "entries": 5,
        "firstTs": TS,
        "lastTs": TS,
        "linewise": None,
    }


def test_several_runs_add_up_and_the_last_outcome_counts() -> None:
    page = parse(
        render(
            [
                {"kind": "init", "ts": TS, "model": "m1", "sessionId": "s1"},
                _run_result(),
                {"kind": "init", "ts": TS, "model": "m2", "sessionId": "s2"},
                _run_result(subtype="error_max_turns", isError=True, costUsd=1.5, errors=["x"]),
            ]
        )
    )
    summary = page.summary()
    assert summary["inputTokens"] == 2400 and summary["costUsd"] == pytest.approx(1.5421)
    assert summary["outcome"] == "error_max_turns" and summary["isError"] is True
    assert summary["models"] == ["m1", "m2"] and summary["sessionIds"] == ["s1", "s2"]
    header = page.header_text()
    assert "error_max_turns" in header and "$1.5421" in header and "Results 2" in header
    assert 'class="summary failed"' in page.raw


def test_a_run_without_a_result_says_so() -> None:
    page = parse(render([{"kind": "init", "ts": TS, "model": "m", "sessionId": "s"}]))
    assert 'class="summary unfinished"' in page.raw
    header = page.header_text()
    # Unknown is not zero: no result reported a cost, so there is none to show.
    assert "no result" in header and "Cost unknown" in header and "$0" not in header
    assert page.summary()["costUsd"] is None


def test_the_duration_comes_from_the_timestamps() -> None:
    page = parse(
        render(
            [
                {"kind": "system", "ts": "2026-03-29T10:00:00.000Z", "text": "a"},
                {"kind": "system", "ts": "2026-03-29T10:03:07.500Z", "text": "b"},
            ]
        )
    )
    assert "Duration 3m 07s" in page.header_text()


def test_a_result_repeating_the_last_message_points_at_it_instead() -> None:
    said = {"kind": "assistant", "ts": TS, "text": "All **green**."}
    page = parse(render([said, _run_result(text="All **green**.\n")]))
    assert "".join(page.text).count("All green.") == 1
    assert '<a href="#e1">the last assistant message</a>' in page.raw
    page = parse(render([said, _run_result(text="Something else")]))
    assert "Something else" in "".join(page.text)


def _claude(name: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A real Claude log's entries through the Claude parser, and its raw result events."""
    path = corpus_path("real-logs", "claude", name)
    session = open_session("claude_local")
    data = path.read_bytes()
    entries: list[dict[str, Any]] = [*session.feed(data, TS), *session.close()]  # type: ignore[list-item]
    events = [json.loads(line) for line in data.decode().splitlines() if line.strip()]
    return entries, [event for event in events if event.get("type") == "result"]


def test_header_figures_of_a_real_claude_run() -> None:
    entries, results = _claude("trackgentic-api-retry-hooks.jsonl")
    page = parse(render(entries, title="trackgentic"))
    (raw,) = results
    summary = page.summary()
    assert summary["inputTokens"] == raw["usage"]["input_tokens"]
    assert summary["outputTokens"] == raw["usage"]["output_tokens"]
    assert summary["cachedTokens"] == raw["usage"]["cache_read_input_tokens"]
    assert summary["costUsd"] == pytest.approx(raw["total_cost_usd"])
    assert summary["outcome"] == raw["subtype"] == "success"
    assert summary["toolCalls"] == sum(e["kind"] == "tool_call" for e in entries) == 11
    header = page.header_text()
    assert f"{raw['usage']['input_tokens']:,}" in header
    assert f"${raw['total_cost_usd']:.4f}" in header
    assert "glm-5.1" in header
    # Every tool call of this run has its result, in its card or pointing at it.
    assert not page.find("section", "orphan")


def test_header_figures_of_concatenated_real_claude_sessions() -> None:
    entries, results = _claude("githubgg-ralph-loop-concat-7sessions.jsonl")
    summary = parse(render(entries)).summary()
    assert summary["results"] == len(results) == 5
    assert summary["costUsd"] == pytest.approx(sum(r["total_cost_usd"] for r in results))
    assert summary["inputTokens"] == sum(r["usage"]["input_tokens"] for r in results)
    assert len(summary["sessionIds"]) == 7
    assert summary["outcome"] == results[-1]["subtype"]


# -- memory ------------------------------------------------------------------------


class _Sink(io.TextIOBase):
    """A text stream that only counts what it is given."""

    def __init__(self) -> None:
        self.chars = 0

    def write(self, text: str) -> int:
        self.chars += len(text)
        return len(text)


def _workload(turns: int) -> Iterator[dict[str, Any]]:
    yield {"kind": "init", "ts": TS, "model": "m", "sessionId": "s"}
    for n in range(turns):
        yield {"kind": "thinking", "ts": TS, "text": f"step {n} ", "delta": True}
        yield {"kind": "thinking", "ts": TS, "text": "thinking it over", "delta": True}
        yield {"kind": "assistant", "ts": TS, "text": f"Running **step {n}**", "delta": True}
        yield _call(f"call-{n}", input={"command": f"echo {n}"})
        yield _call(f"par-{n}")
        yield _result(f"call-{n}", "output\n" * 20)
        yield _result(f"par-{n}", "x" * 300, error=n % 7 == 0)
        yield {"kind": "diff", "ts": TS, "changeType": "add", "text": f"+line {n}"}
        yield {"kind": "system", "ts": TS, "text": f"API retry {n}"}
    yield _run_result()


def _peak(turns: int) -> tuple[int, int]:
    sink = _Sink()
    tracemalloc.start()
    try:
        renderer = HtmlRenderer(sink, title="big")  # type: ignore[arg-type]
        for entry in _workload(turns):
            renderer.write(entry)  # type: ignore[arg-type]
        renderer.close()
        return tracemalloc.get_traced_memory()[1], sink.chars
    finally:
        tracemalloc.stop()


def test_memory_stays_flat_however_long_the_transcript() -> None:
    small, small_chars = _peak(500)
    large, large_chars = _peak(5_000)
    assert large_chars > 9 * small_chars  # ten times the page (12 MB, 45,000 entries)...
    assert large < small * 1.5 + 64 * 1024  # ...in the same memory (about 20 KB here)
    assert large < 512 * 1024
