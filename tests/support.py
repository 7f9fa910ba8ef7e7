"""Test helpers importable from any test module: corpus, fake distributions, parser checks."""

from __future__ import annotations

import json
import math
import os
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from importlib.metadata import Distribution, EntryPoint
from pathlib import Path
from typing import Any, Final

import pytest
from hypothesis import strategies as st
from linewise_contracts import EnvironmentCheck, ParseStdoutLine, StdoutParser, entry_problem
from linewise_contracts.summary import RunSummary

TS = "2026-03-29T00:00:00.000Z"


#: One valid example or more of every entry kind.
PLAN_ACTIVITY: dict[str, Any] = {
    "kind": "provider_activity",
    "ts": TS,
    "family": "plan",
    "eventType": "plan.updated",
    "status": "running",
    "title": "Plan",
    "summary": "plan.updated",
    "payload": {
        "schema": "paperclip.plan.updated.v1",
        "planId": "plan-1",
        "complete": False,
        "explanation": "Ship safely",
        "steps": [
            {"stepId": "s1", "body": "Validate", "status": "completed"},
            {"stepId": "s2", "body": "Release", "status": "in_progress"},
            {"stepId": "s3", "body": "Announce", "status": "pending"},
        ],
    },
}
WORKSPACE_CHANGE: dict[str, Any] = {
    "kind": "workspace_change",
    "ts": TS,
    "changeSetId": "changes-1",
    "revision": 2,
    "source": "runner_verified",
    "complete": True,
    "files": [
        {
            "path": "ui/src/App.tsx",
            "operation": "modify",
            "previousPath": None,
            "additions": 1,
            "deletions": 1,
            "binary": False,
            "diff": "@@ -1 +1 @@\n-old\n+hello",
        },
        {
            "path": "assets/logo.png",
            "operation": "rename",
            "previousPath": "logo.png",
            "additions": None,
            "deletions": None,
            "binary": True,
            "diff": None,
        },
    ],
    "totals": {"files": 2, "additions": 1, "deletions": 1},
    "patchArtifactRef": None,
}
PERMISSION_REQUEST: dict[str, Any] = {
    "kind": "runtime_request",
    "ts": TS,
    "requestId": "request-1",
    "requestKind": "command_approval",
    "turnId": "turn-1",
    "requestType": "permission",
    "status": "resolved",
    "prompt": "Allow command?",
    "choices": [
        {"key": "accept", "label": "Allow once"},
        {"key": "decline", "label": "Deny"},
    ],
    "fields": [],
    "questionSet": None,
    "resolvedAction": "accept",
    "response": None,
}
INPUT_REQUEST: dict[str, Any] = {
    "kind": "runtime_request",
    "ts": TS,
    "requestId": "request-2",
    "requestKind": "user_input",
    "turnId": None,
    "requestType": "input",
    "status": "pending",
    "prompt": "Choose",
    "choices": [],
    "fields": [{"name": "reason", "label": "Reason", "placeholder": None}],
    "questionSet": {
        "schema": "paperclip.question_set.v1",
        "title": "Deploy",
        "questions": [
            {
                "id": "environment",
                "prompt": "Where to?",
                "required": True,
                "answerMode": "single_select",
                "options": [{"id": "staging", "label": "Staging", "description": "safe"}],
                "customAnswer": {"enabled": True, "label": "Other"},
            },
            {
                "id": "note",
                "prompt": "Anything else?",
                "required": False,
                "answerMode": "text",
                "textValidation": {"maxLength": 200, "inputType": "text"},
            },
        ],
    },
    "resolvedAction": None,
    "response": {
        "schema": "paperclip.question_response.v1",
        "answers": {"environment": {"selectedOptionIds": ["staging"]}},
    },
}
RUN_RESULT: dict[str, Any] = {
    "kind": "run_result",
    "ts": TS,
    "disposition": "needs_review",
    "summary": "Finished the task",
    "objectiveSatisfied": True,
    "verification": [
        {"commandOrCheck": "pnpm test", "status": "passed", "detail": "42 passed"},
        {"commandOrCheck": "lint", "status": "not_run"},
    ],
    "remainingWork": [{"description": "Update the changelog", "blocksCompletion": False}],
    "blocker": None,
    "artifacts": [{"kind": "patch", "ref": "artifacts/patch-1.diff", "title": "The patch"}],
}

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
    # Contract 1.5's summary fields and 1.9's turns and usage per model.
    {
        "kind": "result",
        "ts": TS,
        "text": "done",
        "inputTokens": 10,
        "outputTokens": 5,
        "cachedTokens": 40,
        "costUsd": 0.00042,
        "subtype": "success",
        "isError": False,
        "errors": [],
        "usage": {"uncachedInput": 10, "cacheRead": 40, "cacheWrite": None, "output": 5},
        "costSource": "reported",
        "outcome": "completed",
        "sessionId": "s1",
        "turns": 3,
        "modelUsage": {"model-a": {"uncachedInput": 10, "cacheRead": 40, "output": 5}},
    },
    {
        "kind": "result",
        "ts": TS,
        "text": "",
        "inputTokens": 0,
        "outputTokens": 0,
        "cachedTokens": 0,
        "costUsd": 0,
        "subtype": "error",
        "isError": True,
        "errors": ["boom"],
        "costSource": None,
        "outcome": "failed",
        "turns": 0,
        "modelUsage": {},
    },
    {
        "kind": "tool_call",
        "ts": TS,
        "name": "Task",
        "input": {},
        "toolUseId": "t2",
        "startsSubagent": True,
    },
    {"kind": "stderr", "ts": TS, "text": "warning"},
    {"kind": "system", "ts": TS, "text": "retrying"},
    {"kind": "stdout", "ts": TS, "text": "raw"},
    {"kind": "diff", "ts": TS, "changeType": "add", "text": "+x"},
    {"kind": "diff", "ts": TS, "changeType": "file_header", "text": "--- a/x"},
    # Contract 1.3: the new fields on old kinds, then Paperclip's six 2026 kinds.
    {
        "kind": "assistant",
        "ts": TS,
        "text": "Run",
        "delta": True,
        "channel": "progress",
        "itemId": "m1",
    },
    {"kind": "assistant", "ts": TS, "text": "Done.", "channel": "final", "itemId": "m2"},
    {
        "kind": "thinking",
        "ts": TS,
        "text": "",
        "lifecycle": "started",
        "channel": "summary",
        "itemId": "r1",
    },
    {
        "kind": "thinking",
        "ts": TS,
        "text": "Inspecting",
        "delta": True,
        "channel": "detail",
        "itemId": "r1",
    },
    {
        "kind": "tool_result",
        "ts": TS,
        "toolUseId": "exec-1",
        "toolName": "command",
        "content": "ok 3 tests\n",
        "isError": False,
        "delta": True,
    },
    PLAN_ACTIVITY,
    {
        "kind": "provider_activity",
        "ts": TS,
        "family": "model_identity",
        "eventType": "model.route.changed",
        "status": "informational",
        "title": "Model",
        "summary": "Claude Sonnet",
        "payload": {"provider": "claude", "effectiveModel": "Claude Sonnet"},
    },
    WORKSPACE_CHANGE,
    {
        "kind": "workspace_file_reference",
        "ts": TS,
        "referenceId": "file-1",
        "source": "runner_verified",
        "path": "doc/protocol.md",
        "displayName": "protocol.md",
        "mediaType": "text/markdown",
        "presentation": "document",
        "line": 12,
        "preview": "# Protocol",
        "previewTruncated": False,
        "contentDigest": None,
    },
    PERMISSION_REQUEST,
    INPUT_REQUEST,
    RUN_RESULT,
    {
        "kind": "run_terminal",
        "ts": TS,
        "turnState": "interrupted",
        "runState": "cancelled",
        "disposition": "yielded",
        "stopReason": "user_stop",
    },
]

