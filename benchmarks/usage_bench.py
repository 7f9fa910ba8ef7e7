"""Benchmark: `linewise usage` over 10,000 generated sessions in a fake home, cold and warm.

Run with `python3 -m uv run --locked python benchmarks/usage_bench.py [--sessions 10000]`.
A fake session plugin that reports tokens per model (the tests' ``meter_session``,
tests/usage_fakes.py) is installed in a temporary site directory, and a fake
home holds N sessions over 90 days, each with a few model calls on two of
three models (one unknown to the price table), a fifth of them with a
reported cost, so the reports estimate, keep reported costs and name an
unpriced model. Reported: the cold report (every session read through the
pipeline, priced and cached), then warm reports (every file stat'ed, the facts
cache read, nothing priced again): daily, model, session --json and blocks,
each the median of 3 runs, and `linewise list` for scale (the time to start
at all). Each figure is wall clock and, in brackets, the CPU time the process
used (user + system): on a shared machine the wall clock grows with the load,
the CPU time much less. Bytecode is cached as on a user's machine
(PYTHONDONTWRITEBYTECODE is unset).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from usage_fakes import METER, message  # noqa: E402

MODELS = ("claude-sonnet-4-5", "claude-haiku-4-5", "local-llama-3b")


def _install(site: Path) -> None:
    dist = site / "meter_sessions-1.0.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: meter-sessions\nVersion: 1.0.0\n"
        "Requires-Dist: linewise-contracts>=1.3,<2\n"
    )
    (dist / "entry_points.txt").write_text(
        "[linewise.parsers]\nmeter_session = meter_session_mod\n"
    )
    (site / "meter_session_mod.py").write_text(METER)


def _sessions(home: Path, count: int, seed: int) -> int:
    """``count`` sessions; the bytes written."""
    rng = random.Random(seed)
    written = 0
    for number in range(count):
        day = number % 90
        hour = rng.randrange(24)
        start = f"2026-{1 + day // 30:02d}-{1 + day % 28:02d}T{hour:02d}:{rng.randrange(60):02d}"
        models = rng.sample(MODELS[:2], 2) if rng.random() < 0.97 else [MODELS[0], MODELS[2]]
        calls = []
        for call in range(rng.randrange(3, 9)):
            tokens = {
                "in": rng.randrange(1, 500),
                "cr": rng.randrange(0, 50_000),
                "cw": rng.randrange(0, 5_000),
                "out": rng.randrange(10, 2_000),
            }
            extra = {"cost": round(rng.random() / 10, 4)} if number % 5 == 0 else {}
            calls.append(
                message(f"{start}:{call:02d}Z", models[call % 2], **tokens, **extra)  # type: ignore[arg-type]
            )
        project = f"project-{number % 41}"
        init = {
            "t": "init",
            "id": f"sess-{number:06d}",
            "cwd": f"/work/{project}",
            "ts": calls[0]["ts"],
            "cli": "meter",
        }
        path = home / ".meter" / "sessions" / project / f"sess-{number:06d}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        text = "".join(json.dumps(item) + "\n" for item in [init, *calls])
        path.write_text(text)
        written += len(text)
    return written


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _timed(command: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, stdout) of one run."""
    start, cpu = time.perf_counter(), _cpu()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, _cpu() - cpu, done.stdout


def _median(command: list[str], env: dict[str, str]) -> str:
    runs = [_timed(command, env) for _ in range(3)]
    wall = statistics.median(run[0] for run in runs)
    cpu = statistics.median(run[1] for run in runs)
    return f"{wall:6.2f} s ({cpu:.2f} s CPU)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=24)
    args = parser.parse_args(argv)
    linewise = [sys.executable, "-c", "import sys; from linewise.cli import main; sys.exit(main())"]
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        site, home, cache = root / "site", root / "home", root / "cache"
        _install(site)
        size = _sessions(home, args.sessions, args.seed)
        env = {
            **{key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"},
            "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]),
            "HOME": str(home),
            "LINEWISE_CACHE_DIR": str(cache),
        }
        cold, cold_cpu, out = _timed([*linewise, "usage", "--json"], env)
        totals = json.loads(out)["totals"]
        assert totals["sessions"] == args.sessions, f"{totals['sessions']} of {args.sessions}"
        print(f"sessions: {args.sessions:,} ({size / 1e6:.1f} MB)")
        print(
            f"totals: {totals['totalTokens']:,} tokens, ${totals['costUsd']:,.2f} "
            f"({totals['costSource']}; {totals['sessionsWithUnknownCost']} sessions' cost unknown)"
        )
        print(f"{'cold `linewise usage --json`:':40}{cold:6.2f} s ({cold_cpu:.2f} s CPU)")
        for report in (["daily"], ["model"], ["session", "--json"], ["blocks"]):
            label = f"warm `linewise usage {' '.join(report)}`:"
            print(f"{label:40}{_median([*linewise, 'usage', *report], env)}")
        print(f"{'`linewise list` (start-up):':40}{_median([*linewise, 'list'], env)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
