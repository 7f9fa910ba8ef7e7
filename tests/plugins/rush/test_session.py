"""rush_session: the sessions Rush keeps in ~/.rush/sessions/<id>/messages.jsonl."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import linewise_rush
import pytest
from linewise_droid import session as droid_session
from session_checks import listed, plant_hostile, problems, render, rendered, session_entries
from support import corpus_path

SAMPLE = Path(linewise_rush.__file__).parent / "samples" / "rush-session.jsonl"


def _home(tmp_path: Path) -> Path:
    folder = tmp_path / ".rush" / "sessions" / "session_4d5e6f"
    folder.mkdir(parents=True)
    shutil.copy(
        corpus_path("field-samples", "rush", "agi-cli-rush-session.jsonl"),
        folder / "messages.jsonl",
    )
    tools = tmp_path / ".rush" / "sessions" / "session_0f3c2a1b"
    tools.mkdir()
    # The sample without its first record: that is the store's, not the file's.
    (tools / "messages.jsonl").write_text("\n".join(SAMPLE.read_text().splitlines()[1:]) + "\n")
    return tmp_path


def test_the_store_is_one_messages_file_per_session_folder(tmp_path: Path) -> None:
    (store,) = linewise_rush.session_stores({}, tmp_path)
    assert (store.cli, store.root, store.patterns) == (
        "rush",
        tmp_path / ".rush" / "sessions",
        ("*/messages.jsonl",),
    )
    _home(tmp_path)
    found = sorted(p.parent.name for p in store.root.glob(store.patterns[0]))
    assert found == ["session_0f3c2a1b", "session_4d5e6f"]


def test_the_corpus_session_reads_with_its_records_times(tmp_path: Path) -> None:
    path = _home(tmp_path) / ".rush" / "sessions" / "session_4d5e6f" / "messages.jsonl"
    records = list(linewise_rush.session_records(path))
    entries = session_entries(linewise_rush.create_stdout_parser, records)
    # the store's first record takes the first record's time
    assert problems(entries) == []
    assert entries[0]["ts"] == "2026-08-01T00:00:00.000Z"
    assert entries[0]["sessionId"] == "session_4d5e6f"
    assert [(e["kind"], e["ts"]) for e in entries[1:]] == [
        ("user", "2026-08-01T00:00:00.000Z"),
        ("assistant", "2026-08-01T00:00:01.000Z"),
    ]
    summary = linewise_rush.summarize_run(records)
    assert (summary.outcome, summary.complete) == ("completed", True)
    assert summary.token_usage.is_empty and summary.cost_usd is None
    assert summary.final_text == "I found 3 stale files. Should I delete them?"


def test_tool_calls_pair_and_the_first_turn_loses_its_wrapper() -> None:
    entries = session_entries(linewise_rush.create_stdout_parser, SAMPLE.read_text().splitlines())
    assert problems(entries) == []
    assert [e["kind"] for e in entries] == [
        "init",
        "system",  # agent: builder
        "system",  # execution started
        "user",
        "tool_call",
        "tool_result",
        "assistant",
    ]
    assert entries[3]["text"] == "Bump the version and tag it"
    assert entries[4]["input"] == {"command": "git tag v2.1.0"}
    assert (entries[5]["toolName"], entries[5]["isError"]) == ("shell", False)


def test_a_failed_output_is_an_error_and_leaves_the_session_incomplete() -> None:
    lines = [
        '{"type":"rush_session","sessionId":"s"}',
        json.dumps(
            {
                "id": "r1",
                "session_id": "s",
                "type": "tool_call",
                "name": "shell",
                "tool_call_id": "t1",
                "content": {"input": {"command": "rm -rf build"}},
                "created_at": "2026-09-14T08:00:00Z",
            }
        ),
        json.dumps(
            {
                "id": "r2",
                "session_id": "s",
                "type": "tool_result",
                "tool_call_id": "t1",
                "content": {"output": {"success": False, "error": "permission denied"}},
                "created_at": "2026-09-14T08:00:01Z",
            }
        ),
    ]
    entries = session_entries(linewise_rush.create_stdout_parser, lines)
    assert entries[-1]["isError"] is True
    assert '"error": "permission denied"' in entries[-1]["content"]
    summary = linewise_rush.summarize_run(lines)
    assert (summary.outcome, summary.complete, summary.details["failedToolCalls"]) == (
        None,
        False,
        1,
    )


def test_sessions_lists_every_session_and_render_shows_no_raw_records(tmp_path: Path) -> None:
    home = _home(tmp_path)
    _, found = listed(home, "--cli", "rush")
    by_id = {item["id"]: item for item in found}
    assert set(by_id) == {"session_4d5e6f", "session_0f3c2a1b"}
    tagged = by_id["session_0f3c2a1b"]
    assert (tagged["started"], tagged["ended"]) == (
        "2026-09-14T08:00:00.000Z",
        "2026-09-14T08:00:06.000Z",
    )
    assert (tagged["firstPrompt"], tagged["toolCalls"], tagged["outcome"]) == (
        "Bump the version and tag it",
        1,
        "completed",
    )
    assert tagged["tokenUsage"]["uncachedInput"] is None
    code, stderr, entries = rendered(home, "session_0f")
    assert code == 0, stderr
    assert not [e for e in entries if e["kind"] == "stdout"]


@pytest.mark.parametrize("folder", ["session_0f3c2a1b", "session_4d5e6f"])
def test_a_messages_file_renders_auto_detected(tmp_path: Path, folder: str) -> None:
    # session_4d5e6f holds only messages, which Gemini's stream also types "message"
    path = _home(tmp_path) / ".rush" / "sessions" / folder / "messages.jsonl"
    stderr, entries = render(path)
    assert "detected rush_session" in stderr, stderr
    assert not [e for e in entries if e["kind"] == "stdout"]


def test_damaged_session_files_are_listed_and_render_with_a_note(tmp_path: Path) -> None:
    home = _home(tmp_path)
    plant_hostile(home / ".rush" / "sessions", lambda stem: Path(stem) / "messages.jsonl")
    _, found = listed(home, "--cli", "rush")
    assert {"truncated", "binary", "huge"} <= {item["id"] for item in found}
    code, stderr, _ = rendered(home, "binary")
    assert code == 1 and "binary file" in stderr
    code, _, entries = rendered(home, "truncated")
    assert code == 0 and entries[-1]["kind"] == "stdout"


@pytest.mark.parametrize(
    "lines",
    [
        [
            '{"type":"message","id":"1","parentId":null,"timestamp":"t","message":{"role":"user","content":"x"}}'
        ]
        * 2,
        ['{"type":"message","message":{"role":"user","content":"x"}}'] * 2,
        ['{"type":"message","session_id":"s","created_at":"t","content":"plain"}'] * 2,
        ["not json"],
    ],
)
def test_what_is_not_a_rush_session_scores_zero(lines: list[str]) -> None:
    assert linewise_rush.sniff(lines) == 0.0


def test_rush_records_are_not_claimed_by_droids_session_sniff() -> None:
    lines = SAMPLE.read_text().splitlines()
    assert linewise_rush.sniff(lines) == 0.95
    assert linewise_rush.sniff(lines[1:]) == 0.85
    assert droid_session.sniff(lines[1:]) == 0.0
