"""A JavaScript ui-parser in linewise's engine against a Python parser and against Node, per line.

Run with
`python3 -m uv run python benchmarks/javascript_bench.py PACKAGE PYTHON_TYPE LOG [LOG...]`:
PACKAGE is a ui-parser package (folder or .tgz, e.g. one `npm pack` made),
PYTHON_TYPE the installed adapter type of the same format (e.g. hermes_local,
claude_local), LOG the agent output to parse. It prints microseconds per line
for the JavaScript parser in QuickJS (one context, as one transcript), for the
Python parser, and for Node running the same module when node is installed;
plus a toy parser in both languages (the cost of crossing the boundary) and
the time to start a context. Nothing is registered or kept.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from linewise.plugins.javascript._engine import EngineLimits, JavaScriptParser, start_context
from linewise.plugins.javascript._module import read_module
from linewise.plugins.javascript._package import open_package
from linewise.plugins.registry import Registry

TS = "2026-01-01T00:00:00.000Z"
TOY = "export function parseStdoutLine(line, ts) { return [{ kind: 'stdout', ts, text: line }]; }"
NODE_TIMER = r"""
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";
const [file, linesFile] = process.argv.slice(2);
const mod = file.endsWith(".cjs")
  ? createRequire(import.meta.url)(file) : await import(pathToFileURL(file).href);
const lines = JSON.parse(readFileSync(linesFile, "utf8"));
const parser = typeof mod.createStdoutParser === "function" ? mod.createStdoutParser()
  : { parseLine: (l, ts) => mod.parseStdoutLine(l, ts) };
for (const line of lines.slice(0, 200)) parser.parseLine(line, "T");  // warm up
const start = process.hrtime.bigint();
for (const line of lines) JSON.stringify(parser.parseLine(line, "T"));
console.log(Number(process.hrtime.bigint() - start) / 1000 / lines.length);
"""


def _per_line(parse: Callable[[str, str], Any], lines: list[str], rounds: int = 3) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for line in lines:
            parse(line, TS)
        best = min(best, time.perf_counter() - start)
    return best / len(lines) * 1e6


def _node(module_file: Path, lines: list[str]) -> float | None:
    node = shutil.which("node")
    if node is None:
        return None
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "timer.mjs"
        script.write_text(NODE_TIMER, encoding="utf-8")
        data = Path(folder) / "lines.json"
        data.write_text(json.dumps(lines), encoding="utf-8")
        copy = Path(folder) / module_file.name
        copy.write_bytes(module_file.read_bytes())
        done = subprocess.run(
            [node, str(script), str(copy), str(data)],
            capture_output=True,
            text=True,
            check=True,
        )
    return float(done.stdout.strip())


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    package_path, python_type, *logs = argv
    lines = [
        line.strip()
        for log in logs
        for line in Path(log).read_text(encoding="utf-8", errors="replace").splitlines()
        if line.strip()
    ]
    package = open_package(package_path)
    module = read_module(package.module_source, package.module_path)
    limits = EngineLimits()
    started = time.perf_counter()
    start_context(module, limits)
    start_ms = (time.perf_counter() - started) * 1000
    javascript = JavaScriptParser(module, limits)
    python = Registry().load(python_type).new_parser()
    toy_js = JavaScriptParser(read_module(TOY, "toy.js"), limits)

    def toy_py(line: str, ts: str) -> list[dict[str, str]]:
        return [{"kind": "stdout", "ts": ts, "text": line}]

    print(f"{len(lines)} lines from {len(logs)} logs; {package.name} {package.version}")
    print(f"context start (module evaluated, parser made): {start_ms:.2f} ms")
    print(f"JavaScript in QuickJS   {_per_line(javascript.parse_line, lines):8.1f} µs/line")
    print(f"Python {python_type:<16} {_per_line(python.parse_line, lines):8.1f} µs/line")
    with tempfile.TemporaryDirectory() as folder:
        module_file = Path(folder) / Path(package.module_path).name
        module_file.write_text(package.module_source, encoding="utf-8")
        node = _node(module_file, lines)
    if node is not None:
        print(f"JavaScript in Node      {node:8.1f} µs/line (JIT, same module)")
    print(f"toy parser, QuickJS     {_per_line(toy_js.parse_line, lines):8.1f} µs/line")
    print(f"toy parser, Python      {_per_line(toy_py, lines):8.1f} µs/line")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
