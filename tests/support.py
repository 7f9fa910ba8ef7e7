"""Test helpers importable from any test module: corpus, fake distributions, parser checks."""

from __future__ import annotations

import json
import os
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib.metadata import Distribution, EntryPoint
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st
from linewise_contracts import EnvironmentCheck, ParseStdoutLine, StdoutParser, entry_problem

TS = "2026-03-29T00:00:00.000Z"


#: One valid example or more of every entry kind.
VALID_ENTRIES: list[dict[str, Any]] = [
    {"kind": "assistant", "ts": TS, "text": "hello"},
    {"kind": "assistant", "ts": TS, "text": "he", "delta": True},
    {"kind": "thinking", "ts": TS, "text": "hmm"},
    {"kind": "thinking", "ts": TS, "text": "h", "delta": False},
    {"kind": "user", "ts": TS, "text": "do it"},
    {"kind": "tool_call", "ts": TS, "name": "bash", "input": {"command": "ls"}},
    {
        "kind": "tool_call",
        "ts": TS,
        "name": "bash",
        "input": [1, 2.5, None, True, {"a": ["b"]}],
        "toolUseId": "t1",
        "invocationId": "i1",
        "actionRequestId": "a1",
    },
    {"kind": "tool_call", "ts": TS, "name": "noop", "input": None},
    {"kind": "tool_result", "ts": TS, "toolUseId": "t1", "content": "ok", "isError": False},
    {
        "kind": "tool_result",
        "ts": TS,
        "toolUseId": "t1",
        "toolName": "bash",
        "content": "",
        "isError": True,
    },
    {"kind": "init", "ts": TS, "model": "claude-sonnet-4-6", "sessionId": "s1"},
    {
        "kind": "result",
        "ts": TS,
        "text": "done",
        "inputTokens": 10,
        "outputTokens": 5,
        "cachedTokens": 0,
        "costUsd": 0.00042,
        "subtype": "success",
        "isError": False,
        "errors": [],
    },
    {"kind": "stderr", "ts": TS, "text": "warning"},
    {"kind": "system", "ts": TS, "text": "retrying"},
    {"kind": "stdout", "ts": TS, "text": "raw"},
    {"kind": "diff", "ts": TS, "changeType": "add", "text": "+x"},
    {"kind": "diff", "ts": TS, "changeType": "file_header", "text": "--- a/x"},
]

REPO = Path(__file__).resolve().parents[1]
# LINEWISE_CORPUS points elsewhere (a git worktree has no ../shared beside it).
CORPUS = Path(os.environ.get("LINEWISE_CORPUS") or REPO.parent / "shared" / "corpus")


def fake_executable(folder: Path, name: str) -> Path:
    """Create ``folder/name``, an executable script that exits 0, for checks that search PATH."""
    folder.mkdir(parents=True, exist_ok=True)
    program = folder / name
    program.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    program.chmod(0o755)
    return program


def check_levels(checks: Iterable[EnvironmentCheck]) -> dict[str, str]:
    """Each environment check's code mapped to its level."""
    return {check.code: check.level for check in checks}


def corpus_path(*parts: str) -> Path:
    """A path inside ../shared/corpus; skips the calling test when the corpus is absent."""
    path = CORPUS.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"reference corpus not available at {path} (tests using it are skipped)")
    return path


def corpus_json(*parts: str) -> Any:
    """A JSON file of the corpus, parsed."""
    return json.loads(corpus_path(*parts).read_text(encoding="utf-8"))


def numbered_lines(path: Path) -> list[tuple[int, str]]:
    """A log's non-blank lines, stripped, with their line numbers (from 1)."""
    text = path.read_text(encoding="utf-8")
    return [(n, line.strip()) for n, line in enumerate(text.split("\n"), 1) if line.strip()]


# -- a parser plugin's lines and entries -----------------------------------------------------


def parse_all(
    create_parser: Callable[[], StdoutParser], lines: Iterable[str], *, ts: str
) -> list[list[dict[str, Any]]]:
    """Each line's entries from one fresh parser fed ``lines`` in order, all at ``ts``."""
    parser = create_parser()
    return [parser.parse_line(line, ts) for line in lines]  # type: ignore[misc]


