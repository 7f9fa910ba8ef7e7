"""goose_session: Goose's sessions.db and the .jsonl session files of older versions."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from linewise_contracts.usage import TokenUsage
from linewise_goose import session
from session_checks import listed, plant_hostile, problems, rendered, session_entries
from support import corpus_path

# The columns session_storage.rs creates (and migrations.rs adds) that the store reads.
SCHEMA = """
CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '', user_set_name BOOLEAN DEFAULT FALSE,
  session_type TEXT NOT NULL DEFAULT 'user', working_dir TEXT NOT NULL,
  created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
  extension_data TEXT DEFAULT '{}', total_tokens INTEGER, input_tokens INTEGER,
  output_tokens INTEGER, accumulated_total_tokens INTEGER, accumulated_input_tokens INTEGER,
  accumulated_output_tokens INTEGER, schedule_id TEXT, recipe_json TEXT,
  provider_name TEXT, model_config_json TEXT, accumulated_cost REAL);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id TEXT NOT NULL REFERENCES sessions(id), role TEXT NOT NULL,
  content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL,
  timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP, tokens INTEGER, metadata_json TEXT);
"""
FIRST = "20261120_1"
SECOND = "20261120_2"
START = 1795165200  # 2026-11-20T09:00:00Z


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


MESSAGES: list[tuple[str, list[dict[str, Any]]]] = [
    ("user", [_text("List the failing tests")]),
    (
        "assistant",
        [
            _text("Running them."),
            {
                "type": "toolRequest",
                "id": "toolu_1",
                "toolCall": {
                    "status": "success",
                    "value": {"name": "developer__shell", "arguments": {"command": "pytest -q"}},
                },
            },
        ],
    ),
    (
        "user",
        [
            {
                "type": "toolResponse",
                "id": "toolu_1",
                "toolResult": {
                    "status": "success",
                    "value": {"content": [_text("2 failed")], "isError": False},
                },
            }
        ],
    ),
    ("assistant", [_text("Two tests fail: test_a and test_b.")]),
]


def _database(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with closing(sqlite3.connect(path)) as db:
        db.executescript(SCHEMA)
        db.execute(
            "INSERT INTO sessions (id, name, working_dir, created_at, updated_at, input_tokens,"
            " output_tokens, accumulated_input_tokens, accumulated_output_tokens,"
            " accumulated_total_tokens, provider_name, model_config_json, accumulated_cost)"
            " VALUES (?, 'Failing tests', '/home/ada/app', '2026-11-20 09:00:00',"
            " '2026-11-20 09:05:00', 900, 40, 2400, 180, 2580, 'anthropic', ?, 0.0123)",
            (FIRST, json.dumps({"model_name": "claude-sonnet-4-6", "context_limit": 200000})),
        )
        db.execute(
            "INSERT INTO sessions (id, working_dir, session_type, created_at)"
            " VALUES (?, '/tmp', 'scheduled', '2026-11-20 10:00:00')",
            (SECOND,),
        )
        for number, (role, content) in enumerate(MESSAGES):
            db.execute(
                "INSERT INTO messages (session_id, role, content_json, created_timestamp)"
                " VALUES (?, ?, ?, ?)",
                (FIRST, role, json.dumps(content), START + number),
            )
        db.commit()
    return path


def _home(tmp_path: Path) -> Path:
    _database(tmp_path / ".local" / "share" / "goose" / "sessions" / "sessions.db")
    return tmp_path


def _db(home: Path) -> Path:
    return home / ".local" / "share" / "goose" / "sessions" / "sessions.db"


def test_the_store_follows_gooses_own_data_folder(tmp_path: Path) -> None:
    linux, mac = session.session_stores({}, tmp_path)
    assert linux.root == tmp_path / ".local" / "share" / "goose" / "sessions"
    assert mac.root == tmp_path / "Library" / "Application Support" / "Block" / "goose" / "sessions"
    (moved,) = session.session_stores({"GOOSE_PATH_ROOT": "/srv/goose"}, tmp_path)
    assert moved.root == Path("/srv/goose/data/sessions")
    relative = session.session_stores({"GOOSE_PATH_ROOT": "relative"}, tmp_path)
    assert relative[0].root == linux.root  # goose ignores a relative root
    (xdg, _) = session.session_stores({"XDG_DATA_HOME": "/xdg"}, tmp_path)
    assert xdg.root == Path("/xdg/goose/sessions")


def test_every_session_row_is_a_session_read_with_its_times(tmp_path: Path) -> None:
    path = _db(_home(tmp_path))
    assert session.session_keys(path) == [FIRST, SECOND]
    entries = session_entries(session.create_stdout_parser, session.session_records(path, FIRST))
    assert problems(entries) == []
    init = entries[0]
    assert (init["sessionId"], init["model"], init["cwd"], init["ts"]) == (
        FIRST,
        "claude-sonnet-4-6",
        "/home/ada/app",
        "2026-11-20T09:00:00.000Z",
    )
    kinds = [entry["kind"] for entry in entries]
    assert kinds == ["init", "system", "user", "assistant", "tool_call", "tool_result", "assistant"]
    result = entries[5]
    assert (result["toolName"], result["content"], result["isError"]) == (
        "developer__shell",
        "2 failed",
        False,
    )
    assert entries[-1]["ts"] == "2026-11-20T09:00:03.000Z"
    assert not any(entry.get("delta") for entry in entries)  # whole messages, not fragments


def test_the_summary_reads_the_accumulated_tokens_and_keeps_gooses_cost_apart(
    tmp_path: Path,
) -> None:
    summary = session.summarize_run(session.session_records(_db(_home(tmp_path)), FIRST))
    assert summary.token_usage == TokenUsage(uncached_input=2400, output=180)
    assert summary.cost_usd is None
    assert summary.details["gooseAccumulatedCostUsd"] == 0.0123
    assert (summary.model, summary.outcome, summary.complete) == (
        "claude-sonnet-4-6",
        "completed",
        True,
    )
    assert summary.details["toolCalls"] == 1
    empty = session.summarize_run(session.session_records(_db(tmp_path), SECOND))
    assert empty.token_usage.is_empty and empty.outcome is None


def test_an_older_session_file_is_read_from_its_metadata_line(tmp_path: Path) -> None:
    folder = tmp_path / ".local" / "share" / "goose" / "sessions"
    folder.mkdir(parents=True)
    metadata = {
        "working_dir": "/home/ada/old",
        "description": "Rename the module",
        "message_count": 2,
        "accumulated_input_tokens": 500,
        "accumulated_output_tokens": 60,
    }
    lines = [
        metadata,
        {"id": "m1", "role": "user", "created": START, "content": [_text("rename utils")]},
        {"role": "assistant", "created": START + 5, "content": [_text("Renamed.")]},
    ]
    path = folder / "20250301_101500.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\nnot json\n")
    assert session.session_keys(path) == ["20250301_101500"]
    entries = session_entries(session.create_stdout_parser, session.session_records(path))
    assert [e["kind"] for e in entries] == ["init", "system", "user", "assistant", "stdout"]
    assert entries[0]["cwd"] == "/home/ada/old"
    assert entries[0]["ts"] == "2026-11-20T09:00:00.000Z"  # the first message's, not the file's
    assert entries[2] == {"kind": "user", "ts": "2026-11-20T09:00:00.000Z", "text": "rename utils"}
    summary = session.summarize_run(session.session_records(path))
    assert summary.token_usage == TokenUsage(uncached_input=500, output=60)


def test_the_stream_samples_goose_wrote_read_as_messages_too() -> None:
    # The stream's message events and the store's records share one shape.
    path = corpus_path("field-samples", "goose", "goose-stream-json-integrator-fixtures.jsonl")
    lines = [json.dumps({"type": "goose_session", "session": {"id": "s"}})]
    lines += [
        line
        for line in path.read_text().splitlines()
        if '"type":"message"' in line.replace(" ", "")
    ]
    assert len(lines) > 2
    entries = session_entries(session.create_stdout_parser, lines)
    assert entries[0]["kind"] == "init"
    assert not [entry for entry in entries if entry["kind"] == "stdout"]


def test_sessions_lists_every_session_and_render_shows_no_raw_records(tmp_path: Path) -> None:
    home = _home(tmp_path)
    _, found = listed(home, "--cli", "goose")
    by_id = {item["id"]: item for item in found}
    assert set(by_id) == {FIRST, SECOND}
    first = by_id[FIRST]
    assert (first["project"], first["started"], first["ended"]) == (
        "/home/ada/app",
        "2026-11-20T09:00:00.000Z",
        "2026-11-20T09:00:03.000Z",
    )
    assert first["tokenUsage"]["uncachedInput"] == 2400
    assert first["firstPrompt"] == "List the failing tests"
    code, stderr, entries = rendered(home, FIRST)
    assert code == 0, stderr
    assert not [e for e in entries if e["kind"] == "stdout"]


def test_a_view_for_a_table_is_refused_and_damaged_files_break_nothing_else(
    tmp_path: Path,
) -> None:
    home = _home(tmp_path)
    mac = home / "Library" / "Application Support" / "Block" / "goose" / "sessions" / "sessions.db"
    mac.parent.mkdir(parents=True)
    with closing(sqlite3.connect(mac)) as db:
        db.executescript(
            "CREATE TABLE sessions (id TEXT); CREATE VIEW messages AS WITH RECURSIVE "
            "r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r;"
        )
    plant_hostile(_db(home).parent, lambda stem: Path(f"{stem}.jsonl"))
    stderr, found = listed(home, "--cli", "goose")
    assert "not a Goose database: its 'messages' is a view" in stderr
    assert {FIRST, SECOND, "truncated", "binary", "huge"} <= {item["id"] for item in found}
    code, stderr, _ = rendered(home, "binary")
    assert code == 1 and "binary file" in stderr
    with pytest.raises(sqlite3.DatabaseError, match="is a view"):
        session.session_keys(mac)
