"""Benchmark: linewise serve's list page and search with thousands of sessions, warm.

Run with `python3 -m uv run --locked python benchmarks/serve_bench.py
[--sessions 10000] [--runs 20]`. A fake home holds N short Claude Code
sessions (a prompt, a Bash call and its result, an answer; tests/serve_homes.py)
spread over 37 projects and 28 days. The server is the real one (uvicorn on
127.0.0.1, in a thread of this process) and every figure is one HTTP request
over a kept-alive connection, wall clock from request to the last byte.

Reported: the cold start (every session read through the pipeline into the
facts cache, then the search index built: each session's transcript page drawn
and its elements indexed), then warm, the median and the slowest of ``--runs``
requests of: the list's first page, the list filtered by project, a search for
a word found in one session, and a search for a word in every session (the
worst case: every row matches and is ranked). The goals (issue 29): list under
300 ms, search under 200 ms, warm, with 10,000 sessions.
"""

from __future__ import annotations

import argparse
import http.client
import os
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from serve_homes import write_claude  # noqa: E402


def _home(home: Path, count: int) -> None:
    for number in range(count):
        write_claude(
            home,
            f"{number:08d}-0000-4000-8000-000000000000",
            cwd=f"/home/ada/project-{number % 37}",
            day=f"2026-02-{1 + number % 28:02d}",
            prompt=f"task {number}: make the build green and explain why",
            tool_output=f"build log {number}\n"
            + "compiling module ok\n" * 20
            + (f"uniqueneedle{number}\n" if number == count // 2 else ""),
            answer=f"finished task {number}",
        )


def _port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _timed(
    connection: http.client.HTTPConnection, path: str, runs: int
) -> tuple[float, float, int]:
    times = []
    size = 0
    for _ in range(runs):
        start = time.perf_counter()
        connection.request("GET", path)
        answer = connection.getresponse()
        body = answer.read()
        times.append(time.perf_counter() - start)
        assert answer.status == 200, (path, answer.status)
        size = len(body)
    return statistics.median(times), max(times), size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=20)
    options = parser.parse_args()

    import uvicorn
    from linewise import Registry
    from linewise_serve.app import make_app
    from linewise_serve.index import SessionIndex
    from linewise_serve.search import SearchIndex

    print(f"load before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        start = time.perf_counter()
        _home(root / "home", options.sessions)
        print(f"{options.sessions:,} sessions written in {time.perf_counter() - start:.1f} s")
        environ = {"LINEWISE_CACHE_DIR": str(root / "cache")}
        index = SessionIndex(registry=Registry(), environ=environ, home=root / "home")
        start = time.perf_counter()
        assert len(index.sessions()) == options.sessions
        print(
            f"cold: facts of every session read and cached in {time.perf_counter() - start:.1f} s"
        )
        search = SearchIndex.open_default(environ=environ)
        app = make_app(index, search=search, index_in_background=False)
        start = time.perf_counter()
        app.app.state.indexer.catch_up()
        print(f"cold: search index built in {time.perf_counter() - start:.1f} s")
        start = time.perf_counter()
        index.refresh()
        print(
            f"warm: the stores looked at again (facts cache) in {time.perf_counter() - start:.2f} s"
            " (in the background while pages are answered)"
        )
        port = _port()
        server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
        )
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        needle = f"uniqueneedle{options.sessions // 2}"
        for label, path in (
            ("list, first page", "/"),
            ("list, by project", "/?project=project-7"),
            ("search, one session", f"/search?q={needle}"),
            ("search, every session", "/search?q=compiling"),
        ):
            _timed(connection, path, 2)  # warm: the first answers read what they need once
            median, slowest, size = _timed(connection, path, options.runs)
            print(
                f"warm {label:24} median {median * 1000:6.1f} ms, slowest {slowest * 1000:6.1f} ms"
                f" ({size / 1024:.0f} KiB)"
            )
        connection.close()
        server.should_exit = True
        thread.join(timeout=10)
        search.close()
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
