"""Benchmark: the HTML page of a big generated run: its size, the time to write it, to open it.

Run with `python3 -m uv run python benchmarks/html_bench.py [--turns N] [--browser]`.
The workload is a generated Claude-like run (assistant text, a tool call with a
result of a few KB, an occasional error and thinking per turn). `--browser`
opens the page in Debian's chromium (Playwright) and reports the time until the
page's script has run, with <template> pages (the default) and with every
entry laid out at once (one page), so the effect of paging is measured on the
same machine in the same run.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import linewise.render.html.renderer as html_renderer
from linewise.render.html import HtmlRenderer

TS = "2026-03-29T10:00:00.000Z"


def workload(turns: int, seed: int = 7) -> Iterator[dict[str, Any]]:
    rng = random.Random(seed)
    words = [
        "the",
        "file",
        "test",
        "runs",
        "fails",
        "passes",
        "module",
        "function",
        "value",
        "error",
        "output",
        "line",
    ]
    # Pools drawn from once: generating the text must not dominate the measurement.
    texts = [" ".join(rng.choice(words) for _ in range(rng.randint(10, 60))) for _ in range(997)]
    lines = [" ".join(rng.choice(words) for _ in range(12)) for _ in range(1009)]
    yield {"kind": "init", "ts": TS, "model": "claude-sonnet-4-6", "sessionId": "s"}
    for n in range(turns):
        text = texts[n % len(texts)]
        yield {"kind": "thinking", "ts": TS, "text": text}
        yield {"kind": "assistant", "ts": TS, "text": f"Step {n}: **{text}**"}
        yield {
            "kind": "tool_call",
            "ts": TS,
            "name": "Bash",
            "input": {"command": f"pytest -q tests/test_{n}.py", "description": text[:60]},
            "toolUseId": f"t{n}",
        }
        start = n % len(lines)
        output = "\n".join(lines[start : start + 5 + n % 56])
        yield {
            "kind": "tool_result",
            "ts": TS,
            "toolUseId": f"t{n}",
            "content": output,
            "isError": n % 13 == 0,
        }
    yield {
        "kind": "result",
        "ts": TS,
        "text": "done",
        "inputTokens": 1,
        "outputTokens": 1,
        "cachedTokens": 0,
        "costUsd": 0.1,
        "subtype": "success",
        "isError": False,
        "errors": [],
    }


def write_page(turns: int, path: Path) -> tuple[float, int, int]:
    """Seconds to write the page, its size in bytes, and the size of the entries as JSON."""
    import json

    entries = list(workload(turns))
    source = sum(len(json.dumps(entry)) + 1 for entry in entries)
    start = time.perf_counter()
    with path.open("w", encoding="utf-8") as out:
        renderer = HtmlRenderer(out, title="bench")
        for entry in entries:
            renderer.write(entry)  # type: ignore[arg-type]
        renderer.close()
    return time.perf_counter() - start, path.stat().st_size, source


def open_seconds(path: Path) -> float:
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("LINEWISE_CHROMIUM") or shutil.which("chromium") or "chromium"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page()
        start = time.perf_counter()
        page.goto(path.as_uri(), timeout=600_000)
        page.wait_for_function(
            "() => document.documentElement.classList.contains('js')", timeout=600_000
        )
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => r(0)))")
        seconds = time.perf_counter() - start
        browser.close()
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=20_000)
    parser.add_argument("--browser", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        paged = Path(folder) / "paged.html"
        seconds, size, source = write_page(args.turns, paged)
        print(
            f"{args.turns:,} turns ({4 * args.turns + 2:,} entries, {source / 1e6:.1f} MB as jsonl):"
            f" page {size / 1e6:.1f} MB written in {seconds:.2f} s"
            f" ({source / 1e6 / seconds:.1f} MB of entries/s)"
        )
        if args.browser:
            flat = Path(folder) / "flat.html"
            html_renderer.PAGE_ENTRIES = 1 << 62  # type: ignore[misc]
            write_page(args.turns, flat)
            print(f"open in chromium, pages of 1,000 entries: {open_seconds(paged):.2f} s")
            print(f"open in chromium, all entries laid out:   {open_seconds(flat):.2f} s")


if __name__ == "__main__":
    main()
