"""claude_subagent: a subagent file whose session file is gone is listed, not dropped."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from linewise_claude.session import orphans
from session_checks import listed, problems, rendered, session_entries
from support import corpus_path

PARENT = "00000000-0000-4000-8000-000000000001"
AGENT = "agent-a1b2c3d4e5f60718a"


def _project(home: Path) -> Path:
    return home / ".claude" / "projects" / "-tmp-tuval-capture"


def _orphan_home(tmp_path: Path) -> Path:
    # The corpus's capture holds the subagent folder of a session whose file it lacks.
    source = corpus_path("real-sessions", "claude", "phoenix-2.1.217-sidechain")
    shutil.copytree(source, _project(tmp_path) / PARENT)
    return tmp_path


def _subagent(home: Path) -> Path:
    return _project(home) / PARENT / "subagents" / f"{AGENT}.jsonl"


def test_only_a_subagent_without_its_session_file_is_a_session_of_its_own(
    tmp_path: Path,
) -> None:
    home = _orphan_home(tmp_path)
    (store,) = orphans.session_stores({}, home)
    assert [p.name for p in store.root.glob(store.patterns[0])] == [f"{AGENT}.jsonl"]
    assert orphans.session_keys(_subagent(home)) == [AGENT]
    (_project(home) / f"{PARENT}.jsonl").write_text("")
    assert orphans.session_keys(_subagent(home)) == []  # its session reads it


def test_an_orphan_reads_as_its_own_main_thread_naming_the_missing_parent(
    tmp_path: Path,
) -> None:
    records = list(orphans.session_records(_subagent(_orphan_home(tmp_path))))
    entries = session_entries(orphans.create_stdout_parser, records)
    assert problems(entries) == []
    assert (entries[0]["kind"], entries[0]["sessionId"], entries[0]["cwd"]) == (
        "init",
        AGENT,
        "/tmp/tuval-capture",
    )
    assert entries[1]["text"] == f"subagent of session {PARENT}, whose session file is missing"
    assert not [e for e in entries if "parentToolUseId" in e]  # nothing nests under a lost call
    assert [e["text"] for e in entries if e["kind"] == "user"] == ["do your job"]
    summary = orphans.summarize_run(records)
    assert (summary.session_id, summary.model, summary.outcome) == (
        AGENT,
        "claude-fable-5",
        "completed",
    )
    assert summary.token_usage.output == 82


def test_sessions_lists_the_orphan_and_render_by_id_shows_it(tmp_path: Path) -> None:
    home = _orphan_home(tmp_path)
    _, found = listed(home, "--cli", "claude")
    (item,) = found
    assert (item["id"], item["adapterType"], item["firstPrompt"]) == (
        AGENT,
        "claude_subagent",
        "do your job",
    )
    assert item["started"] == "2026-07-22T08:10:08.771Z"
    code, stderr, entries = rendered(home, "agent-a1b2")
    assert code == 0, stderr
    assert not [e for e in entries if e["kind"] == "stdout"]


def test_with_its_session_file_the_subagent_is_listed_once_inside_its_session(
    tmp_path: Path,
) -> None:
    home = _orphan_home(tmp_path)
    record = {
        "type": "user",
        "sessionId": PARENT,
        "cwd": "/tmp/tuval-capture",
        "uuid": "00000000-0000-4000-8000-0000000000aa",
        "timestamp": "2026-07-22T08:10:00.000Z",
        "message": {"role": "user", "content": "start"},
    }
    (_project(home) / f"{PARENT}.jsonl").write_text(json.dumps(record) + "\n")
    _, found = listed(home, "--cli", "claude")
    assert [(item["id"], item["adapterType"]) for item in found] == [(PARENT, "claude_session")]
