"""Benchmark: peak memory of `linewise render` by workload, format and log size (it should be flat).

For each workload (the generated Claude big-line, Claude small-line and Codex
small-line logs of reference_bench.py, and the real logs of each CLI in the
corpus concatenated) and each size, a log is written to a temporary folder by
a separate process, then `linewise render LOG -f FORMAT -q --color never` runs
as a process of its own and its peak RSS (``os.wait4``'s ``ru_maxrss``) and
time are reported; the log is deleted at once. Memory is flat when the peak
hardly changes from the smallest size to the largest: the last column is that
growth.

The generated workloads are one long session: blocks of lines with their ids
renumbered so none repeats, the closing event (Claude's result, Codex's
turn.completed) written once at the end, as a run that never finishes until
the log does. That is where state kept per message, per call or per line
would grow with the log.

Run with `python3 -m uv run --locked python benchmarks/memory_bench.py`
(`--sizes 100 400` in MB by default; `--sizes 1000 --workloads "claude big lines"`
for a 1 GB check; `--formats jsonl`). The real-log workloads read
../shared/corpus/real-logs, or $LINEWISE_CORPUS/real-logs when that is set.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

HERE = Path(__file__).resolve().parent
CORPUS = (
    Path(os.environ.get("LINEWISE_CORPUS") or HERE.parent.parent / "shared" / "corpus")
    / "real-logs"
)
GENERATED = ("claude big lines", "claude small lines", "codex small lines")
#: Lines generated per block; each block's ids are renumbered so they never repeat.
BLOCK_LINES = 2000
#: Ids the generators number (tool calls, messages, items): made unique per block.
_IDS = re.compile(r'"(toolu_|msg_|m|item_)(\d+)"')
#: Closing events kept for the end of the log only: one run, one session.
_CLOSING = ('"type": "result"', '"type": "turn.completed"')


def _generator(name: str) -> Callable[[int, random.Random], list[str]]:
    sys.path.insert(0, str(HERE))
    import reference_bench

    makers: dict[str, Callable[[int, random.Random], list[str]]] = {
        "claude big lines": reference_bench.claude_big,
        "claude small lines": reference_bench.claude_small,
        "codex small lines": reference_bench.codex_small,
    }
    return makers[name]


def _renumbered(lines: list[str], block: int) -> list[str]:
    """``lines`` with their ids made those of block ``block`` (``toolu_7`` -> ``toolu_b3_7``)."""
    prefix = f"b{block}_"

    def rename(match: re.Match[str]) -> str:
        return f'"{match[1]}{prefix}{match[2]}"'

    return [_IDS.sub(rename, line) for line in lines]


def _write_generated(name: str, out: TextIO, target: int) -> None:
    """One long run of ``name``: blocks of lines, the opening events once, the closing at the end."""
    make = _generator(name)
    rng = random.Random(11)
    opening = 2 if name.startswith("codex") else 1
    closing: list[str] = []
    size = block = 0
    while size < target:
        lines = make(BLOCK_LINES, rng)
        closing = [line for line in lines if _closes(line)]
        body = [line for line in lines if not _closes(line)]
        text = "".join(f"{line}\n" for line in _renumbered(body[opening if block else 0 :], block))
        out.write(text)
        size += len(text)
        block += 1
    out.write("".join(f"{line}\n" for line in closing))


def _closes(line: str) -> bool:
    return any(marker in line[:40] for marker in _CLOSING)


def _real_logs(cli: str) -> list[Path]:
    folder = CORPUS / cli
    if not folder.is_dir():
        return []
    return [path for path in sorted(folder.iterdir()) if path.is_file() and path.suffix != ".md"]


def generate(name: str, path: Path, target: int) -> bool:
    """Write the workload ``name`` of about ``target`` bytes to ``path``; False without data."""
    if name in GENERATED:
        with open(path, "w", encoding="utf-8") as out:
            _write_generated(name, out, target)
        return True
    logs = _real_logs(name.split(maxsplit=1)[0])
    if not logs:
        return False
    lines = [line for log in logs for line in log.read_text("utf-8", errors="replace").splitlines()]
    text = "".join(f"{line}\n" for line in lines)
    with open(path, "w", encoding="utf-8") as out:
        for _ in range(max(1, -(-target // len(text)))):
            out.write(text)
    return True


def workloads() -> list[str]:
    real = (
        sorted(f"{folder.name} real logs" for folder in CORPUS.iterdir() if _real_logs(folder.name))
        if CORPUS.is_dir()
        else []
    )
    return [*GENERATED, *real]


def _linewise() -> list[str]:
    found = Path(sys.executable).with_name("linewise")
    return [str(found)] if found.exists() else [sys.executable, "-m", "linewise"]


#: ``--formats`` names: the options of each.
FORMATS = {
    "jsonl": ["-f", "jsonl"],
    "text": ["-f", "text"],
    "compact": ["-f", "text", "--style", "compact"],
}


def measure(command: list[str]) -> tuple[float, float]:
    """Seconds and peak RSS (MiB) of one process, its output discarded."""
    # Cached bytecode, as users have it: compiling modules would weigh on the peak.
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    start = time.perf_counter()
    with open(os.devnull, "wb") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.PIPE, env=env)
        _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if status != 0:
        errors = process.stderr.read().decode(errors="replace") if process.stderr else ""
        raise SystemExit(f"{' '.join(command)} failed: {errors[-400:]}")
    return elapsed, usage.ru_maxrss / 1024


def warm_up(folder: Path, formats: list[str]) -> None:
    """One render of a short log per format first: every module's bytecode is then cached."""
    log = folder / "warm-up.jsonl"
    generate("claude small lines", log, 10_000)
    for fmt in formats:
        measure([*_linewise(), "render", str(log), *FORMATS[fmt], "-q"])
    log.unlink()


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--sizes", type=float, nargs="+", default=[100.0, 400.0], help="MB")
    options.add_argument(
        "--formats", nargs="+", choices=FORMATS, default=["jsonl", "text", "compact"]
    )
    options.add_argument("--workloads", nargs="+", help="names as listed (default: all)")
    options.add_argument("--adapter", default="auto", help="-a for render (default: auto)")
    options.add_argument("--folder", help="where logs are written (default: a temporary folder)")
    options.add_argument("--generate", nargs=2, metavar=("NAME", "PATH"), help=argparse.SUPPRESS)
    options.add_argument("--megabytes", type=float, help=argparse.SUPPRESS)
    args = options.parse_args()
    if args.generate:
        name, path = args.generate
        raise SystemExit(0 if generate(name, Path(path), int(args.megabytes * 1e6)) else 3)
    names = args.workloads or workloads()
    # Linux hands this process's peak RSS on to its children: it must stay below theirs.
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"this process: peak {own:.1f} MiB (the floor of every figure below)")
    header = "".join(f"{size:>12.0f} MB" for size in args.sizes)
    print(f"{'workload':22s} {'format':7s}{header}   growth  (peak RSS MiB; seconds)")
    with tempfile.TemporaryDirectory(prefix="linewise-memory-", dir=args.folder) as folder:
        warm_up(Path(folder), args.formats)
        for name in names:
            rows: dict[str, list[tuple[float, float]]] = {fmt: [] for fmt in args.formats}
            for size in args.sizes:
                log = Path(folder) / f"{name.replace(' ', '-')}-{size:g}.jsonl"
                made = subprocess.run(
                    [
                        sys.executable,
                        __file__,
                        "--generate",
                        name,
                        str(log),
                        "--megabytes",
                        str(size),
                    ],
                    check=False,
                )
                if made.returncode != 0:
                    print(f"{name:22s} skipped: no corpus at {CORPUS}")
                    break
                for fmt in args.formats:
                    command = [*_linewise(), "render", str(log), "-a", args.adapter, *FORMATS[fmt]]
                    rows[fmt].append(measure([*command, "-q", "--color", "never"]))
                log.unlink()
            for fmt, figures in rows.items():
                if len(figures) != len(args.sizes):
                    continue
                cells = "".join(f"{rss:7.1f} ({seconds:5.1f}s)" for seconds, rss in figures)
                growth = figures[-1][1] - figures[0][1]
                print(f"{name:22s} {fmt:7s} {cells}  {growth:+6.1f}", flush=True)
    if shutil.disk_usage(tempfile.gettempdir()).free < 2 * max(args.sizes) * 1e6:
        print("note: little disk left in the temporary folder for larger sizes")


if __name__ == "__main__":
    main()
