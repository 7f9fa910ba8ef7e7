"""Benchmark: instructions per line of `linewise render --format jsonl`, counted by cachegrind.

Wall times on a shared machine move with its load; instruction counts do not.
For each workload of benchmarks/reference_bench.py (the same generated lines),
this runs the install's `linewise render -f jsonl` under `valgrind
--tool=cachegrind --cache-sim=no` twice: on the first ``--lines`` lines of the
workload and on its first ``--lines // 10``. The difference in instructions
executed, divided by the difference in lines, is the cost of one line with
start-up taken out; the small run's count is printed too (start-up plus its
lines). One process per count, run once: cachegrind counts are repeatable to
well under 1%.

Time it against a pip-installed venv, as users install it (the editable
development venv recompiles each run): `--venv` takes one made by
reference_bench.py's way (`python3 -m venv V && V/bin/pip install ./contracts
./host ./plugins/*/`, with LINEWISE_PURE_PYTHON=1 for the pure one).

Run with `python3 -m uv run --locked python benchmarks/line_cost.py --venv V`.
Skips with a message when valgrind is missing.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
# reference_bench.py's workload names (its --generate takes them), each with its CLI.
WORKLOADS = {
    "claude big lines": "claude",
    "claude small lines": "claude",
    "codex small lines": "codex",
    "claude real logs": "claude",
    "codex real logs": "codex",
}
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def instructions(venv: Path, path: Path, cli: str) -> int:
    """Instructions cachegrind counted for one `linewise render` of ``path`` (all processes)."""
    done = subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
            str(venv / "bin" / "python"),
            str(venv / "bin" / "linewise"),
            "render",
            str(path),
            "-a",
            f"{cli}_local",
            "-f",
            "jsonl",
            "--color",
            "never",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=True,
    )
    found = _REFS.search(done.stderr)
    if found is None:
        raise RuntimeError(f"cachegrind printed no instruction count:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def _workload(name: str, path: Path, megabytes: float) -> list[str] | None:
    made = subprocess.run(
        [
            sys.executable,
            str(HERE / "reference_bench.py"),
            "--generate",
            name,
            str(path),
            "--megabytes",
            str(megabytes),
        ],
        check=False,
    )
    if made.returncode != 0:
        return None
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--venv", type=Path, required=True, help="a pip-installed venv")
    options.add_argument("--lines", type=int, default=2000, help="lines of the large run")
    options.add_argument("--only", action="append", choices=sorted(WORKLOADS), help="workload")
    args = options.parse_args()
    if shutil.which("valgrind") is None:
        print("skipped: valgrind is needed to count instructions")
        return
    small_lines = max(1, args.lines // 10)
    load = subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout
    print(f"load (does not change the counts): {load.strip()}")
    print(f"{'workload':20s} {'instr/line':>11s} {'lines':>6s} {'small run':>14s}")
    with tempfile.TemporaryDirectory(prefix="linewise-linecost-") as folder:
        work = Path(folder)
        for name in args.only or list(WORKLOADS):
            cli = WORKLOADS[name]
            # Enough bytes for the large run; real-log workloads are read from the corpus.
            lines = _workload(name, work / "all.jsonl", 4.0)
            if lines is None:
                print(f"{name:20s} skipped: no data")
                continue
            count = min(args.lines, len(lines))
            if count <= small_lines:
                print(f"{name:20s} skipped: only {len(lines)} lines")
                continue
            large, small = work / "large.jsonl", work / "small.jsonl"
            large.write_text("\n".join(lines[:count]) + "\n", encoding="utf-8")
            small.write_text("\n".join(lines[:small_lines]) + "\n", encoding="utf-8")
            big_count = instructions(args.venv, large, cli)
            small_count = instructions(args.venv, small, cli)
            per_line = (big_count - small_count) / (count - small_lines)
            print(f"{name:20s} {per_line:11,.0f} {count:6d} {small_count:14,d}", flush=True)


if __name__ == "__main__":
    main()