REPO = Path(__file__).resolve().parents[1]
# LINEWISE_CORPUS points elsewhere (a git worktree has no ../shared beside it).
CORPUS = Path(os.environ.get("LINEWISE_CORPUS") or REPO.parent / "shared" / "corpus")
# The specifications beside the corpus (../shared/specs), or LINEWISE_SPECS.
SPECS = Path(os.environ.get("LINEWISE_SPECS") or CORPUS.parent / "specs")


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


def specs_path(*parts: str) -> Path:
    """A path inside ../shared/specs; skips the calling test when the specifications are absent."""
    path = SPECS.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"specifications not available at {path} (tests using them are skipped)")
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


def result_entry(**fields: Any) -> dict[str, Any]:
    """A valid ``result`` entry of a finished run, its required fields at their plainest,
    with ``fields`` set (or added) over them."""
    return {
        "kind": "result",
        "ts": "2026-01-01T00:00:00Z",
        "text": "done",
        "inputTokens": 10,
        "outputTokens": 5,
        "cachedTokens": 0,
        "costUsd": 0.01,
        "subtype": "success",
        "isError": False,
        "errors": [],
        **fields,
    }


#: The run-summary figures a plugin's entries carry (contracts 1.5, 1.9 and 1.10 result fields):
#: where the host's fold over them must give what the plugin's ``summarize_run`` gives.
FOLDED_FIGURES: Final = (
    "token_usage",
    "cost_usd",
    "cost_source",
    "outcome",
    "turns",
    "session_id",
    "is_error",
    "errors",
    "model",
    "model_usage",
    "complete",
)


