"""Benchmark: `linewise sessions` over thousands of generated sessions, cold and warm, as users install it.

Run with `python3 -m uv run --locked python benchmarks/sessions_bench.py
[--sessions 1000 10000] [--venv DIR]`. linewise is timed as users install it
(the README's "Installing"): a fresh venv made with `python3 -m venv` and
filled by plain pip with `pip install ./contracts ./host ./plugins/*/` from this
checkout (the compiled hot path where a C compiler works; its `linewise
--version` is printed first); `--venv` reuses one built that way before.
Bytecode is cached as on a user's machine (PYTHONDONTWRITEBYTECODE unset).

A fake session plugin (the tests' ``tiny_session``, tests/session_fakes.py) is
put in a temporary site directory beside every first-party plugin, and a fake
home holds N sessions laid out like a CLI's store. For each N it reports the
cold listing (`sessions --json`: every session read through the pipeline, in
a pool of one process per core, and cached), the warm listing (`sessions`:
the store folders listed, every file stat'ed, the facts cache read in one
query, the table printed; the median of 5), a warm `--search`, and `linewise
list` for scale (the time to start at all). Each figure is wall clock and, in
brackets, the CPU time of the process and its workers (user + system): on a
shared machine the wall clock grows with the load, the CPU time much less.
Peak memory is the largest resident size of the process or any one worker.
The machine's load (`uptime`) is printed before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "benchmarks"))

from reference_bench import hot_path, user_install  # noqa: E402
from session_fakes import TINY, jsonl, records  # noqa: E402

#: Warm figures are the median of this many runs.
WARM_RUNS = 5


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


#: Runs one command and reports on stderr its wall time and its own (and its workers')
#: CPU time and peak resident size: a process of its own per command, so nothing else
#: (the pip install before) counts.
_MEASURE = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=sys.stdout, stderr=subprocess.DEVNULL)
wall = time.perf_counter() - start
used = resource.getrusage(resource.RUSAGE_CHILDREN)
sys.stderr.write(json.dumps([done.returncode, wall, used.ru_utime + used.ru_stime, used.ru_maxrss]))
"""


def _timed(command: list[str], env: dict[str, str]) -> tuple[float, float, float, str]:
    """Wall seconds, CPU seconds (the process and its workers), peak MB of one of them, stdout."""
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, *command],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    code, wall, cpu, peak_kib = json.loads(done.stderr)
    assert code == 0, f"{command} exited {code}"
    return wall, cpu, peak_kib / 1024, done.stdout


def _median(runs: list[tuple[float, float, float, str]]) -> tuple[float, float]:
    return statistics.median(run[0] for run in runs), statistics.median(run[1] for run in runs)


def _load() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


def _one(linewise: str, count: int, calls: int, environ: dict[str, str]) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        site, home, cache = root / "site", root / "home", root / "cache"
        _install(site)
        size = _sessions(home, count, calls)
        env = {
            **environ,
            "PYTHONPATH": str(site),
            "HOME": str(home),
            "LINEWISE_CACHE_DIR": str(cache),
        }
        _timed([linewise, "list"], env)  # bytecode of the fake plugin written, as after a first use
        cold = _timed([linewise, "sessions", "--json"], env)
        found = len(json.loads(cold[3])["sessions"])
        assert found == count, f"found {found} of {count} sessions"
        warm = [_timed([linewise, "sessions"], env) for _ in range(WARM_RUNS)]
        search = [_timed([linewise, "sessions", "--search", "task 1234:"], env) for _ in range(3)]
        start = [_timed([linewise, "list"], env) for _ in range(3)]
        peak = max(run[2] for run in [cold, *warm])
        print(f"\nsessions: {count:,} ({size / 1e6:.1f} MB, {calls} tool calls each)")
        print(f"  cold `linewise sessions --json`:   {cold[0]:6.2f} s  [{cold[1]:5.2f} s CPU]")
        print(
            "  warm `linewise sessions`:          {:6.2f} s  [{:5.2f} s CPU]".format(*_median(warm))
        )
        print(
            "  warm `linewise sessions --search`: {:6.2f} s  [{:5.2f} s CPU]".format(
                *_median(search)
            )
        )
        print(
            "  `linewise list` (start-up):        {:6.2f} s  [{:5.2f} s CPU]".format(
                *_median(start)
            )
        )
        print(f"  peak memory of one process:        {peak:6.0f} MB")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--calls", type=int, default=10, help="tool calls per session")
    parser.add_argument("--venv", type=Path, help="a fresh install made before (see the docstring)")
    args = parser.parse_args(argv)
    environ = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE", "VIRTUAL_ENV")
    }
    with tempfile.TemporaryDirectory() as scratch:
        venv = args.venv or user_install(Path(scratch) / "venv", pure=False)
        linewise = str(venv / "bin" / "linewise")
        print(f"install ({venv}):\n{hot_path(venv)}")
        print(
            f"cores: {len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()}"
        )
        print(f"load before: {_load()}")
        for count in args.sessions:
            _one(linewise, count, args.calls, environ)
        print(f"\nload after: {_load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
