"""Corpus fingerprint: every real log and session rendered as text, jsonl and html, hashed.

Run with `python3 -m uv run --locked python benchmarks/corpus_hashes.py --save before.json`
before a change and `... --compare before.json` after it: a refactoring that
should change no output shows no difference, and any difference is named by
file and format (so it can be listed as a fix, or found as a slip).

Each file of the corpus's real-logs/ and real-sessions/ (LINEWISE_CORPUS, else
../shared/corpus beside the checkout) is rendered by the installed `linewise`
command in its own process, with a fixed ``--ts``, ``--color never`` and the
isolation and redaction settings of the environment cleared, so the output
depends on the code only. The fingerprint of one rendering is the SHA-256 of
its stdout, of its stderr and its exit status; the run prints one digest over
all of them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FORMATS = ("text", "jsonl", "html")
FOLDERS = ("real-logs", "real-sessions")
#: The timestamp every entry gets, so no rendering depends on a file's mtime or the clock.
FIXED_TS = "2026-01-31T09:30:00Z"


def corpus_root() -> Path:
    return Path(os.environ.get("LINEWISE_CORPUS") or REPO.parent / "shared" / "corpus")


def corpus_files(root: Path) -> list[Path]:
    """Every data file of the real folders (PROVENANCE and other notes left out)."""
    files: list[Path] = []
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and path.suffix != ".md":
                files.append(path)
    return files


def _linewise() -> list[str]:
    found = Path(sys.executable).with_name("linewise")
    return [str(found)] if found.exists() else [sys.executable, "-m", "linewise"]


def _environment() -> dict[str, str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("LINEWISE_")}
    environment["COLUMNS"] = "100"
    environment["LINES"] = "40"
    environment["TZ"] = "UTC"
    return environment


def fingerprint(path: Path, fmt: str, environment: dict[str, str]) -> dict[str, object]:
    command = [*_linewise(), "render", "-f", fmt, "--ts", FIXED_TS, "--color", "never"]
    done = subprocess.run(
        [*command, str(path)], capture_output=True, env=environment, timeout=600, check=False
    )
    return {
        "stdout": hashlib.sha256(done.stdout).hexdigest(),
        "stderr": hashlib.sha256(done.stderr).hexdigest(),
        "status": done.returncode,
        "bytes": len(done.stdout),
    }


def fingerprints(root: Path, jobs: int = 1) -> dict[str, dict[str, object]]:
    """{"<file> [<format>]": its fingerprint}, ``jobs`` renderings at a time."""
    environment = _environment()
    work = [(path, fmt) for path in corpus_files(root) for fmt in FORMATS]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        done = pool.map(lambda item: fingerprint(item[0], item[1], environment), work)
        return {
            f"{path.relative_to(root).as_posix()} [{fmt}]": value
            for (path, fmt), value in zip(work, done, strict=True)
        }


def digest(found: dict[str, dict[str, object]]) -> str:
    return hashlib.sha256(json.dumps(found, sort_keys=True).encode()).hexdigest()


def differences(
    before: dict[str, dict[str, object]], after: dict[str, dict[str, object]]
) -> list[str]:
    said: list[str] = []
    for key in sorted(before.keys() | after.keys()):
        old, new = before.get(key), after.get(key)
        if old is None or new is None:
            said.append(f"{key}: {'only after' if old is None else 'only before'}")
        elif old != new:
            parts = [part for part in ("stdout", "stderr", "status") if old[part] != new[part]]
            said.append(f"{key}: {', '.join(parts)} differ")
    return said


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--save", type=Path, help="write the fingerprints to this JSON file")
    parser.add_argument("--compare", type=Path, help="compare with fingerprints saved earlier")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="renderings at a time")
    args = parser.parse_args()
    root = corpus_root()
    if not (root / FOLDERS[0]).is_dir():
        print(f"corpus_hashes: no corpus at {root} (set LINEWISE_CORPUS)", file=sys.stderr)
        return 2
    found = fingerprints(root, args.jobs)
    renders = len(found)
    failed = sum(1 for value in found.values() if value["status"] != 0)
    print(f"{renders} renderings ({renders // len(FORMATS)} files x {len(FORMATS)} formats),")
    print(f"{failed} with a non-zero exit status; digest {digest(found)}")
    if args.save:
        args.save.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    if args.compare:
        before = json.loads(args.compare.read_text(encoding="utf-8"))
        said = differences(before, found)
        for line in said:
            print(line)
        print(f"{len(said)} differences against {args.compare} (digest {digest(before)})")
        return 1 if said else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
