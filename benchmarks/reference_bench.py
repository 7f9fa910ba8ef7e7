"""Benchmark: linewise against the reference TypeScript parsers under Node, as whole processes.

At run time this packs Paperclip's published adapter packages
(@paperclipai/adapter-claude-local, @paperclipai/adapter-codex-local and the
@paperclipai/adapter-utils they import) with `npm pack` into a temporary
directory, bundles their UI parsers with a small driver using esbuild from npm,
and times, interleaved over several rounds, `node driver` (parse + JSON.stringify
of each entry, output written in 1 MiB blocks) against `linewise render
--format jsonl` on the same files. Nothing of theirs is kept. It reports the
median ratio per workload (above 1: linewise is faster) of the wall times and,
beside it, of the CPU times (user + system of every thread: what a loaded
machine's waiting for a core does not change), start-up on a three-line log
(with `-a claude_local`, and without: detecting, as a user types it),
`linewise list`, and the peak memory of both on the largest workload.

Beside them it times a floor: the least any Python parser of these lines
does (read, cut lines, orjson-decode each, encode one small entry, write; no
parsing, no checks), under the same Python, and `python -c "import orjson"`
for start-up. Node's time over the floor's is the best ratio a Python parser
can reach on that workload and machine.

linewise is timed as users install it (the README's "Installing"): two fresh
venvs, each made with `python3 -m venv` and filled by plain pip with `pip
install ./contracts ./host ./plugins/*/` from this checkout, in pip's isolated
builds. One is compiled (the wheels' mypyc-compiled hot modules, where a C
compiler works; each install's `linewise --version` is printed first, saying
which modules are compiled or why not), the other pure Python (the same
command with LINEWISE_PURE_PYTHON=1). `--pure-only` skips the compiled one;
`--compiled-venv` and `--pure-venv` reuse venvs built that way before. The
machine's load (`uptime`) is printed before and after.

Run with `python3 -m uv run --locked python benchmarks/reference_bench.py`
(`--rounds 3 --megabytes 5` for a quick look). The real-log workloads read
../shared/corpus/real-logs, or $LINEWISE_CORPUS/real-logs when that is set.
Skips with a message when node or npm is missing or the registry is out of reach.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# LINEWISE_CORPUS points elsewhere (a git worktree has no ../shared beside it).
CORPUS = (
    Path(os.environ.get("LINEWISE_CORPUS") or HERE.parent.parent / "shared" / "corpus")
    / "real-logs"
)
PACKAGES = ("@paperclipai/adapter-claude-local", "@paperclipai/adapter-codex-local")

_DRIVER = """
import { parseClaudeStdoutLine } from "./claude/dist/ui/parse-stdout.js";
import { parseCodexStdoutLine } from "./codex/dist/ui/parse-stdout.js";
import { readFileSync, writeSync } from "node:fs";
const parse = process.argv[2] === "codex" ? parseCodexStdoutLine : parseClaudeStdoutLine;
const text = readFileSync(process.argv[3], "utf8");
const ts = new Date().toISOString();
let out = [];
let size = 0;
for (const raw of text.split(/\\r?\\n/)) {
  const line = raw.trim();
  if (!line) continue;
  for (const entry of parse(line, ts)) {
    const s = JSON.stringify(entry) + "\\n";
    out.push(s);
    size += s.length;
  }
  if (size > 1048576) { writeSync(1, out.join("")); out = []; size = 0; }
}
writeSync(1, out.join(""));
"""


#: The least any Python parser of these lines does, with no parsing at all: read in
#: 64 KiB blocks, cut lines (a partial line carried over), strip, decode each with orjson
#: (the fastest JSON decoder linewise has), make one three-key entry, encode it and write
#: it to a buffered stdout. Timed beside linewise as "floor": a Python parser cannot be
#: faster than this loop, so Node's time over the floor's bounds what any ratio can reach.
_FLOOR = """
import sys, orjson
loads, dumps, newline = orjson.loads, orjson.dumps, orjson.OPT_APPEND_NEWLINE
write = sys.stdout.buffer.write
ts = "2026-01-01T00:00:00.000Z"
rest = b""
with open(sys.argv[1], "rb") as source:
    while block := source.read(65536):
        lines = (rest + block).split(b"\\n")
        rest = lines.pop()
        for raw in lines:
            line = raw.decode().strip()
            if not line:
                continue
            try:
                event = loads(line)
            except orjson.JSONDecodeError:
                event = None
            kind = event.get("type") if type(event) is dict else None
            write(dumps({"kind": "stdout", "ts": ts, "text": str(kind)}, option=newline))
