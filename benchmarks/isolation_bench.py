"""Benchmark: isolation mode's throughput against in-process parsing, on the Claude workload.

Run with `python3 -m uv run python benchmarks/isolation_bench.py`. The same
generated Claude stream-json (benchmarks/host_bench.py's workload) goes
through a session in-process and through one whose parser runs in a worker
(``Registry(isolate=...)``), interleaved round by round; the median ratio
isolated/in-process of lines per second is the figure issue 14 asks for
(target: at least 0.5). Worker start-up is timed apart, once per session.

The stream is fed in 64 KiB chunks, as `linewise render` reads a log; each
chunk's lines are one batch for the worker (``--chunk`` changes that, to see
what a batch costs apart from its lines). CPU time is counted per side, host
and worker (Linux /proc schedstat).
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
from linewise.plugins.isolation._parser import IsolatedParser

TS = "2026-01-01T00:00:00.000Z"


def _cpu(pid: int | str) -> float:
    """CPU seconds a process has run so far (Linux /proc/PID/schedstat, in nanoseconds)."""
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e9


def _worker_cpu() -> float:
    """CPU seconds used so far by the live isolated parsers' workers."""
    return sum(
        _cpu(thing.worker.pid)
        for thing in gc.get_objects()
        if isinstance(thing, IsolatedParser) and not thing.worker.dead
    )


def _run(registry: Registry, chunks: list[bytes], lines: int) -> tuple[float, float, float, float]:
    """Seconds to start the session and to feed every chunk; CPU seconds of host and worker."""
    loaded = registry.load("claude_local")
    assert not loaded.is_fallback, loaded.fallback_reason
    start = time.perf_counter()
    session = TranscriptSession(loaded)
    started = time.perf_counter()
    host, worker = _cpu("self"), _worker_cpu()
    for chunk in chunks:
        session.feed(chunk, TS)
    host, worker = _cpu("self") - host, _worker_cpu() - worker
    done = time.perf_counter()
    session.close()
    assert session.diagnostics.lines == lines, session.diagnostics.summary()
    assert session.diagnostics.clean, session.diagnostics.summary()
    return started - start, done - started, host, worker


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--chunk", type=int, default=64 * 1024, help="bytes fed at a time")
    args = parser.parse_args()
    lines = claude_workload(args.lines)
    data = ("\n".join(lines) + "\n").encode()
    size = args.chunk
    chunks = [data[start : start + size] for start in range(0, len(data), size)]
    inside = Registry()
    isolated = Registry(isolate="claude_local")
    assert isolated.load("claude_local").isolated
    load = os.getloadavg()[0]
    rounds = []
    for _ in range(args.repeats):
        _, local, local_cpu, _ = _run(inside, chunks, len(lines))
        spawn, remote, host_cpu, worker_cpu = _run(isolated, chunks, len(lines))
        rounds.append((local, remote, spawn, local_cpu, host_cpu, worker_cpu))
    local_s = min(r[0] for r in rounds)
    remote_s = min(r[1] for r in rounds)
    spawn_s = statistics.median(r[2] for r in rounds)
    ratio = statistics.median(r[0] / r[1] for r in rounds)
    print(f"workload: {len(lines)} lines, {len(data) / 1e6:.1f} MB of Claude stream-json")
    print(f"chunks  : {size} bytes, {len(lines) / len(chunks):.0f} lines per batch")
    print(f"in-process : {len(lines) / local_s:10.0f} lines/s")
    print(f"isolated   : {len(lines) / remote_s:10.0f} lines/s  ratio {ratio:.2f}x (target 0.5)")
    print(f"worker start: median {spawn_s * 1000:.0f} ms per session")

    def per_line(index: int) -> float:
        return statistics.median(r[index] for r in rounds) / len(lines) * 1e6

    print(
        f"CPU per line (median): in-process {per_line(3):.1f} us; "
        f"isolated host {per_line(4):.1f} + worker {per_line(5):.1f} us"
    )
    end = os.getloadavg()[0]
    print(
        f"load average: {load:.2f} at the start, {end:.2f} at the end (wall ratios need idle cores)"
    )


if __name__ == "__main__":
    main()