def fold_disagreements(
    create_parser: Callable[[], StdoutParser],
    summarize_run: Callable[[list[str]], RunSummary],
    lines: list[str],
    *,
    ts: str,
    figures: Iterable[str] = FOLDED_FIGURES,
) -> dict[str, tuple[object, object]]:
    """Each of ``figures`` where the host's one fold over the entries of ``lines`` (each
    checked valid) differs from the plugin's ``summarize_run(lines)``, as
    :func:`summary_disagreements` tells it.
    """
    from linewise.transcript.fold import RunFold

    fold = RunFold()
    for entry in parse_flat(create_parser, lines, ts=ts):
        assert entry_problem(entry) is None, entry
        fold.add(entry)
    return summary_disagreements(fold.to_summary(), summarize_run(lines), figures=figures)


def summary_disagreements(
    got: RunSummary, expected: RunSummary, *, figures: Iterable[str] = FOLDED_FIGURES
) -> dict[str, tuple[object, object]]:
    """Each of ``figures`` where the run summary ``got`` (the host's fold's) differs from
    ``expected`` (a plugin's): ``{field: (got's, expected's)}``, empty when they agree.
    Costs agree to a relative 1e-9 (sums in another order)."""
    differ: dict[str, tuple[object, object]] = {}
    for name in figures:
        ours, theirs = getattr(got, name), getattr(expected, name)
        close = isinstance(ours, float) and isinstance(theirs, float)
        if ours != theirs and not (close and math.isclose(ours, theirs, rel_tol=1e-9)):
            differ[name] = (ours, theirs)
    return differ


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

    def command_script(self) -> str:
        """A ``python -c`` script: the ``linewise`` command whose registry is this site's alone
        (quick to start: no other distribution is looked at)."""
        root = str(self.root)
        return (
            "import sys\n"
            f"sys.path.insert(0, {root!r})\n"
            "from importlib.metadata import Distribution\n"
            "import linewise.plugins.registry\n"
            "from linewise import Registry\n"
            f"dists = Distribution.discover(path=[{root!r}])\n"
            "points = [p for d in dists for p in d.entry_points if p.group == 'linewise.parsers']\n"
            "linewise.plugins.registry._default = Registry(entry_points=points)\n"
            "from linewise.cli import main\n"
            "sys.exit(main())\n"
        )


# -- regex audit ---------------------------------------------------------------------------


class Drawn:
    """A renderer fed through the host's one pipeline, as ``render`` and ``run`` feed it."""

    def __init__(self, adapter_type: str, renderer: Any, **options: Any) -> None:
        from linewise.stream.pipeline import Pipeline

        options.setdefault("clock", lambda: TS)
        on_line = renderer.write_line if getattr(renderer, "wants_lines", False) else None
        self.renderer = renderer
        self.pipeline = Pipeline(adapter_type, on_entry=renderer.write, on_line=on_line, **options)
        self.session = self.pipeline.session
        self.receive = self.pipeline.receive
        self.feed = partial(self.pipeline.receive, "stdout")
        self.feed_stderr = partial(self.pipeline.receive, "stderr")

    def close(self) -> None:
        """End the stream, then the renderer."""
        self.pipeline.close()
        self.renderer.close()


def wait_for_linewise(pid: int) -> None:
    """Wait until the process ``pid`` runs the linewise command (it handles SIGTERM).

    Before that Python itself is still starting: a signal during the interpreter's start-up gets the system's default
    action (or Python's own KeyboardInterrupt), before any linewise code runs.
    """
    import signal
    import time

    status = Path(f"/proc/{pid}/status")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            caught = next(
                int(line.split()[1], 16)
                for line in status.read_text().splitlines()
                if line.startswith("SigCgt:")
            )
        except (OSError, StopIteration):
            return  # ended already, or not Linux
        if caught & (1 << (signal.SIGTERM - 1)):
            return
        time.sleep(0.005)
