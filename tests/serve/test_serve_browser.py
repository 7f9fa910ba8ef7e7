"""linewise serve in real Chromium (Debian's, driven by Playwright), against a running server.

The corpus's real sessions are laid out in a fake home at test time (skipped
with a reason without the corpus); the live and XSS sessions are written here.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from linewise import Registry, find_sessions, transcribe_session

pytest.importorskip(
    "playwright.sync_api",
    reason="playwright is not installed (a dev dependency): the browser tests are skipped",
)
import uvicorn
from linewise_serve.app import make_app
from linewise_serve.index import SessionIndex
from linewise_serve.search import SearchIndex
from playwright.sync_api import sync_playwright
from serve_homes import claude_lines, corpus_home, write_claude

if TYPE_CHECKING:
    from playwright.sync_api import Browser, ConsoleMessage, Page, Request

pytestmark = pytest.mark.slow

CHROMIUM = os.environ.get("LINEWISE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).is_file():
    pytest.skip(
        f"no chromium executable at {CHROMIUM} (apt-get install chromium): "
        "the browser tests are skipped",
        allow_module_level=True,
    )
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LINEWISE = str(Path(sys.executable).with_name("linewise"))


@dataclass
class Served:
    """A running server over a fake home, and what it serves."""

    url: str
    home: Path
    cache: Path
    index: SessionIndex
    server: uvicorn.Server
    thread: threading.Thread

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def serve(home: Path, cache: Path) -> Served:
    environ = {"LINEWISE_CACHE_DIR": str(cache)}
    index = SessionIndex(registry=Registry(), environ=environ, home=home, refresh_seconds=1.0)
    app = make_app(index, search=SearchIndex.open_default(environ=environ))
    app.app.state.indexer.catch_up()
    port = _free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=1
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    return Served(f"http://127.0.0.1:{port}", home, cache, index, server, thread)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    root = tmp_path_factory.mktemp("corpus")
    corpus_home(root / "home")
    served = serve(root / "home", root / "cache")
    yield served
    served.stop()


@pytest.fixture
def scratch(tmp_path: Path) -> Iterator[Served]:
    (tmp_path / "home").mkdir()
    holder: list[Served] = []
    yield_value = _Scratch(tmp_path, holder)
    yield yield_value  # type: ignore[misc]
    for one in holder:
        one.stop()


class _Scratch:
    """A server started once the test has written its sessions."""

    def __init__(self, root: Path, holder: list[Served]) -> None:
        self.home = root / "home"
        self.cache = root / "cache"
        self._holder = holder

    def start(self) -> Served:
        served = serve(self.home, self.cache)
        self._holder.append(served)
        return served


@dataclass
class Tab:
    """A page of the app open in a tab, with everything it tried that it should not."""

    page: Page
    origin: str
    foreign: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)

    def clean(self) -> None:
        assert self.foreign == []
        assert self.dialogs == []
        assert self.console_errors == []  # a policy violation is reported here
        assert self.page_errors == []
        violations = self.page.evaluate("window.__violations || []")
        assert violations == []


VIOLATIONS = (
    "window.__violations = [];"
    "document.addEventListener('securitypolicyviolation', (e) => "
    "window.__violations.push(e.violatedDirective + ' ' + e.blockedURI), true);"
)


@pytest.fixture
def open_tab(browser: Browser) -> Iterator[Callable[[str], Tab]]:
    contexts = []

    def open_(url: str) -> Tab:
        context = browser.new_context(service_workers="block")
        contexts.append(context)
        context.add_init_script(VIOLATIONS)
        page = context.new_page()
        origin = url.split("/", 3)[:3]
        tab = Tab(page, "/".join(origin))

        def on_request(request: Request) -> None:
            if not request.url.startswith(tab.origin + "/"):
                tab.foreign.append(request.url)

        def on_console(message: ConsoleMessage) -> None:
            if message.type in ("error", "warning"):
                tab.console_errors.append(message.text)

        def on_dialog(dialog: Any) -> None:
            tab.dialogs.append(dialog.message)
            dialog.dismiss()

        page.on("request", on_request)
        page.on("console", on_console)
        page.on("dialog", on_dialog)
        page.on("pageerror", lambda error: tab.page_errors.append(str(error)))
        page.goto(url)
        return tab

    yield open_
    for context in contexts:
        context.close()


def test_the_list_shows_every_corpus_session(
    corpus: Served, open_tab: Callable[[str], Tab]
) -> None:
    expected = find_sessions(
        registry=Registry(), environ={"LINEWISE_CACHE_DIR": str(corpus.cache)}, home=corpus.home
    )
    assert len(expected) >= 20  # every CLI's corpus sessions, laid out as the CLIs keep them
    shown: list[str] = []
    tab = open_tab(corpus.url + "/")
    page = tab.page
    assert page.locator("#count").inner_text().startswith(f"{len(expected):,} of {len(expected):,}")
    while True:
        shown += page.locator("table.sessions tbody tr").evaluate_all(
            "rows => rows.map(r => r.dataset.uid)"
        )
        older = page.locator("a[rel=next]")
        if not older.count():
            break
        older.click()
    by_uid = {one.uid: one.info for one in corpus.index.sessions()}
    assert sorted(by_uid[uid].path + (by_uid[uid].key or "") for uid in shown) == sorted(
        info.path + (info.key or "") for info in expected
    )
    # Newest first.
    moments = [by_uid[uid].newest for uid in shown]
    assert moments == sorted(moments, reverse=True)
    tab.clean()


def _tool_result_word(served: Served) -> str:
    """A word of a tool result of the corpus (long enough to be rare)."""
    for listed in served.index.sessions():
        for entry in transcribe_session(listed.info).entries:
            if entry["kind"] == "tool_result" and isinstance(entry.get("content"), str):
                words = re.findall(r"\b[A-Za-z]{10,20}\b", entry["content"])  # type: ignore[typeddict-item]
                if words:
                    return max(words, key=len)
    pytest.skip("no tool result in the corpus holds a long word")


def test_search_finds_a_string_from_a_tool_result_and_opens_its_entry(
    corpus: Served, open_tab: Callable[[str], Tab]
) -> None:
    word = _tool_result_word(corpus)
    tab = open_tab(corpus.url + "/search")
    page = tab.page
    page.locator("input[name=q]").fill(word)
    page.locator("input[name=q]").press("Enter")
    page.wait_for_selector("ol.hits")
    hit = page.locator("li.hit", has=page.locator(".kind", has_text=re.compile("^tool-result$")))
    assert hit.count() >= 1
    assert word.casefold() in hit.first.locator("mark").first.inner_text().casefold()
    hit.first.locator("a.hit-link").click()
    page.wait_for_url(re.compile(r"/s/[0-9a-f]+#e\d+$"))
    anchor = page.url.rsplit("#", 1)[1]
    target = page.locator(f"#{anchor}")
    target.wait_for(state="visible")
    assert "tool-result" in (target.get_attribute("class") or "")
    assert word.casefold() in target.inner_text().casefold()
    assert "current" in (target.get_attribute("class") or "")  # the page went to it
    tab.clean()


def test_a_session_being_written_updates_in_the_open_page(
    scratch: _Scratch, open_tab: Callable[[str], Tab]
) -> None:
    sid = "55555555-5555-4555-8555-555555555555"
    path = write_claude(scratch.home, sid, prompt="start the live run")
    served = scratch.start()
    uid = served.index.sessions()[0].uid
    list_tab = open_tab(served.url + "/")
    assert list_tab.page.locator(f"tr[data-uid='{uid}'] .live").count() == 1  # just written
    assert "written in the last 120 seconds" in list_tab.page.locator("#count").inner_text()
    tab = open_tab(f"{served.url}/s/{uid}")
    page = tab.page
    page.wait_for_function(
        "() => document.getElementById('live-status').textContent.includes('watching')"
    )
    page.evaluate("window.__same_page = true")
    before = page.locator("main#transcript .entry").count()
    with path.open("a", encoding="utf-8") as out:
        out.write(
            "\n".join(
                claude_lines(sid, prompt="appended while you watch", answer="live answer", start=30)
            )
            + "\n"
        )
    page.wait_for_function(
        "() => document.getElementById('transcript').textContent.includes('live answer')",
        timeout=15_000,
    )
    assert page.evaluate("window.__same_page") is True  # no reload
    assert page.locator("main#transcript .entry").count() > before
    assert "updated" in page.locator("#live-status").inner_text()
    # The appended tool result went into its call's card, as the renderer's page places it.
    assert page.locator("main#transcript > .tool-result").count() == 0
    tab.clean()


def _usage_daily(served: Served) -> dict[str, Any]:
    environ = {
        key: value
        for key, value in os.environ.items()
        if key not in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_DIR", "XDG_DATA_HOME")
    }
    environ.update(HOME=str(served.home), LINEWISE_CACHE_DIR=str(served.cache))
    done = subprocess.run(
        [LINEWISE, "usage", "daily", "--json"],
        capture_output=True,
        text=True,
        env=environ,
        timeout=300,
        check=True,
    )
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def test_the_usage_chart_shows_the_per_day_totals_of_linewise_usage_daily(
    corpus: Served, open_tab: Callable[[str], Tab]
) -> None:
    expected = _usage_daily(corpus)
    tab = open_tab(corpus.url + "/usage?period=daily&by=model")
    page = tab.page
    bars = page.locator("#tokens-chart g.bar").evaluate_all(
        "bars => bars.map(b => [b.querySelector('desc.x_label').textContent,"
        " Number(b.querySelector('desc.value').textContent)])"
    )
    drawn = dict(bars)
    known = {
        row["key"]: row["totalTokens"] for row in expected["rows"] if row["totalTokens"] is not None
    }
    assert drawn == known
    assert len(drawn) >= 2
    # A day whose tokens nobody reported draws no bar, and the table says unknown.
    table = page.locator("#usage-table tbody tr").evaluate_all(
        "rows => rows.map(r => Array.from(r.cells, c => c.textContent))"
    )
    assert [row[0] for row in table] == [row["key"] for row in expected["rows"]]
    for row, cells in zip(expected["rows"], table, strict=True):
        if row["totalTokens"] is None:
            assert cells[2] == "unknown" and row["key"] not in drawn
        else:
            assert cells[2] == f"{row['totalTokens']:,}"
    assert (
        page.locator("#cost-chart").is_visible() and page.locator("#breakdown-chart").is_visible()
    )
    tab.clean()


XSS = [
    "<img src=x onerror=\"window.__pwned=1;alert('img')\">",
    "<script>window.__pwned=1;alert('script')</script>",
    "</script><script>window.__pwned=1;alert('breakout')</script>",
    '"><svg onload="window.__pwned=1;alert(1)">',
    '<a href="javascript:window.__pwned=1">click me</a>',
    '<img src="http://example.invalid/pixel.png"><link rel=stylesheet href=//example.invalid/x>',
    "<style>@import url(http://example.invalid/x.css);</style><div style='color:red'>styled</div>",
    "\x1b]8;;javascript:alert(1)\x07osc link\x1b]8;;\x07",
    "**`<img src=x onerror=alert('md')>`** ```\n<script>alert('fence')</script>\n```",
    "<meta http-equiv=refresh content='0;url=http://example.invalid/'>",
]


def test_agent_text_stays_inert_on_every_page(
    scratch: _Scratch, open_tab: Callable[[str], Tab]
) -> None:
    for number, payload in enumerate(XSS):
        write_claude(
            scratch.home,
            f"{number:08d}-6666-4666-8666-666666666666",
            cwd=f"/home/ada/x{number}",
            day=f"2026-03-{number + 1:02d}",
            prompt=f"hostilewords {payload}",
            tool_output=payload,
            answer=payload,
            model=payload,
        )
    served = scratch.start()
    uids = [one.uid for one in served.index.sessions()]
    urls = ["/", "/search?q=hostilewords", "/search?q=img", "/usage", "/usage?by=project"]
    urls += [f"/s/{uid}" for uid in uids]
    for url in urls:
        tab = open_tab(served.url + url)
        page = tab.page
        page.wait_for_load_state("load")
        if url.startswith("/s/"):
            page.get_by_role("button", name="Expand all").click()
        assert page.evaluate("window.__pwned") is None, url
        assert page.locator("main script, main iframe, main img, main [onerror]").count() == 0, url
        assert page.locator("meta[http-equiv=refresh]").count() == 0, url
        tab.clean()
    # The payloads are shown as text.
    tab = open_tab(f"{served.url}/s/{uids[-1]}")
    assert "<img src=x onerror" in tab.page.locator("main#transcript").inner_text()


DEMO = [
    # (project, day, model, prompt, tool output, answer)
    (
        "/home/ada/shop",
        "2026-03-02",
        "claude-sonnet-4-5",
        "add a checkout test for the coupon path",
        "collected 14 items\n14 passed in 2.31s",
        "The coupon path is covered: 14 tests pass.",
    ),
    (
        "/home/ada/shop",
        "2026-03-03",
        "claude-opus-4-1",
        "why does the cart total round wrong?",
        "cart.py:88: total = round(sum(prices), 1)",
        "It rounds to one decimal; fixed to cents.",
    ),
    (
        "/home/ada/docs-site",
        "2026-03-03",
        "claude-sonnet-4-5",
        "fix the broken links in the guide",
        "3 broken links: /setup, /faq#proxy, /api/v2",
        "All three links point to live pages now.",
    ),
    (
        "/home/ada/infra",
        "2026-03-05",
        "claude-haiku-4-5",
        "rotate the staging certificates",
        "certificate renewed, expires 2026-06-03",
        "Staging certificates rotated.",
    ),
    (
        "/home/ada/shop",
        "2026-03-06",
        "claude-sonnet-4-5",
        "speed up the product search query",
        "EXPLAIN: Seq Scan on products (cost=0.00..4212.10)",
        "An index on products(name) helps.",
    ),
    (
        "/home/ada/infra",
        "2026-03-08",
        "claude-opus-4-1",
        "write a runbook for the queue outage",
        "queue depth 48213, consumers 0",
        "The runbook is in docs/runbooks/queue.md.",
    ),
]


def test_screenshots_of_each_page(
    scratch: _Scratch, open_tab: Callable[[str], Tab], browser: Browser, tmp_path: Path
) -> None:
    """Draws every page of sessions written here; LINEWISE_UPDATE_SCREENSHOT=1 also refreshes
    docs/serve-*.png (the README's)."""
    for number, (cwd, day, model, prompt, output, answer) in enumerate(DEMO):
        path = write_claude(
            scratch.home,
            f"{number + 1:08d}-7777-4777-8777-777777777777",
            cwd=cwd,
            day=day,
            model=model,
            prompt=prompt,
            tool_output=output,
            answer=answer,
        )
        if number < len(DEMO) - 1:  # written days ago: only the last one is live
            os.utime(path, (time.time() - 86_400, time.time() - 86_400))
    served = scratch.start()
    by_prompt = {one.info.first_prompt: one.uid for one in served.index.sessions()}
    pages = {
        "list": "/",
        "search": "/search?q=coupon",
        "transcript": f"/s/{by_prompt[DEMO[0][3]]}",
        "usage": "/usage?period=daily&by=project",
    }
    docs = Path(__file__).resolve().parents[2] / "docs"
    for name, url in pages.items():
        context = browser.new_context(
            viewport={"width": 1280, "height": 640}, color_scheme="light", service_workers="block"
        )
        page = context.new_page()
        page.goto(served.url + url)
        if name == "transcript":
            page.get_by_role("button", name="Expand all").click()
        target = tmp_path / f"serve-{name}.png"
        page.screenshot(path=str(target))
        context.close()
        assert target.stat().st_size > 20_000, name  # a drawn page, not a blank one
        if os.environ.get("LINEWISE_UPDATE_SCREENSHOT") == "1":
            shutil.copyfile(target, docs / f"serve-{name}.png")
