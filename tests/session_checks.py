"""Checks every session adapter type must pass on a session file (issue 16's "done means")."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from linewise_contracts import StdoutParser, entry_problem

LINEWISE = str(Path(sys.executable).with_name("linewise"))
HOST_TS = "1999-01-01T00:00:00.000Z"


def session_entries(
    create_parser: Callable[[], StdoutParser], records: Iterable[str]
) -> list[dict[str, Any]]:
    """The entries of one session's record lines, from one fresh parser, at a host time no
    record has (so an entry stamped with it was not stamped with its record's time)."""
    parser = create_parser()
    entries: list[dict[str, Any]] = []
    for line in records:
        if line.strip():
            entries.extend(parser.parse_line(line.strip(), HOST_TS))  # type: ignore[arg-type]
    return entries


def problems(entries: list[dict[str, Any]]) -> list[str]:
    """What breaks the "done means" rules: invalid entries, raw JSON records, unpaired tool
    calls and results, entries without their record's time, a missing or late init."""
    found = [f"invalid: {entry_problem(entry)}" for entry in entries if entry_problem(entry)]
    found += [
        f"raw record: {entry['text'][:80]}"
        for entry in entries
        if entry["kind"] == "stdout" and entry["text"].lstrip().startswith("{")
    ]
    calls = {entry.get("toolUseId") for entry in entries if entry["kind"] == "tool_call"}
    results = {entry["toolUseId"] for entry in entries if entry["kind"] == "tool_result"}
    found += [f"call without result: {ident}" for ident in calls - results]
    found += [f"result without call: {ident}" for ident in results - calls]
    found += [
        f"result without toolName: {entry['toolUseId']}"
        for entry in entries
        if entry["kind"] == "tool_result" and not entry.get("toolName")
    ]
    found += [f"host time on {entry['kind']}" for entry in entries if entry["ts"] == HOST_TS]
    if not entries or entries[0]["kind"] != "init":
        found.append("the first entry is not init")
    return found


def render(path: Path) -> tuple[str, list[dict[str, Any]]]:
    """``linewise render PATH -f jsonl`` with no adapter: the stderr and the entries."""
    done = subprocess.run(
        [LINEWISE, "render", str(path), "-f", "jsonl"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    entries = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return done.stderr, entries


def unpaired(entries: list[dict[str, Any]]) -> set[str]:
    """The toolUseIds that have a call without a result, or a result without a call."""
    calls = {entry["toolUseId"] for entry in entries if entry["kind"] == "tool_call"}
    results = {entry["toolUseId"] for entry in entries if entry["kind"] == "tool_result"}
    return calls ^ results


def real_corpus_files() -> list[Path]:
    """Every real log and session file of the corpus (skips the caller when it is absent)."""
    from support import corpus_path

    return [
        path
        for folder in ("real-logs", "real-sessions")
        for path in corpus_path(folder).rglob("*")
        if path.is_file() and path.suffix in (".jsonl", ".json", ".txt")
    ]


def listed(home: Path, *args: str) -> tuple[str, list[dict[str, Any]]]:
    """``linewise sessions --json --no-cache`` with ``home`` as HOME: the stderr and the sessions."""
    import os

    environ = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": "", "XDG_CACHE_HOME": ""}
    done = subprocess.run(
        [LINEWISE, "sessions", "--json", "--no-cache", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env=environ,
    )
    assert done.returncode == 0, done.stderr
    return done.stderr, json.loads(done.stdout)["sessions"]


def rendered(home: Path, reference: str) -> tuple[int, str, list[dict[str, Any]]]:
    """``linewise render REFERENCE -f jsonl`` with ``home`` as HOME: exit code, stderr, entries."""
    import os

    environ = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": "", "XDG_CACHE_HOME": ""}
    done = subprocess.run(
        [LINEWISE, "render", reference, "-f", "jsonl"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env=environ,
    )
    entries = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return done.returncode, done.stderr, entries


#: One record line longer than the host's line bound (8 Mi characters).
HUGE_LINE = '{"role":"assistant","pad":"' + "x" * (8 * 1024 * 1024 + 16) + '"}'


def plant_hostile(folder: Path, name: Callable[[str], Path]) -> dict[str, Path]:
    """Damaged session files in a store: cut off mid-record, binary, one huge line, a
    symlink to itself. ``name(stem)`` says where a session called ``stem`` lies under
    ``folder``; the paths planted, by what is wrong with them."""
    planted = {what: folder / name(what) for what in ("truncated", "binary", "huge", "loop")}
    for path in planted.values():
        path.parent.mkdir(parents=True, exist_ok=True)
    planted["truncated"].write_text('{"role": "user", "message": {"content": [{"type": "te')
    planted["binary"].write_bytes(b"\x00\x01\x02SQLite\xff\xfe\x00" * 64)
    planted["huge"].write_text(HUGE_LINE + "\n")
    planted["loop"].symlink_to(planted["loop"])
    return planted
