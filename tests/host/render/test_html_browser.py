"""The HTML transcript in a real browser: Debian's chromium driven by Playwright."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from linewise import open_session
from linewise.render.html import HtmlRenderer
from support import REPO, corpus_path

pytest.importorskip(
    "playwright.sync_api",
    reason="playwright is not installed (a dev dependency): the browser tests are skipped",
)
from playwright.sync_api import expect, sync_playwright

# A real browser per test module, seconds per page: CI runs them, -m 'not slow' skips them.
pytestmark = pytest.mark.slow

if TYPE_CHECKING:
    from playwright.sync_api import (
        Browser,
        BrowserContext,
        ConsoleMessage,
        Page,
        Request,
        Route,
    )

# Debian's chromium, never a browser Playwright downloads (no downloads on this network).
CHROMIUM = os.environ.get("LINEWISE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).is_file():
    pytest.skip(
        f"no chromium executable at {CHROMIUM} (apt-get install chromium): "
        "the browser tests are skipped",
        allow_module_level=True,
    )

# Headless as root on a closed network: no sandbox, and none of chromium's own
# background connections (they would be refused and slow every start).
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOT = REPO / "docs" / "html-transcript.png"
TS = "2026-03-29T10:00:00.000Z"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield launched
        launched.close()


@dataclass
class Opened:
    """A rendered transcript open in a tab, with everything the page tried to do."""

    page: Page
    url: str
    requests: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)


def _write(path: Path, entries: list[dict[str, Any]], title: str) -> None:
    with path.open("w", encoding="utf-8") as out:
        renderer = HtmlRenderer(out, title=title)
        for entry in entries:
            renderer.write(entry)  # type: ignore[arg-type]
        renderer.close()


@pytest.fixture
def open_transcript(browser: Browser, tmp_path: Path) -> Iterator[Any]:
    contexts: list[BrowserContext] = []

    def open_(
        entries: list[dict[str, Any]],
        title: str = "run.jsonl",
        *,
        raw_html: str | None = None,
        **options: Any,
    ) -> Opened:
        path = tmp_path / f"transcript-{len(contexts)}.html"
        if raw_html is None:
            _write(path, entries, title)
        else:
            path.write_text(raw_html, encoding="utf-8")
        context = browser.new_context(service_workers="block", **options)
        contexts.append(context)
        page = context.new_page()
        opened = Opened(page, path.as_uri())

        def route(route: Route) -> None:
            # Anything but the file itself is recorded and refused.
            if route.request.url == opened.url:
                route.continue_()
            else:
                opened.blocked.append(route.request.url)
                route.abort()

        def on_dialog(dialog: Any) -> None:
            opened.dialogs.append(dialog.message)
            dialog.dismiss()

        def on_console(message: ConsoleMessage) -> None:
            if message.type in ("error", "warning"):
                opened.console_errors.append(message.text)

        def on_request(request: Request) -> None:
            opened.requests.append(request.url)

        context.route("**/*", route)
        page.on("request", on_request)
        page.on("dialog", on_dialog)
        page.on("console", on_console)
        page.on("pageerror", lambda error: opened.page_errors.append(str(error)))
        page.goto(opened.url)
        if raw_html is None and options.get("java_script_enabled", True):
            page.wait_for_function("() => document.documentElement.classList.contains('js')")
        return opened

    yield open_
    for context in contexts:
        context.close()


def _call(ident: str, command: str) -> dict[str, Any]:
    return {
        "kind": "tool_call",
        "ts": TS,
        "name": "Bash",
        "input": {"command": command},
        "toolUseId": ident,
    }


def _result(ident: str, content: str, *, error: bool = False) -> dict[str, Any]:
    return {
        "kind": "tool_result",
        "ts": TS,
        "toolUseId": ident,
        "content": content,
        "isError": error,
    }


RUN: list[dict[str, Any]] = [
    {"kind": "init", "ts": TS, "model": "claude-sonnet-4-6", "sessionId": "s-1"},
    {"kind": "thinking", "ts": TS, "text": "Let me look for the needle in the haystack."},
    {"kind": "assistant", "ts": TS, "text": "I will list the files."},
    _call("t1", "ls"),
    _result("t1", "alpha\nbeta\nneedle.txt"),
    _call("t2", "cat a"),
    _call("t3", "cat b"),
    _result("t3", "no such file", error=True),
    _result("t2", "contents of a"),
    {"kind": "system", "ts": TS, "text": "API retry 1/10"},
    {"kind": "assistant", "ts": TS, "text": "Done."},
    {
        "kind": "result",
        "ts": TS,
        "text": "Done.",
        "inputTokens": 1200,
        "outputTokens": 345,
        "cachedTokens": 6789,
        "costUsd": 0.0421,
        "subtype": "success",
        "isError": False,
        "errors": [],
    },
]


def _clean(opened: Opened) -> None:
    """The page ran, within its policy, asked for nothing and raised nothing."""
    assert opened.requests == [opened.url]
    assert opened.blocked == []
    assert opened.console_errors == []  # a policy violation would be reported here
    assert opened.page_errors == []
    assert opened.dialogs == []


def test_tool_cards_open_and_close_on_click(open_transcript: Any) -> None:
    opened = open_transcript(RUN)
    page = opened.page
    card = page.locator("details.tool").first
    output = card.locator("pre.out")
    assert not card.evaluate("d => d.open") and not output.is_visible()
    card.locator("summary").click()
    assert card.evaluate("d => d.open") and output.is_visible()
    # Waited for: the result sits in an entry with content-visibility:auto, whose text
    # is laid out at the next frame after the card opens (inner_text is "" until then).
    expect(output).to_have_text("alpha\nbeta\nneedle.txt", use_inner_text=True)
    card.locator("summary").click()
    assert not card.evaluate("d => d.open") and not output.is_visible()
    # Keyboard: a focused card toggles with Enter.
    card.locator("summary").focus()
    page.keyboard.press("Enter")
    assert card.evaluate("d => d.open")
    _clean(opened)


def test_results_of_parallel_calls_end_up_in_their_cards(open_transcript: Any) -> None:
    page = open_transcript(RUN).page
    cards = page.locator("details.tool")
    assert cards.count() == 3
    assert page.locator("main > .tool-result").count() == 0  # every result moved into its card
    page.get_by_role("button", name="Expand all").click()
    assert cards.nth(1).locator(".slot pre.out").text_content() == "contents of a"
    assert cards.nth(2).locator(".slot pre.out").text_content() == "no such file"
    statuses = [
        cards.nth(n).locator(".status").evaluate("s => getComputedStyle(s, '::after').content")
        for n in range(3)
    ]
    assert statuses == ['"ok"', '"ok"', '"error"']
    expect(cards.nth(2).locator("summary .meta")).to_have_text("1 line", use_inner_text=True)
    page.get_by_role("button", name="Collapse all").click()
    assert cards.evaluate_all("cards => cards.every(d => !d.open)")


def test_thinking_expands_on_click(open_transcript: Any) -> None:
    page = open_transcript(RUN).page
    thinking = page.locator("details.thinking")
    body = thinking.locator(".body")
    assert not body.is_visible()
    thinking.locator("summary").click()
    assert body.is_visible()
    expect(body).to_contain_text("needle in the haystack", use_inner_text=True)


def test_search_filters_highlights_and_opens_what_matches(open_transcript: Any) -> None:
    opened = open_transcript(RUN)
    page = opened.page
    entries = page.locator("main > .entry")
    total = entries.count()
    page.keyboard.press("/")
    box = page.locator("#search")
    assert box.evaluate("b => b === document.activeElement")
    page.keyboard.type("NEEDLE")
    page.wait_for_function("() => document.getElementById('search-status').textContent !== ''")
    visible = [entries.nth(n).is_visible() for n in range(total)]
    assert sum(visible) == 2  # the thinking and the `ls` card
    assert page.locator("#search-status").inner_text() == f"2 of {total} entries"
    # A match inside a closed card opens it; the matches are highlighted.
    assert page.locator("details.tool").first.evaluate("d => d.open")
    assert page.evaluate("CSS.highlights.get('linewise-match').size") == 3
    page.keyboard.press("Enter")
    assert page.locator(".current").count() == 1
    assert page.locator("#search-status").inner_text() == "1 / 2 matching entries"
    page.keyboard.press("Escape")
    assert all(entries.nth(n).is_visible() for n in range(total))
    assert not page.locator("details.tool").first.evaluate("d => d.open")  # closed again
    assert page.evaluate("CSS.highlights.get('linewise-match').size") == 0
    page.locator("#search").fill("no such thing anywhere")
    page.wait_for_function("() => document.getElementById('search-status').textContent !== ''")
    assert page.locator("main > .entry:visible").count() == 0
    _clean(opened)


def test_next_error_goes_to_each_error_in_turn(open_transcript: Any) -> None:
    page = open_transcript(RUN).page
    button = page.locator("#next-error")
    assert button.inner_text() == "Next error (1)"
    button.click()
    current = page.locator(".current")
    assert current.is_visible()
    expect(current).to_have_text(re.compile(r"no such file$"), use_inner_text=True)


def test_the_usage_header_is_drawn_above_the_transcript(open_transcript: Any) -> None:
    page = open_transcript(RUN).page
    header = page.locator("#summary")
    assert header.locator("h1").inner_text() == "run.jsonl"
    text = header.inner_text()
    for figure in ("1,200", "345", "6,789", "$0.0421", "claude-sonnet-4-6", "success"):
        assert figure in text
    header_box = header.bounding_box()
    main_box = page.locator("main").bounding_box()
    assert header_box and main_box and header_box["y"] + header_box["height"] < main_box["y"]
    # Moved first in the document too, so a screen reader reads it first.
    assert page.evaluate("document.body.firstElementChild.id") == "summary"


def test_without_javascript_the_page_still_reads_in_order(open_transcript: Any) -> None:
    page = open_transcript(RUN, java_script_enabled=False).page
    header_box = page.locator("#summary").bounding_box()
    main_box = page.locator("main").bounding_box()
    assert header_box and main_box and header_box["y"] + header_box["height"] <= main_box["y"]
    assert not page.locator(".toolbar").is_visible()  # search needs the script
    card = page.locator("details.tool").first
    card.locator("summary").click()
    assert card.locator("pre.out").is_visible()  # adjacent results are in their card anyway


def test_light_and_dark_follow_the_system(open_transcript: Any) -> None:
    light = open_transcript(RUN, color_scheme="light").page
    dark = open_transcript(RUN, color_scheme="dark").page
    background = "getComputedStyle(document.documentElement).backgroundColor"
    assert light.evaluate(background) != dark.evaluate(background)


XSS = [
    "<img src=x onerror=\"window.__pwned=1;alert('img')\">",
    "<script>window.__pwned=1;alert('script')</script>",
    "</script><script>window.__pwned=1;alert('breakout')</script>",
    '"><svg onload="window.__pwned=1;alert(\'svg\')">',
    '\'><iframe src="javascript:window.parent.__pwned=1"></iframe>',
    '<a href="javascript:window.__pwned=1">click me</a>',
    '<img src="http://example.invalid/pixel.png"><link rel=stylesheet href=//example.invalid/x>',
    "<style>@import url(http://example.invalid/x.css);</style>",
    "\x1b]8;;javascript:alert(1)\x07osc link\x1b]8;;\x07",
    "**`<img src=x onerror=alert('md')>`** ```\n<script>alert('fence')</script>\n```",
]


def _hostile(payload: str) -> list[dict[str, Any]]:
    return [
        {"kind": "init", "ts": TS, "model": payload, "sessionId": payload},
        {"kind": "assistant", "ts": TS, "text": payload},
        {"kind": "assistant", "ts": TS, "text": payload, "delta": True},
        {"kind": "thinking", "ts": TS, "text": payload},
        {"kind": "user", "ts": TS, "text": payload},
        {
            "kind": "tool_call",
            "ts": TS,
            "name": payload,
            "input": {payload: payload},
            "toolUseId": payload,
        },
        {"kind": "tool_result", "ts": TS, "toolUseId": payload, "toolName": payload,
         "content": payload, "isError": True},
        {"kind": "tool_result", "ts": TS, "toolUseId": "x" + payload, "content": payload,
         "isError": False},
        {"kind": "system", "ts": TS, "text": payload},
        {"kind": "stderr", "ts": TS, "text": payload},
        {"kind": "stdout", "ts": TS, "text": payload},
        {"kind": "diff", "ts": TS, "changeType": "add", "text": payload},
        {"kind": "result", "ts": TS, "text": payload, "inputTokens": 1, "outputTokens": 1,
         "cachedTokens": 0, "costUsd": 0, "subtype": payload, "isError": True,
         "errors": [payload]},
    ]  # fmt: skip


def test_xss_payloads_in_a_log_stay_inert(open_transcript: Any) -> None:
    entries = [entry for payload in XSS for entry in _hostile(payload)]
    opened = open_transcript(entries, title=XSS[2])
    page = opened.page
    # Open everything, search for the payloads (highlighting walks their text), click.
    page.get_by_role("button", name="Expand all").click()
    for query in ("onerror", "<script>", "javascript:"):
        page.locator("#search").fill(query)
        page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    for button in ("Next error", "Collapse all"):
        page.get_by_role("button", name=button).first.click()
    page.wait_for_timeout(300)
    assert page.evaluate("window.__pwned") is None
    assert page.evaluate("document.querySelectorAll('img, svg, iframe, object, link').length") == 0
    assert page.evaluate("document.querySelectorAll('style').length") == 1
    assert page.evaluate("document.scripts.length") == 2
    assert page.title() == XSS[2] + " · linewise"
    text = page.locator("main").text_content() or ""
    assert XSS[0] in text and XSS[3] in text and "osc link" in text
    _clean(opened)


def test_the_page_makes_no_network_request(open_transcript: Any) -> None:
    entries = [entry for payload in XSS[6:8] for entry in _hostile(payload)]
    opened = open_transcript(entries)
    opened.page.get_by_role("button", name="Expand all").click()
    opened.page.wait_for_timeout(300)
    _clean(opened)


def test_the_checks_above_would_see_a_leak(open_transcript: Any) -> None:
    # The control: the same harness on a page that does run a payload and fetch an image.
    opened = open_transcript([], raw_html=f"<p>{XSS[0]}{XSS[6]}</p>")
    opened.page.wait_for_timeout(300)
    assert opened.page.evaluate("window.__pwned") == 1
    assert opened.dialogs == ["img"]
    assert "http://example.invalid/pixel.png" in opened.requests
    assert "http://example.invalid/pixel.png" in opened.blocked


def _claude_entries(name: str) -> list[dict[str, Any]]:
    path = corpus_path("real-logs", "claude", name)
    session = open_session("claude_local")
    return [*session.feed(path.read_bytes(), TS), *session.close()]  # type: ignore[list-item]


def _task(ident: str, kind: str, description: str) -> dict[str, Any]:
    return {
        "kind": "tool_call",
        "ts": TS,
        "name": "Task",
        "input": {"subagent_type": kind, "description": description, "prompt": description},
        "toolUseId": ident,
    }


def _in(parent: str, entry: dict[str, Any]) -> dict[str, Any]:
    return entry | {"parentToolUseId": parent}


# A run written for this repository (no third-party paths): a subagent maps the
# tests, one of its commands fails, the main thread plans, edits and finishes.
OWN_RUN: list[dict[str, Any]] = [
    {"kind": "init", "ts": "2026-03-29T10:00:00.000Z", "model": "claude-sonnet-4-6",
     "sessionId": "5b0e2f7c-1a2b-4c3d-8e9f-0a1b2c3d4e5f"},
    {"kind": "user", "ts": TS, "text": "The compact style drops failed results: fix it."},
    {"kind": "thinking", "ts": TS, "text": "First find which tests cover the compact style."},
    _task("task-1", "Explore", "find the compact style tests"),
    _in("task-1", {"kind": "assistant", "ts": TS, "text": "Searching the tests folder."}),
    _in("task-1", _call("s1", "grep -rln 'compact' tests/host")),
    _in("task-1", _result("s1", "tests/host/test_compact.py\ntests/host/test_render_cli.py")),
    _in("task-1", _call("s2", "pytest -q tests/host/test_compact.py -k failed")),
    _in("task-1", _result("s2", "FAILED test_a_failed_result_is_marked - AssertionError",
                          error=True)),
    _result("task-1", "Two files cover it; one test fails: test_a_failed_result_is_marked."),
    {"kind": "tool_call", "ts": TS, "name": "TodoWrite", "toolUseId": "todo",
     "input": {"todos": [
         {"content": "Find the tests", "status": "completed", "activeForm": "Finding"},
         {"content": "Mark failed results in red", "status": "in_progress",
          "activeForm": "Marking"},
         {"content": "Run the whole suite", "status": "pending", "activeForm": "Running"},
     ]}},
    _result("todo", "Todos have been modified successfully."),
    {"kind": "tool_call", "ts": TS, "name": "Edit", "toolUseId": "edit",
     "input": {"file_path": "host/src/linewise/renderers/compact.py",
               "old_string": "    return lines", "new_string":
               "    if failed:\n        lines.append((\"error\", f\"[failed: {label}]\"))\n"
               "    return lines"}},
    _result("edit", "The file was updated."),
    _call("t1", "pytest -q tests/host"),
    _result("t1", "412 passed in 31.2s"),
    {"kind": "assistant", "ts": "2026-03-29T10:03:07.000Z",
     "text": "Failed results are now marked **in red** in the compact style; all tests pass."},
    {"kind": "result", "ts": "2026-03-29T10:03:07.000Z",
     "text": "Failed results are now marked **in red** in the compact style; all tests pass.",
     "inputTokens": 1200, "outputTokens": 345, "cachedTokens": 6789, "costUsd": 0.0421,
     "subtype": "success", "isError": False, "errors": []},
]  # fmt: skip


def test_a_subagent_is_nested_in_its_call_with_its_own_counts(open_transcript: Any) -> None:
    opened = open_transcript(OWN_RUN)
    page = opened.page
    task = page.locator("main > details.tool").first
    # Its entries moved inside the Task card; none is left at the top.
    assert page.locator("main > [data-parent]").count() == 0
    inner = task.locator(".sub-entries > .entry")
    assert inner.count() == 3  # the assistant message and two command cards
    assert task.locator(".sub-entries .tool-result").count() == 2  # results in their cards
    badge = task.locator("summary .sub-badge").first
    assert badge.inner_text() == "subagent: 2 calls, 1 error"
    assert task.locator(".sub-count").text_content() == "3 entries · 2 tool calls · 1 error"
    assert "sub-failed" in (task.get_attribute("class") or "")
    # The Task's own result is in its slot, after the subagent's work.
    own = task.locator("> .body > .slot")
    assert "Two files cover it" in (own.text_content() or "")
    # Its own status is its own result's ("ok"), not a nested card's error.
    status = task.locator("> summary .status")
    assert status.evaluate("s => getComputedStyle(s, '::after').content") == '"ok"'
    nested = task.locator(".sub-entries .tool").nth(1).locator("> summary .status")
    assert nested.evaluate("s => getComputedStyle(s, '::after').content") == '"error"'
    assert task.locator("> summary .meta").first.text_content() == "1 line"
    # Collapsible: the subagent block folds.
    task.locator("> summary").click()
    block = task.locator("details.subagent")
    assert block.evaluate("d => d.open") and inner.first.is_visible()
    block.locator("> summary").click()
    assert not inner.first.is_visible()
    _clean(opened)


def test_search_and_next_error_reach_into_a_subagent(open_transcript: Any) -> None:
    opened = open_transcript(OWN_RUN)
    page = opened.page
    page.locator("#search").fill("grep -rln")
    page.wait_for_function("() => document.getElementById('search-status').textContent !== ''")
    assert page.locator("main > .entry:not(.miss)").count() == 1  # the Task card holds it
    page.keyboard.press("Enter")
    match = page.locator("details.subagent .tool").first
    assert match.evaluate("d => d.closest('main > details.tool').open")
    page.keyboard.press("Escape")
    page.locator("#next-error").click()
    current = page.locator(".current")
    assert current.is_visible()
    assert "FAILED test_a_failed_result_is_marked" in (current.text_content() or "")
    assert current.evaluate("e => !!e.closest('.sub-entries')")
    _clean(opened)


def test_to_do_lists_and_edits_are_drawn_for_reading(open_transcript: Any) -> None:
    page = open_transcript(OWN_RUN).page
    page.get_by_role("button", name="Expand all").click()
    items = page.locator(".checklist .todo")
    assert items.count() == 3 and items.nth(0).text_content() == "☑Find the tests"
    added = page.locator(".tool .diff .d-add")
    # text_content, not inner_text: the card may be below the fold, where the page's
    # content-visibility:auto leaves its text unrendered (the header grew taller in 1.3).
    first = added.first.text_content() or ""
    assert added.count() == 3 and first.startswith("+    if failed:")
    colours = page.locator(".tool .diff .d-remove").first.evaluate(
        "e => getComputedStyle(e).backgroundColor"
    )
    assert colours not in ("rgba(0, 0, 0, 0)", "transparent")


def test_a_long_transcript_opens_page_by_page(open_transcript: Any) -> None:
    entries = [{"kind": "assistant", "ts": TS, "text": f"message {n}"} for n in range(2500)]
    entries[2400] = {"kind": "stderr", "ts": TS, "text": "late trouble"}
    opened = open_transcript(entries)
    page = opened.page
    assert page.locator("main > .entry").count() == 1000  # one page laid out
    assert page.locator("#next-error").inner_text() == "Next error (1)"
    page.locator("#more").scroll_into_view_if_needed()
    page.wait_for_function("() => document.querySelectorAll('main > .entry').length >= 2000")
    page.locator("#search").fill("message 2499")
    page.wait_for_function("() => document.getElementById('search-status').textContent !== ''")
    assert page.locator("#search-status").inner_text() == "1 of 2500 entries"
    assert page.locator("main > template").count() == 0 and page.locator("#more").is_hidden()
    page.keyboard.press("Escape")
    page.locator("#next-error").click()
    expect(page.locator(".current")).to_have_text(re.compile(r"late trouble$"), use_inner_text=True)
    _clean(opened)


def test_screenshot_of_a_run_written_for_this_repository(
    open_transcript: Any, tmp_path: Path
) -> None:
    """Renders OWN_RUN; LINEWISE_UPDATE_SCREENSHOT=1 also refreshes docs/html-transcript.png."""
    opened = open_transcript(
        OWN_RUN,
        title="fix-compact-failures.jsonl",
        viewport={"width": 1100, "height": 1480},
        color_scheme="light",
    )
    page = opened.page
    page.locator("details.thinking").first.locator("summary").click()
    page.locator("main > details.tool").first.locator("> summary").click()  # the subagent
    page.locator("details.subagent .tool").nth(1).locator("> summary").click()  # its failure
    page.locator("main > details.tool").nth(1).locator("> summary").click()  # the to-do list
    page.locator("main > details.tool").nth(2).locator("> summary").click()  # the edit
    target = tmp_path / "html-transcript.png"
    page.screenshot(path=str(target))
    assert target.stat().st_size > 50_000  # a drawn page, not a blank one
    _clean(opened)
    if os.environ.get("LINEWISE_UPDATE_SCREENSHOT") == "1":
        SCREENSHOT.parent.mkdir(exist_ok=True)
        shutil.copyfile(target, SCREENSHOT)


def test_a_long_real_run_loads_and_searches(open_transcript: Any) -> None:
    entries = _claude_entries("githubgg-ralph-loop-concat-7sessions.jsonl")
    opened = open_transcript(entries)
    page = opened.page
    total = page.locator("main > .entry").count()
    assert page.locator("main > .tool-result:not(.orphan)").count() == 0
    page.locator("#search").fill("error")
    page.wait_for_function("() => document.getElementById('search-status').textContent !== ''")
    shown = page.locator("main > .entry:not(.miss)").count()
    assert 0 < shown < total
    _clean(opened)


# -- contract 1.3's kinds (a Paperclip runner's run) ------------------------------------


def _runner_entries() -> list[dict[str, Any]]:
    from linewise_paperclip_runner import create_stdout_parser

    sample = (
        REPO / "plugins/paperclip-runner/src/linewise_paperclip_runner/samples/runner-run.jsonl"
    )
    parser = create_stdout_parser()
    return [
        entry
        for line in sample.read_text(encoding="utf-8").splitlines()
        for entry in parser.parse_line(line, TS)
    ]


def test_a_runner_run_shows_plan_changes_request_result_and_terminal_state(
    open_transcript: Any,
) -> None:
    opened = open_transcript(_runner_entries(), "runner-run.jsonl")
    page = opened.page
    plan = page.locator("section.provider-activity").first
    assert plan.is_visible()
    steps = plan.locator("ul.checklist li")
    assert steps.count() == 3
    assert "Patch the parser" in steps.nth(1).inner_text()
    assert plan.locator("li.todo.completed").count() == 1
    change = page.locator("section.workspace-change")
    assert "src/dates.ts" in change.locator("details.file summary").inner_text()
    assert (
        change.locator("span.d-add").is_visible() and change.locator("span.d-remove").is_visible()
    )
    requests = page.locator("section.runtime-request")
    assert requests.count() == 2
    assert requests.nth(1).locator("li.choice.chosen").inner_text() == "Allow once"
    result = page.locator("section.run-result")
    assert "needs review" in result.locator(".head").inner_text()
    assert "pnpm test dates" in result.locator("ul.checks").inner_text()
    assert "Add a test for the year 2100" in result.inner_text()
    header = page.locator("header#summary")
    assert "run end: turn completed · run succeeded · needs review" in header.inner_text()
    reference = page.locator("section.workspace-file-reference")
    assert "isLeapYear" in reference.inner_text()
    # The page's own search box finds text inside the new cards, and only there.
    page.locator("#search").fill("Gregorian")
    page.wait_for_function("() => document.getElementById('search-status').textContent !== ''")
    assert result.is_visible() and not change.is_visible()
    _clean(opened)
