"""cursor_session: the transcripts cursor-agent keeps in ~/.cursor/projects/*/agent-transcripts."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from linewise_cursor import session
from linewise_cursor.session.prompt_stamp import prompt_time
from session_checks import (
    HOST_TS,
    listed,
    plant_hostile,
    problems,
    render,
    rendered,
    session_entries,
)
from support import corpus_path

SESSION = "123e4567-e89b-12d3-a456-426614174000"
META = {
    "schemaVersion": 1,
    "createdAtMs": 1785654071336,
    "hasConversation": True,
    "title": "Session command audit",
    "updatedAtMs": 1785668144486,
    "cwd": "/tmp/public-project",
}


def _transcript(home: Path, session_id: str, project: str = "tmp-public-project") -> Path:
    folder = home / ".cursor" / "projects" / project / "agent-transcripts" / session_id
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{session_id}.jsonl"


def _home(tmp_path: Path, *, meta: bool = True) -> Path:
    path = _transcript(tmp_path, SESSION)
    shutil.copy(corpus_path("field-samples", "cursor", "agi-cli-agent-transcript.jsonl"), path)
    if meta:
        chat = tmp_path / ".cursor" / "chats" / "workspace-hash" / SESSION
        chat.mkdir(parents=True)
        (chat / "meta.json").write_text(json.dumps(META))
        other = tmp_path / ".cursor" / "chats" / "another" / "other-session"
        other.mkdir(parents=True)
        (other / "meta.json").write_text(json.dumps({"title": "Different session"}))
    return tmp_path


def _line(record: dict[str, object]) -> str:
    return json.dumps(record)


def test_the_store_holds_current_older_and_subagent_transcripts(tmp_path: Path) -> None:
    (store,) = session.session_stores({}, tmp_path)
    assert (store.cli, store.root) == ("cursor", tmp_path / ".cursor" / "projects")
    assert [p for pattern in store.patterns for p in store.root.glob(pattern)] == []
    current = _transcript(tmp_path, "a1")
    older = tmp_path / ".cursor" / "projects" / "p" / "agent-transcripts" / "b2.jsonl"
    older.parent.mkdir(parents=True)
    subagent = current.parent / "subagents" / "c3.jsonl"
    subagent.parent.mkdir()
    for path in (current, older, subagent):
        path.write_text("{}\n")
    found = {p for pattern in store.patterns for p in store.root.glob(pattern)}
    assert found == {current, older, subagent}


def test_a_transcript_with_its_chat_metadata_has_cwd_title_and_the_prompts_own_time(
    tmp_path: Path,
) -> None:
    path = _transcript(_home(tmp_path), SESSION)
    records = list(session.session_records(path))
    assert json.loads(records[0])["type"] == "cursor_session"
    assert json.loads(records[-1]) == {
        "type": "cursor_session_updated",
        "updatedAtMs": 1785668144486,
    }
    entries = session_entries(session.create_stdout_parser, records)
    init = entries[0]
    assert (init["sessionId"], init["cwd"], init["model"]) == (SESSION, "/tmp/public-project", "")
    assert init["ts"] == "2026-08-02T07:01:11.336Z"  # the chat's createdAtMs
    user = next(entry for entry in entries if entry["kind"] == "user")
    # "Sunday, Aug 2, 2026, 3:51 AM (UTC-7)"; the wrapping tags are not the person's words
    assert user["ts"] == "2026-08-02T10:51:00.000Z"
    assert user["text"] == (
        "Inspect the public CLI documentation and summarize the session commands."
    )
    assert entries[-1]["ts"] == "2026-08-02T10:55:44.486Z"
    # Cursor's transcript keeps tool calls but not their results: nothing else is wrong.
    assert {p for p in problems(entries) if not p.startswith("call without result")} == set()
    assert [e["name"] for e in entries if e["kind"] == "tool_call"] == [
        "Read",
        "TodoWrite",
        "Task",
        "Shell",
        "Write",
    ]


def test_the_summary_knows_no_tokens_and_reads_the_last_turns_end(tmp_path: Path) -> None:
    path = _transcript(_home(tmp_path), SESSION)
    summary = session.summarize_run(session.session_records(path))
    assert summary.token_usage.is_empty  # the transcript reports none: unknown, not 0
    assert summary.cost_usd is None
    assert (summary.session_id, summary.outcome, summary.complete) == (SESSION, "completed", True)
    assert summary.details["title"] == "Session command audit"
    assert summary.details["toolCalls"] == 5
    assert summary.final_text == "The sessions command discovers and renders local transcripts."


def test_a_transcript_cut_off_mid_turn_is_not_complete_and_its_outcome_unknown() -> None:
    records = [
        _line({"type": "cursor_session", "sessionId": "s", "meta": {}}),
        _line({"role": "user", "message": {"content": [{"type": "text", "text": "go"}]}}),
        _line({"type": "turn_ended", "status": "success"}),
        _line({"role": "user", "message": {"content": [{"type": "text", "text": "again"}]}}),
    ]
    summary = session.summarize_run(records)
    assert (summary.outcome, summary.complete, summary.turns) == (None, False, None)
    assert summary.details["turnsEnded"] == 1


def test_tool_results_a_transcript_records_pair_with_their_calls_by_id() -> None:
    records = [
        _line({"type": "cursor_session", "sessionId": "s", "meta": {"createdAtMs": 1785654071336}}),
        _line(
            {
                "role": "assistant",
                "message": {
                    "content": [{"type": "tool_use", "id": "t1", "name": "Shell", "input": {}}]
                },
            }
        ),
        _line(
            {
                "role": "user",
                "message": {
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": "t1",
                            "content": [{"type": "text", "text": "exit 2"}],
                            "is_error": True,
                        }
                    ]
                },
            }
        ),
    ]
    entries = session_entries(session.create_stdout_parser, records)
    assert problems(entries) == []
    result = entries[-1]
    assert (result["toolName"], result["content"], result["isError"]) == ("Shell", "exit 2", True)


@pytest.mark.parametrize(
    ("text", "moment"),
    [
        ("<timestamp>Sunday, Aug 2, 2026, 3:51 AM (UTC-7)</timestamp>", "2026-08-02T10:51:00.000Z"),
        (
            "<timestamp>Mon, Dec 1, 2026, 12:05 AM (UTC+5:30)</timestamp>",
            "2026-11-30T18:35:00.000Z",
        ),
        ("<timestamp>March 3, 2026, 11:59 PM (UTC)</timestamp>", "2026-03-03T23:59:00.000Z"),
        ("<timestamp>Sunday, Aug 2, 2026, 3:51 AM</timestamp>", None),  # no offset: no moment
        ("<timestamp>Sunday, Foo 2, 2026, 3:51 AM (UTC-7)</timestamp>", None),
        ("<timestamp>Sunday, Feb 30, 2026, 3:51 AM (UTC-7)</timestamp>", None),
        ("no stamp at all", None),
    ],
)
def test_a_prompts_timestamp_is_read_only_with_its_utc_offset(
    text: str, moment: str | None
) -> None:
    assert prompt_time(text) == moment


def test_what_a_prompt_holds_besides_the_query_is_a_short_note() -> None:
    text = (
        "<attached_files>"
        + "src/app.py " * 100
        + "</attached_files>\n<user_query>fix it</user_query>"
    )
    record = _line({"role": "user", "message": {"content": [{"type": "text", "text": text}]}})
    entries = session.create_stdout_parser().parse_line(record, HOST_TS)
    assert [entry["kind"] for entry in entries] == ["system", "user"]
    assert entries[0]["text"].startswith("prompt context: <attached_files>src/app.py")
    assert len(entries[0]["text"]) < 400
    assert entries[1]["text"] == "fix it"


def test_sessions_lists_each_transcript_with_the_facts_the_store_gives(tmp_path: Path) -> None:
    home = _home(tmp_path)
    bare = _transcript(home, "1031d227-bare", project="p2")
    shutil.copy(
        corpus_path("field-samples", "cursor", "codeburn-cursor-agent-transcript.jsonl"), bare
    )
    subagent = _transcript(home, SESSION).parent / "subagents" / "sub-1.jsonl"
    subagent.parent.mkdir()
    subagent.write_text(
        _line({"role": "assistant", "message": {"content": [{"type": "text", "text": "done"}]}})
    )
    _, sessions = listed(home, "--cli", "cursor")
    by_id = {item["id"]: item for item in sessions}
    assert set(by_id) == {SESSION, "1031d227-bare", "sub-1"}
    full = by_id[SESSION]
    assert (full["project"], full["started"], full["ended"]) == (
        "/tmp/public-project",
        "2026-08-02T07:01:11.336Z",
        "2026-08-02T10:55:44.486Z",
    )
    assert (full["outcome"], full["toolCalls"], full["messages"]) == ("completed", 5, 3)
    assert full["tokenUsage"] == dict.fromkeys(full["tokenUsage"])  # all unknown
    assert by_id["1031d227-bare"]["firstPrompt"] == "Run a quick smoke test"
    assert by_id["1031d227-bare"]["project"] is None  # the folder name is not a path
    code, _, entries = rendered(home, "sub-1")
    assert code == 0
    assert any(
        e["text"] == f"subagent transcript of session {SESSION}"
        for e in entries
        if e["kind"] == "system"
    )


def test_render_by_id_shows_no_raw_records(tmp_path: Path) -> None:
    code, stderr, entries = rendered(_home(tmp_path), SESSION[:8])
    assert code == 0, stderr
    assert not [entry for entry in entries if entry["kind"] == "stdout"]
    assert "cursor_session" in stderr


def test_without_chat_metadata_the_first_prompts_time_starts_the_session(
    tmp_path: Path,
) -> None:
    path = _transcript(_home(tmp_path, meta=False), SESSION)
    entries = session_entries(session.create_stdout_parser, session.session_records(path))
    assert entries[0]["ts"] == "2026-08-02T10:51:00.000Z"
    # every entry has a time of the transcript's own, none the host's (the file's)
    assert {p for p in problems(entries) if not p.startswith("call without result")} == set()


def test_a_transcript_file_renders_auto_detected(tmp_path: Path) -> None:
    stderr, entries = render(_transcript(_home(tmp_path, meta=False), SESSION))
    assert "cursor_session" in stderr, stderr
    assert not [entry for entry in entries if entry["kind"] == "stdout"]


def test_damaged_transcripts_are_listed_with_what_they_hold_and_break_nothing_else(
    tmp_path: Path,
) -> None:
    home = _home(tmp_path)
    transcripts = home / ".cursor" / "projects" / "bad" / "agent-transcripts"
    plant_hostile(transcripts, lambda stem: Path(stem) / f"{stem}.jsonl")
    _, sessions = listed(home, "--cli", "cursor")
    ids = {item["id"] for item in sessions}
    assert {SESSION, "truncated", "binary", "huge"} <= ids  # the loop is no file: not listed
    code, _, entries = rendered(home, "truncated")
    assert code == 0
    assert entries[-1]["kind"] == "stdout"  # the cut-off record, shown as it is
    code, stderr, _ = rendered(home, "binary")
    assert code == 1 and "binary file" in stderr
    code, stderr, entries = rendered(home, "huge")
    assert code == 0, stderr
    assert any(entry["kind"] == "stdout" for entry in entries)  # cut, with the host's marker


@pytest.mark.parametrize(
    "lines",
    [
        ['{"type":"user","message":{"role":"user","content":"x"},"uuid":"u"}'] * 3,
        ['{"type":"message","id":"1","parentId":null,"message":{"role":"user","content":"x"}}'],
        ['{"role":"user","message":{"content":"x"},"timestamp":"2026-01-01T00:00:00Z"}'] * 2,
        ["not json"],
    ],
)
def test_what_is_not_a_cursor_transcript_scores_zero(lines: list[str]) -> None:
    assert session.sniff(lines) == 0.0


def test_a_cursor_transcript_is_sniffed_surely() -> None:
    path = corpus_path("field-samples", "cursor", "agi-cli-agent-transcript.jsonl")
    assert session.sniff(path.read_text().splitlines()) == 0.95