def parse_flat(
    create_parser: Callable[[], StdoutParser], lines: Iterable[str], *, ts: str
) -> list[dict[str, Any]]:
    """The entries of ``lines`` from one fresh parser, as one list."""
    return [entry for entries in parse_all(create_parser, lines, ts=ts) for entry in entries]


def assert_valid_and_deterministic(
    create_parser: Callable[[], StdoutParser],
    parse_line: ParseStdoutLine,
    lines: list[str],
    *,
    ts: str,
) -> list[list[dict[str, Any]]]:
    """Two fresh parsers give the same entries for ``lines``, and every entry they and the
    stateless ``parse_line`` give is valid; returns the first parser's entries.

    This module is not assertion-rewritten by pytest, so each assertion says what failed.
    """
    first = parse_all(create_parser, lines, ts=ts)
    again = parse_all(create_parser, lines, ts=ts)
    assert first == again, f"two fresh parsers disagree: {first!r} != {again!r}"
    for entries in first:
        for entry in entries:
            assert entry_problem(entry) is None, entry
    for line in lines:
        for stateless in parse_line(line, ts):
            assert entry_problem(stateless) is None, stateless
    return first


def _json_values(max_leaves: int) -> st.SearchStrategy[Any]:
    return st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False)
        | st.text(max_size=8),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
        ),
        max_leaves=max_leaves,
    )


#: Any JSON value (no NaN): scalars, and lists and objects nesting them, up to 12 scalars.
json_values = _json_values(max_leaves=12)

#: As ``json_values`` with at most 6 scalars, for events that hold many of them.
small_json_values = _json_values(max_leaves=6)


@dataclass
class FakeSite:
    """A directory holding fake installed distributions (dist-info folders and modules)."""

    root: Path

    def add(
        self,
        name: str,
        *,
        version: str = "1.0.0",
        entry_points: dict[str, str] | None = None,
        requires: list[str] | None = None,
        modules: dict[str, str] | None = None,
        summary: str | None = None,
        raw_entry_points: str | None = None,
        files: dict[str, str] | None = None,
    ) -> Path:
        """Install a fake distribution: METADATA, entry_points.txt and module sources."""
        dist_info = self.root / f"{name.replace('-', '_')}-{version}.dist-info"
        dist_info.mkdir(parents=True)
        lines = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
        if summary:
            lines.append(f"Summary: {summary}")
        lines.extend(f"Requires-Dist: {requirement}" for requirement in requires or [])
        (dist_info / "METADATA").write_text("\n".join(lines) + "\n", encoding="utf-8")
        if raw_entry_points is not None:
            text = raw_entry_points
        else:
            text = "[linewise.parsers]\n" + "".join(
                f"{key} = {value}\n" for key, value in (entry_points or {}).items()
            )
        (dist_info / "entry_points.txt").write_text(text, encoding="utf-8")
        for module, source in (modules or {}).items():
            path = self.root / (module.replace(".", "/") + ".py")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(source), encoding="utf-8")
        for relative, text in (files or {}).items():
            path = self.root / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        return dist_info

    def entry_points(self) -> list[EntryPoint]:
        """Every linewise.parsers entry point of the fake distributions, bound to its dist."""
        points: list[EntryPoint] = []
        for dist in Distribution.discover(path=[str(self.root)]):
            points.extend(ep for ep in dist.entry_points if ep.group == "linewise.parsers")
        return points


# -- regex audit ---------------------------------------------------------------------------


class Drawn:
    """A renderer fed through the host's one pipeline, as ``render`` and ``run`` feed it."""

    def __init__(self, adapter_type: str, renderer: Any, **options: Any) -> None:
        from linewise._pipeline import Pipeline

        options.setdefault("clock", lambda: TS)
        on_line = renderer.write_line if getattr(renderer, "wants_lines", False) else None
        self.renderer = renderer
        self.pipeline = Pipeline(adapter_type, on_entry=renderer.write, on_line=on_line, **options)
        self.session = self.pipeline.session
        self.feed = self.pipeline.feed
        self.feed_stderr = self.pipeline.feed_stderr

    def close(self) -> None:
        """End the stream, then the renderer."""
        self.pipeline.close()
        self.renderer.close()
