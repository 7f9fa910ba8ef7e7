"""Cost of redaction by content: linewise's detectors against detect-secrets, on the real
corpus and on hostile text.

Run with `python3 -m uv run --locked python benchmarks/redaction_bench.py`; with
detect-secrets importable (`pip install detect-secrets` in a scratch environment and
`--detect-secrets-python PATH/bin/python`), the same lines go through its scan_line
and its plugins one by one, so the choice made in linewise.render.redaction.detectors can be checked
again. Prints MB/s on the corpus lines (../shared/corpus real-logs and real-sessions,
read at run time), the slowest line, and seconds per hostile input (1e5 repeats of a
unit: a linear detector stays in milliseconds, a backtracking one takes seconds).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from linewise.render.redaction.detectors import find_secrets

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
HOSTILE = ["a", '"', "aws ", "password=", "a:", "http://", "Ab+/", "eyJ", "sk-", "token="]

_DETECT_SECRETS = r"""
import sys, time
from detect_secrets.core.scan import scan_line
from detect_secrets.settings import default_settings
from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
lines = open(sys.argv[1], encoding="utf-8", errors="replace").read().splitlines()
with default_settings():
    start = time.perf_counter(); worst = 0.0
    for line in lines:
        t = time.perf_counter(); list(scan_line(line)); worst = max(worst, time.perf_counter() - t)
    took = time.perf_counter() - start
print(f"detect-secrets scan_line: {sum(map(len, lines)) / took / 1e6:.2f} MB/s, slowest line {worst:.2f} s")
for kind, cls in get_mapping_from_secret_type_to_class().items():
    plugin = cls()
    for unit in %r:
        text = unit * (100000 // len(unit))
        t = time.perf_counter(); list(plugin.analyze_string(text)); took = time.perf_counter() - t
        if took > 0.5:
            print(f"detect-secrets {kind}: {took:.2f} s on {unit!r} x {len(text) // len(unit)}")
"""


def _lines() -> list[bytes]:
    lines: list[bytes] = []
    for folder in ("real-logs", "real-sessions"):
        for path in sorted((CORPUS / folder).rglob("*.jsonl")):
            lines += path.read_bytes().splitlines()
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--detect-secrets-python", metavar="PYTHON")
    args = parser.parse_args()
    lines = _lines()
    size = sum(map(len, lines))
    start = time.perf_counter()
    worst = 0.0
    for line in lines:
        began = time.perf_counter()
        find_secrets(line)
        worst = max(worst, time.perf_counter() - began)
    took = time.perf_counter() - start
    print(f"{len(lines)} corpus lines, {size / 1e6:.1f} MB")
    print(f"linewise find_secrets: {size / took / 1e6:.2f} MB/s, slowest line {worst:.3f} s")
    for unit in HOSTILE:
        text = unit.encode() * (100_000 // len(unit))
        began = time.perf_counter()
        find_secrets(text)
        print(
            f"linewise on {unit!r} x {len(text) // len(unit)}: {time.perf_counter() - began:.3f} s"
        )
    if args.detect_secrets_python:
        corpus = Path("/tmp/linewise-redaction-bench-lines.txt")
        corpus.write_bytes(b"\n".join(lines))
        script = _DETECT_SECRETS % (HOSTILE,)
        subprocess.run([args.detect_secrets_python, "-c", script, str(corpus)], check=False)
        corpus.unlink()
        imported = subprocess.run(
            [
                args.detect_secrets_python,
                "-X",
                "importtime",
                "-c",
                "import detect_secrets.core.scan",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        total = sum(int(line.split("|")[1]) for line in imported.stderr.splitlines()[1:])
        print(f"detect-secrets import: {total / 1000:.0f} ms (cumulative self time)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