"""


def _npm(args: list[str], cwd: Path) -> str:
    done = subprocess.run(
        ["npm", *args], cwd=cwd, capture_output=True, text=True, timeout=300, check=True
    )
    return done.stdout


def _unpack(tarball: Path, target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["tar", "xzf", str(tarball), "-C", str(target), "--strip-components=1"], check=True
    )


def build_reference(work: Path) -> Path:
    """Pack the reference parsers and bundle them with a driver; returns the bundle path."""
    names = _npm(["pack", *PACKAGES], work).split()
    claude, codex = (work / name for name in names[-2:])
    _unpack(claude, work / "claude")
    _unpack(codex, work / "codex")
    manifest = json.loads((work / "claude" / "package.json").read_text())
    utils = f"@paperclipai/adapter-utils@{manifest['dependencies']['@paperclipai/adapter-utils']}"
    _npm(["install", "--no-save", "--no-audit", "--no-fund", "esbuild"], work)
    utils_tgz = work / _npm(["pack", utils], work).split()[-1]
    _unpack(utils_tgz, work / "node_modules" / "@paperclipai" / "adapter-utils")
    (work / "driver.mjs").write_text(_DRIVER)
    bundle = work / "driver.bundle.mjs"
    subprocess.run(
        [
            str(work / "node_modules" / ".bin" / "esbuild"),
            "driver.mjs",
            "--bundle",
            "--platform=node",
            "--format=esm",
            f"--outfile={bundle.name}",
        ],
        cwd=work,
        check=True,
        capture_output=True,
    )
    print(f"reference: {claude.name}, {codex.name}, {utils_tgz.name}")
    return bundle


# -- workloads --------------------------------------------------------------------


def _words(rng: random.Random, count: int) -> str:
    vocabulary = ["the", "file", "test", "value", "error", "fix", "module", "return", "read"]
    return " ".join(rng.choice(vocabulary) for _ in range(count))


def claude_small(lines: int, rng: random.Random) -> list[str]:
    """Short Claude events: text replies, small tool calls and one-line results."""
    out = [
        json.dumps(
            {
                "type": "system",
                "subtype": "init",
                "model": "claude-sonnet-4-6",
                "session_id": "s-1",
                "tools": ["Bash"],
            }
        )
    ]
    for index in range(lines):
        ident = f"toolu_{index}"
        if index % 3 == 0:
            content: list[dict[str, object]] = [{"type": "text", "text": _words(rng, 8)}]
            out.append(
                json.dumps(
                    {
                        "type": "assistant",
                        "message": {"id": f"m{index}", "content": content},
                        "session_id": "s-1",
                    }
                )
            )
        elif index % 3 == 1:
            block = {
                "type": "tool_use",
                "id": ident,
                "name": "Bash",
                "input": {"command": _words(rng, 4)},
            }
            out.append(
                json.dumps(
                    {
                        "type": "assistant",
                        "message": {"id": f"m{index}", "content": [block]},
                        "session_id": "s-1",
                    }
                )
            )
        else:
            block = {
                "type": "tool_result",
                "tool_use_id": f"toolu_{index - 1}",
                "content": _words(rng, 6),
                "is_error": False,
            }
            out.append(
                json.dumps({"type": "user", "message": {"content": [block]}, "session_id": "s-1"})
            )
    return out


def claude_big(lines: int, rng: random.Random) -> list[str]:
    sys.path.insert(0, str(HERE))
    from host_bench import claude_workload

    return claude_workload(lines, seed=rng.randint(0, 1000))


def codex_small(lines: int, rng: random.Random) -> list[str]:
    """Short `codex exec --json` events: messages, commands and their completions."""
    out = [
        json.dumps({"type": "thread.started", "thread_id": "t-1"}),
        json.dumps({"type": "turn.started"}),
    ]
    for index in range(lines):
        item = f"item_{index}"
        kind = index % 3
        if kind == 0:
            event = {
                "type": "item.completed",
                "item": {"id": item, "type": "agent_message", "text": _words(rng, 10)},
            }
        elif kind == 1:
            event = {
                "type": "item.started",
                "item": {
                    "id": item,
                    "type": "command_execution",
                    "command": _words(rng, 4),
                    "aggregated_output": "",
                    "status": "in_progress",
                },
            }
        else:
            event = {
                "type": "item.completed",
                "item": {
                    "id": f"item_{index - 1}",
                    "type": "command_execution",
                    "command": _words(rng, 4),
                    "aggregated_output": _words(rng, 12),
                    "exit_code": 0,
                    "status": "completed",
                },
            }
        out.append(json.dumps(event))
    out.append(
        json.dumps(
            {
                "type": "turn.completed",
                "usage": {"input_tokens": 10, "cached_input_tokens": 5, "output_tokens": 3},
            }
        )
    )
    return out


def real(cli: str, target_bytes: int) -> list[str] | None:
    folder = CORPUS / cli
    if not folder.is_dir():
        return None
    lines = [
        line
        for path in sorted(folder.glob("*.json*"))
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
        if line.strip()
    ]
    out: list[str] = []
    size = 0
    while size < target_bytes and lines:
        out.extend(lines)
        size += sum(len(line) + 1 for line in lines)
    return out


# -- timing -------------------------------------------------------------------------


def _time(command: list[str]) -> tuple[float, int, float]:
    """Wall seconds, peak RSS (KiB) and CPU seconds (user + system, every thread) of one
    process run, output discarded. On a loaded machine the wall time mostly waits for a
    core; the CPU time says what the work itself cost.

    Linux keeps the parent's peak RSS in a child's across fork and exec, so the
    workloads are written by a separate process and this one stays small.
    """
    environ = dict(os.environ)
    environ.pop("PYTHONPATH", None)
    start = time.perf_counter()
    with open(os.devnull, "wb") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.PIPE, env=environ)
        _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if status != 0:
        raise SystemExit(
            f"{command[0]} failed: {process.stderr.read().decode()[:400] if process.stderr else ''}"
        )
    return elapsed, usage.ru_maxrss, usage.ru_utime + usage.ru_stime


def compare(
    name: str, path: Path, cli: str, bundle: Path, *, rounds: int, installs: dict[str, Path]
) -> dict[str, float]:
    """Node, each linewise install ({label: venv}) and the floor (:data:`_FLOOR`, under the
    last install's Python), interleaved round by round."""
    runs = {"node": ["node", str(bundle), cli, str(path)]}
    last = list(installs.values())[-1]
    runs["floor"] = [str(last / "bin" / "python"), "-c", _FLOOR, str(path)]
    for label, venv in installs.items():
        runs[label] = [
            str(venv / "bin" / "linewise"),
            "render",
            str(path),
            "-a",
            f"{cli}_local",
            "-f",
            "jsonl",
            "--color",
            "never",
        ]
    times: dict[str, list[float]] = {label: [] for label in runs}
    cpu: dict[str, list[float]] = {label: [] for label in runs}
    peaks: dict[str, int] = dict.fromkeys(runs, 0)
    for _ in range(rounds):
        for label, command in runs.items():
            seconds, rss, used = _time(command)
            times[label].append(seconds)
            cpu[label].append(used)
            peaks[label] = max(peaks[label], rss)
    mb = path.stat().st_size / 1e6
    row = {"MB": mb}
    text = [f"{name:20s} {mb:5.1f} MB  node {statistics.median(times['node']):5.2f}s"]
    for label in [*installs, "floor"]:
        ratios = [n / o for n, o in zip(times["node"], times[label], strict=True)]
        cpu_ratios = [n / o for n, o in zip(cpu["node"], cpu[label], strict=True)]
        row[f"{label}_s"] = statistics.median(times[label])
        row[f"{label}_ratio"] = statistics.median(ratios)
        row[f"{label}_cpu_ratio"] = statistics.median(cpu_ratios)
        text.append(
            f"{label} {row[f'{label}_s']:5.2f}s {row[f'{label}_ratio']:.2f}x"
            f" (cpu {row[f'{label}_cpu_ratio']:.2f}x)"
        )
    peak = ", ".join(f"{label} {kib / 1024:.0f}" for label, kib in peaks.items())
    print("  ".join(text) + f"  (peak MiB: {peak})", flush=True)
    return row


def startup(bundle: Path, work: Path, rounds: int, installs: dict[str, Path]) -> None:
    # Three lines, the fewest from which Claude's sniff is sure (one init line scores 0.40:
    # undetected, a render then asks every session store whether the file is one of theirs).
    one = work / "short.jsonl"
    text = [{"type": "text", "text": "hi"}]
    usage = {"input_tokens": 3, "output_tokens": 1}
    events = [
        {"type": "system", "subtype": "init", "model": "m", "session_id": "s", "tools": ["Bash"]},
        {"type": "assistant", "message": {"id": "m1", "content": text}, "session_id": "s"},
        {
            "type": "result",
            "subtype": "success",
            "is_error": False,
            "result": "hi",
            "session_id": "s",
            "total_cost_usd": 0.01,
            "usage": usage,
        },
    ]
    one.write_text("".join(json.dumps(event) + "\n" for event in events))
    runs = {"node": ["node", str(bundle), "claude", str(one)]}
    # The floor of a Python start-up: the interpreter, its site and orjson, nothing else.
    last = list(installs.values())[-1]
    runs["floor"] = [str(last / "bin" / "python"), "-c", "import orjson"]
    for label, venv in installs.items():
        runs[label] = [str(venv / "bin" / "linewise"), "render", str(one), "-a", "claude_local"]
        runs[label] += ["-f", "jsonl"]
        # Without -a, as a user types it: every installed format's sniff is asked first.
        runs[f"{label} detecting"] = [*runs[label][:3], "-f", "jsonl"]
    first = next(iter(installs.values()))
    runs["list"] = [str(first / "bin" / "linewise"), "list"]
    times: dict[str, list[float]] = {label: [] for label in runs}
    cpu: dict[str, list[float]] = {label: [] for label in runs}
    for _ in range(rounds):
        for label, command in runs.items():
            seconds, _, used = _time(command)
            times[label].append(seconds)
            cpu[label].append(used)
    median = {label: statistics.median(values) * 1000 for label, values in times.items()}
    cpu_ms = {label: statistics.median(values) * 1000 for label, values in cpu.items()}
    text = [f"start-up, a three-line log: node {median['node']:.0f} ms (cpu {cpu_ms['node']:.0f})"]
    for label in [name for each in installs for name in (each, f"{each} detecting")]:
        text.append(
            f"{label} {median[label]:.0f} ms ({median[label] / median['node']:.2f}x node;"
            f" cpu {cpu_ms[label]:.0f} ms, {cpu_ms[label] / cpu_ms['node']:.2f}x)"
        )
    text.append(f"floor (python -c 'import orjson') {median['floor']:.0f} ms")
    print(", ".join(text) + f"; linewise list {median['list']:.0f} ms", flush=True)


WORKLOADS = {
    "claude big lines": ("claude", claude_big),
    "claude small lines": ("claude", claude_small),
    "codex small lines": ("codex", codex_small),
}


def generate(name: str, path: Path, target: int) -> bool:
    """Write one workload of about ``target`` bytes to ``path``; False when it has no data."""
    rng = random.Random(11)
    if name in WORKLOADS:
        make = WORKLOADS[name][1]
        sample = make(2000, rng)
        per_line = sum(len(line) + 1 for line in sample) / len(sample)
        lines: list[str] | None = make(max(100, int(target / per_line)), rng)
    else:
        lines = real(name.split(maxsplit=1)[0], target)
    if lines is None:
        return False
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return True


def user_install(venv: Path, *, pure: bool) -> Path:
    """A fresh venv with the first-party distributions, installed by plain pip as the README says."""
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    environ = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    if pure:
        environ["LINEWISE_PURE_PYTHON"] = "1"
    folders = [
        "./contracts",
        "./host",
        *sorted(
            f"./{p.parent.name}/{p.name}/"
            for p in (HERE.parent / "plugins").iterdir()
            if (p / "pyproject.toml").is_file()
        ),
    ]
    print(f"building {'pure' if pure else 'compiled'}: pip install {' '.join(folders)}", flush=True)
    subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", *folders],
        cwd=HERE.parent,
        env=environ,
        check=True,
    )
    return venv


