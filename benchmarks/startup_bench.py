"""Benchmark: linewise start-up as whole processes, against Node and a bare entry-point scan.

Run with `python3 -m uv run --locked python benchmarks/startup_bench.py`. Each
comparison runs its commands interleaved, round after round, in one run, and
reports medians and the median ratio, because shared machines drift:

- `import linewise` over a bare interpreter (`python -c pass`);
- `linewise render` of a one-line Claude log against a trivial Node script
  that reads the same line, parses it and prints it again (skipped without node),
  and of a one-line plain-text log, which no sniffer recognises (the render then
  asks every installed format's session stores whether the file is one of theirs);
- `linewise render` of several logs (8 of 10 to 20 MB, the corpus's real Claude
  and Codex logs repeated) with one process (`--jobs 1`) and with one per core
  (the default), as JSON lines and as text;
- `linewise list` with 1,000 extra installed distributions (written to a
  temporary folder put on PYTHONPATH, and dated a minute back as an install
  that happened a while ago: the cache is not written for a folder changed
  within two seconds) against a bare
  `importlib.metadata.entry_points(group="linewise.parsers")`, with a cold
  entry-point cache (emptied before each run) and a warm one.

`--baseline PYTHON` runs every linewise command of the comparisons a second
time with another environment's interpreter (another checkout's
`.venv/bin/python`, say), in the same interleaved rounds, so a change is
measured against what it changes in one run.

Bytecode is cached as on a user's machine (PYTHONDONTWRITEBYTECODE is unset).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path

GROUP = "linewise.parsers"
NODE_SCRIPT = (
    "const fs = require('fs');"
    "const line = fs.readFileSync(process.argv[1], 'utf8').split('\\n')[0];"
    "process.stdout.write(JSON.stringify(JSON.parse(line)) + '\\n');"
)
BARE_SCAN = f"import importlib.metadata as m; m.entry_points(group={GROUP!r})"

Command = list[str]


def _linewise(python: str | None = None) -> Command:
    python = python or sys.executable
    found = Path(python).with_name("linewise")
    return [str(found)] if found.exists() else [python, "-m", "linewise"]


def _with_baseline(
    rows: dict[str, Command], baseline: str | None, ours: tuple[str, ...]
) -> dict[str, Command]:
    """``rows``, and after each of ``ours`` the same command run by ``baseline``'s linewise."""
    if baseline is None:
        return rows
    mine, theirs = _linewise(), _linewise(baseline)
    out: dict[str, Command] = {}
    for name, command in rows.items():
        out[name] = command
        if name in ours:
            swapped = [baseline if part == sys.executable else part for part in command]
            if swapped[: len(mine)] == mine:
                swapped = theirs + swapped[len(mine) :]
            out[f"baseline: {name}"] = swapped
    return out


def _run(command: Command, env: Mapping[str, str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system, the process and its children) of a run."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=dict(env)
    )
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    errors = process.stderr.read().decode(errors="replace") if process.stderr else ""
    if status != 0:
        raise RuntimeError(f"{' '.join(command[:3])} ... failed: {errors[-400:]}")
    return elapsed, usage.ru_utime + usage.ru_stime


def compare(
    rows: dict[str, Command],
    rounds: int,
    env: Mapping[str, str],
    before_each: Callable[[str], None] | None = None,
    cpu: dict[str, float] | None = None,
) -> dict[str, float]:
    """Median seconds of each command, run interleaved ``rounds`` times after one warm-up.

    ``cpu``, when given, receives each command's median CPU seconds.
    """
    times: dict[str, list[float]] = {name: [] for name in rows}
    cpu_times: dict[str, list[float]] = {name: [] for name in rows}
    for round_ in range(rounds + 1):
        for name, command in rows.items():
            if before_each is not None:
                before_each(name)
            seconds, cpu_seconds = _run(command, env)
            if round_:
                times[name].append(seconds)
                cpu_times[name].append(cpu_seconds)
    if cpu is not None:
        cpu.update({name: statistics.median(values) for name, values in cpu_times.items()})
    return {name: statistics.median(values) for name, values in times.items()}


def show(title: str, medians: dict[str, float], base: str) -> None:
    print(title)
    for name, seconds in medians.items():
        ratio = seconds / medians[base]
        print(f"  {name:42s} {seconds * 1000:7.1f} ms  {ratio:5.2f}x {base}")


def fake_distributions(root: Path, count: int) -> None:
    """``count`` installed-looking distributions; every other one has console scripts."""
    for index in range(count):
        info = root / f"fake_dist_{index}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: fake-dist-{index}\nVersion: 1.0\n"
            "Summary: a distribution that only takes space\n"
        )
        if index % 2 == 0:
            (info / "entry_points.txt").write_text(
                f"[console_scripts]\nfake-{index} = fake_dist_{index}.cli:main\n"
            )


def import_time(rounds: int, env: Mapping[str, str], baseline: str | None) -> None:
    rows = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "python -c 'import linewise'": [sys.executable, "-c", "import linewise"],
    }
    medians = compare(_with_baseline(rows, baseline, ("python -c 'import linewise'",)), rounds, env)
    show("import linewise", medians, "python -c pass")
    extra = medians["python -c 'import linewise'"] - medians["python -c pass"]
    print(f"  import linewise costs {extra * 1000:.1f} ms over a bare interpreter")


