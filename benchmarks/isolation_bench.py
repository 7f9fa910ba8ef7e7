"""Benchmark: isolation mode's throughput against in-process parsing, on the Claude workload.

Run with `python3 -m uv run python benchmarks/isolation_bench.py`. The same
generated Claude stream-json (benchmarks/host_bench.py's workload) goes
through a session in-process and through one whose parser runs in a worker
(``Registry(isolate=...)``), interleaved round by round; the median ratio
isolated/in-process of lines per second is the figure issue 14 asks for
(target: at least 0.5). Worker start-up is timed apart, once per session.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from host_bench import claude_workload
from linewise import Registry, TranscriptSession
from linewise._isolation._parser import IsolatedParser

TS = "2026-01-01T00:00:00.000Z"


def _worker_cpu() -> float:
    """CPU seconds used so far by the live isolated parsers' workers (Linux /proc)."""
    total = 0.0
    for thing in gc.get_objects():
        if isinstance(thing, IsolatedParser) and not thing.worker.dead:
            fields = Path(f"/proc/{thing.worker.pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _run(registry: Registry, chunks: list[bytes], lines: int) -> tuple[float, float, float]:
    """(seconds to start the session, seconds to feed every chunk, CPU seconds of both sides)."""
    loaded = registry.load("claude_local")
    assert not loaded.is_fallback, loaded.fallback_reason
    start = time.perf_counter()
    session = TranscriptSession(loaded)
    started = time.perf_counter()
    cpu = time.process_time() - _worker_cpu()
    for chunk in chunks:
        session.feed(chunk, TS)
    cpu = time.process_time() + _worker_cpu() - cpu
    done = time.perf_counter()
    session.close()
    assert session.diagnostics.lines == lines, session.diagnostics.summary()
    assert session.diagnostics.clean, session.diagnostics.summary()
    return started - start, done - started, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    lines = claude_workload(args.lines)
    data = ("\n".join(lines) + "\n").encode()
    chunks = [data[start : start + 65536] for start in range(0, len(data), 65536)]
    inside = Registry()
    isolated = Registry(isolate="claude_local")
    assert isolated.load("claude_local").isolated
    rounds = []
    for _ in range(args.repeats):
        _, local, local_cpu = _run(inside, chunks, len(lines))
        spawn, remote, remote_cpu = _run(isolated, chunks, len(lines))
        rounds.append((local, remote, spawn, local_cpu, remote_cpu))
    local_s = min(r[0] for r in rounds)
    remote_s = min(r[1] for r in rounds)
    spawn_s = statistics.median(r[2] for r in rounds)
    ratio = statistics.median(r[0] / r[1] for r in rounds)
    print(f"workload: {len(lines)} lines, {len(data) / 1e6:.1f} MB of Claude stream-json")
    print(f"in-process : {len(lines) / local_s:10.0f} lines/s")
    print(f"isolated   : {len(lines) / remote_s:10.0f} lines/s  ratio {ratio:.2f}x (target 0.5)")
    print(f"worker start: median {spawn_s * 1000:.0f} ms per session")
    per_line = [(r[3] / len(lines) * 1e6, r[4] / len(lines) * 1e6) for r in rounds]
    print(
        f"CPU per line: in-process {statistics.median(p[0] for p in per_line):.1f} us, isolated host+worker {statistics.median(p[1] for p in per_line):.1f} us (median)"
    )
    print(f"load average at the end: {os.getloadavg()[0]:.2f} (wall ratios need two idle cores)")


if __name__ == "__main__":
    main()