def hot_path(venv: Path) -> str:
    """What `linewise --version` says of the install's hot path, one distribution per line."""
    done = subprocess.run(
        [str(venv / "bin" / "linewise"), "--version"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def _load() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--rounds", type=int, default=5)
    options.add_argument("--megabytes", type=float, default=20.0, help="size of each workload")
    options.add_argument(
        "--pure-only", action="store_true", help="do not build and time the compiled install"
    )
    options.add_argument("--compiled-venv", type=Path, help="a compiled install made before")
    options.add_argument("--pure-venv", type=Path, help="a pure-Python install made before")
    options.add_argument("--generate", nargs=2, metavar=("NAME", "PATH"), help=argparse.SUPPRESS)
    args = options.parse_args()
    target = int(args.megabytes * 1e6)
    if args.generate:
        name, path = args.generate
        raise SystemExit(0 if generate(name, Path(path), target) else 3)
    if shutil.which("node") is None or shutil.which("npm") is None:
        print("skipped: node and npm are needed for the reference parsers")
        return
    os.environ.pop(
        "PYTHONDONTWRITEBYTECODE", None
    )  # start-up with cached bytecode, as users have it
    with tempfile.TemporaryDirectory(prefix="linewise-refbench-") as folder:
        work = Path(folder)
        try:
            bundle = build_reference(work)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as error:
            print(f"skipped: could not fetch or bundle the reference parsers ({error})")
            return
        installs: dict[str, Path] = {}
        installs["pure"] = args.pure_venv or user_install(work / "pure", pure=True)
        if not args.pure_only:
            installs["compiled"] = args.compiled_venv or user_install(work / "compiled", pure=False)
        for label, venv in installs.items():
            print(f"{label} install ({venv}):\n{hot_path(venv)}")
        print(f"load before: {_load()}", flush=True)
        names = [*WORKLOADS, "claude real logs", "codex real logs"]
        for name in names:
            path = work / f"{name.replace(' ', '-')}.jsonl"
            made = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--generate",
                    name,
                    str(path),
                    "--megabytes",
                    str(args.megabytes),
                ],
                check=False,
            )
            if made.returncode == 3:
                print(f"{name:22s} skipped: no corpus at {CORPUS}")
                continue
            if made.returncode != 0:
                raise SystemExit(f"{name}: writing the workload failed (see above)")
            compare(name, path, name.split()[0], bundle, rounds=args.rounds, installs=installs)
        startup(bundle, work, args.rounds * 2, installs)
        print(f"load after: {_load()}")


if __name__ == "__main__":
    main()