def one_line(work: Path, rounds: int, env: Mapping[str, str], baseline: str | None) -> None:
    if shutil.which("node") is None:
        print("one-line render: skipped, node is not installed")
        return
    one = work / "one.jsonl"
    event = {"type": "system", "subtype": "init", "model": "m", "session_id": "s"}
    one.write_text(json.dumps(event) + "\n")
    plain = work / "plain.log"
    plain.write_text("make: *** [all] Error 2, no agent CLI wrote this\n")
    render = [*_linewise(), "render", str(one)]
    rows = {
        "node (read, parse, print a line)": ["node", "-e", NODE_SCRIPT, str(one)],
        "linewise render (auto, text)": render,
        "linewise render -a claude_local -f jsonl": [*render, "-a", "claude_local", "-f", "jsonl"],
        "linewise render plain.log (no sniffer)": [*_linewise(), "render", str(plain)],
    }
    medians = compare(_with_baseline(rows, baseline, tuple(rows)[1:]), rounds, env)
    show("one-line render", medians, "node (read, parse, print a line)")


def _several_logs(work: Path, count: int) -> list[str]:
    """``count`` logs of 10 to 20 MB: the corpus's real Claude and Codex logs in turn, repeated
    (generated Claude lines without the corpus)."""
    corpus = (
        Path(
            os.environ.get("LINEWISE_CORPUS")
            or Path(__file__).resolve().parents[2] / "shared" / "corpus"
        )
        / "real-logs"
    )
    texts = []
    for cli in ("claude", "codex"):
        logs = sorted(path for path in (corpus / cli).glob("*.json*") if path.is_file())
        if logs:
            texts.append(
                "".join(path.read_text(encoding="utf-8", errors="replace") for path in logs)
            )
    if not texts:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from host_bench import claude_workload

        texts.append("\n".join(claude_workload(5000)) + "\n")
    paths = []
    for index in range(count):
        text = texts[index % len(texts)]
        target = 10_000_000 + 10_000_000 * index // max(1, count - 1)
        path = work / f"several-{index}.jsonl"
        path.write_text(text * max(1, target // len(text)), encoding="utf-8")
        paths.append(str(path))
    return paths


def several(work: Path, rounds: int, env: Mapping[str, str], count: int) -> None:
    """Several logs of 10 to 20 MB rendered with one process and with one per core (the
    default), as JSON lines and as text; the speed-up is what the pool is for."""
    logs = _several_logs(work, count)
    megabytes = sum(os.path.getsize(log) for log in logs) / 1e6
    for options in (["-f", "jsonl"], []):
        render = [*_linewise(), "render", *logs, *options, "-q"]
        cpu: dict[str, float] = {}
        try:
            medians = compare(
                {
                    "render --jobs 1": [*render, "--jobs", "1"],
                    "render (one process per core)": render,
                },
                max(3, rounds // 3),
                env,
                cpu=cpu,
            )
        except RuntimeError as error:
            print(f"render of several logs: skipped, this linewise cannot ({error})")
            return
        shown = " ".join(options) or "text"
        show(
            f"render {shown} of {count} logs, {megabytes:.0f} MB ({os.cpu_count()} cores)",
            medians,
            "render --jobs 1",
        )
        for name, seconds in medians.items():
            print(
                f"  {name:42s} CPU {cpu[name]:.2f} s over {seconds:.2f} s: {cpu[name] / seconds:.2f} cores busy"
            )
        speed_up = medians["render --jobs 1"] / medians["render (one process per core)"]
        print(f"  speed-up of the default over --jobs 1: {speed_up:.2f}x")


def _date_back(root: Path, seconds: float = 60) -> None:
    """Date a folder and everything in it ``seconds`` back (an install done a while ago)."""
    past = time.time() - seconds
    for folder, _, files in os.walk(root):
        for name in files:
            os.utime(os.path.join(folder, name), (past, past))
        os.utime(folder, (past, past))


def listing(
    work: Path, rounds: int, env: Mapping[str, str], count: int, baseline: str | None
) -> None:
    fakes = work / "fakes"
    fakes.mkdir()
    fake_distributions(fakes, count)
    _date_back(fakes)
    cache = work / "cache"
    with_fakes = {
        **env,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(fakes), env.get("PYTHONPATH")])),
        "LINEWISE_CACHE_DIR": str(cache),
    }
    listing = [*_linewise(), "list"]

    def empty_cache(name: str) -> None:
        if "linewise list (cold" in name:
            shutil.rmtree(cache, ignore_errors=True)

    rows = {
        "bare entry_points(group=...)": [sys.executable, "-c", BARE_SCAN],
        "linewise list (cold cache)": listing,
        "linewise list (warm cache)": listing,
    }
    if baseline is not None:
        # Each environment's warm run follows its own cold one, which wrote the cache it reads.
        theirs = [*_linewise(baseline), "list"]
        rows["baseline: linewise list (cold cache)"] = theirs
        rows["baseline: linewise list (warm cache)"] = theirs
    medians = compare(rows, rounds, with_fakes, before_each=empty_cache)
    # The warm run follows the cold one, which wrote the cache it reads.
    show(
        f"linewise list with {count:,} extra distributions", medians, "bare entry_points(group=...)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--distributions", type=int, default=1000)
    parser.add_argument("--logs", type=int, default=8, help="logs rendered together")
    parser.add_argument(
        "--sections",
        default="import,one-line,several,listing",
        help="the comparisons to run, comma-separated (default: all four)",
    )
    parser.add_argument(
        "--baseline",
        metavar="PYTHON",
        help="another environment's interpreter whose linewise runs in the same rounds",
    )
    args = parser.parse_args()
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory(prefix="linewise-startup-") as folder:
        work = Path(folder)
        env["LINEWISE_CACHE_DIR"] = str(work / "own-cache")
        sections = set(args.sections.split(","))
        if "import" in sections:
            import_time(args.rounds, env, args.baseline)
        if "one-line" in sections:
            one_line(work, args.rounds, env, args.baseline)
        if "several" in sections:
            several(work, args.rounds, env, args.logs)
        if "listing" in sections:
            listing(work, args.rounds, env, args.distributions, args.baseline)


if __name__ == "__main__":
    main()
