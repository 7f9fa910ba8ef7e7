"""Benchmark: `linewise sessions` over a few thousand generated sessions, cold and warm.

Run with `python3 -m uv run python benchmarks/sessions_bench.py [--sessions 2000]`.
A fake session plugin (the tests' ``tiny_session``, tests/session_fakes.py) is
installed in a temporary site directory and a fake home holds N sessions laid
out like a CLI's store. Reported: the cold listing (every session read through
the pipeline, facts cached), the warm listing (every file stat'ed, the cache
read), a warm ``--search``, a warm ``render ID``, and `linewise list` for
scale (the time to start at all). Each warm figure is the median of 3 runs.
Times are wall clock on a shared machine: compare them within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from session_fakes import TINY, jsonl, records  # noqa: E402


def _install(site: Path) -> None:
    dist = site / "tiny_sessions-1.0.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: tiny-sessions\nVersion: 1.0.0\n"
        "Requires-Dist: linewise-contracts>=1.2,<2\n"
    )
    (dist / "entry_points.txt").write_text("[linewise.parsers]\ntiny_session = tiny_session_mod\n")
    (site / "tiny_session_mod.py").write_text(TINY)


def _sessions(home: Path, count: int, calls: int) -> int:
    """``count`` sessions of ``calls`` tool calls each; the bytes written."""
    written = 0
    for number in range(count):
        day = 1 + number % 28
        items = records(
            f"sess-{number:06d}",
            cwd=f"/home/ada/project-{number % 37}",
            end=f"2026-02-{day:02d}T{number % 24:02d}:00:00Z",
            prompt=f"task {number}: make the build green " + "and explain why " * 5,
            reply=f"finished task {number}",
        )
        extra = []
        for call in range(calls):
            extra += [
                {"t": "call", "id": f"c{call}", "name": "Bash"},
                {"t": "ok", "id": f"c{call}", "out": "line of output\n" * 20},
                {"t": "say", "text": f"step {call} done, moving on"},
            ]
        items[4:4] = extra
        path = home / ".tiny" / "sessions" / f"project-{number % 37}" / f"sess-{number:06d}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        text = jsonl(items)
        path.write_text(text)
        written += len(text)
    return written


def _timed(command: list[str], env: dict[str, str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, done.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=2000)
    parser.add_argument("--calls", type=int, default=10, help="tool calls per session")
    args = parser.parse_args(argv)
    linewise = [sys.executable, "-c", "import sys; from linewise.cli import main; sys.exit(main())"]
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        site, home, cache = root / "site", root / "home", root / "cache"
        _install(site)
        size = _sessions(home, args.sessions, args.calls)
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]),
            "HOME": str(home),
            "LINEWISE_CACHE_DIR": str(cache),
        }
        cold, out = _timed([*linewise, "sessions", "--json"], env)
        found = len(json.loads(out)["sessions"])
        assert found == args.sessions, f"found {found} of {args.sessions} sessions"
        warm = statistics.median(_timed([*linewise, "sessions"], env)[0] for _ in range(3))
        search = statistics.median(
            _timed([*linewise, "sessions", "--search", "task 1234:"], env)[0] for _ in range(3)
        )
        render = statistics.median(
            _timed([*linewise, "render", "sess-000042", "-q"], env)[0] for _ in range(3)
        )
        start = statistics.median(_timed([*linewise, "list"], env)[0] for _ in range(3))
        print(f"sessions: {args.sessions} ({size / 1e6:.1f} MB, {args.calls} tool calls each)")
        print(f"cold `linewise sessions`:        {cold:6.2f} s ({args.sessions / cold:,.0f}/s)")
        print(f"warm `linewise sessions`:        {warm:6.2f} s")
        print(f"warm `linewise sessions --search`: {search:4.2f} s")
        print(f"warm `linewise render ID`:       {render:6.2f} s")
        print(f"`linewise list` (start-up):      {start:6.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
