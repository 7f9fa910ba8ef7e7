"""hermes_session: the sessions Hermes Agent keeps in ~/.hermes/state.db and sessions/*.json."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from linewise_contracts.usage import TokenUsage
from linewise_hermes import session
from session_checks import listed, problems, rendered, session_entries

# A subset of Hermes' sessions/messages/session_model_usage columns (hermes_state_common.py),
# enough for what the store reads; a real state.db has many more.
SCHEMA = """
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT,
  parent_session_id TEXT, started_at REAL NOT NULL, ended_at REAL, end_reason TEXT,
  message_count INTEGER DEFAULT 0, tool_call_count INTEGER DEFAULT 0,
  input_tokens INTEGER DEFAULT 0, output_tokens INTEGER DEFAULT 0,
  cache_read_tokens INTEGER DEFAULT 0, cache_write_tokens INTEGER DEFAULT 0,
  reasoning_tokens INTEGER DEFAULT 0, cwd TEXT, billing_provider TEXT,
  estimated_cost_usd REAL, actual_cost_usd REAL, cost_status TEXT, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL,
  role TEXT NOT NULL, content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT,
  timestamp REAL NOT NULL, token_count INTEGER, finish_reason TEXT, reasoning TEXT);
CREATE TABLE session_model_usage (session_id TEXT NOT NULL, model TEXT NOT NULL,
  input_tokens INTEGER NOT NULL DEFAULT 0, output_tokens INTEGER NOT NULL DEFAULT 0,
  cache_read_tokens INTEGER NOT NULL DEFAULT 0, cache_write_tokens INTEGER NOT NULL DEFAULT 0,
  reasoning_tokens INTEGER NOT NULL DEFAULT 0);
"""
FIRST = "20261120_090000_a1b2c3"
SECOND = "20261120_100000_d4e5f6"
START = 1795165200.0  # 2026-11-20T09:00:00Z


def _calls(*calls: tuple[str, str, dict[str, Any]]) -> str:
    return json.dumps(
        [
            {
                "id": ident,
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(args)},
            }
            for ident, name, args in calls
        ]
    )


def _database(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with closing(sqlite3.connect(path)) as db:
        db.executescript(SCHEMA)
        db.execute(
            "INSERT INTO sessions (id, source, model, started_at, ended_at, end_reason,"
            " input_tokens, output_tokens, cache_read_tokens, cache_write_tokens,"
            " reasoning_tokens, cwd, billing_provider, estimated_cost_usd, actual_cost_usd,"
            " cost_status, title) VALUES (?, 'cli', 'anthropic/claude-sonnet-4.6', ?, ?,"
            " 'compression', 1200, 300, 5000, 800, 40, '/home/ada/site', 'openrouter', 0.021,"
            " 0.019, 'actual', 'Fix the build')",
            (FIRST, START, START + 600),
        )
        db.execute(
            "INSERT INTO sessions (id, source, model, parent_session_id, started_at)"
            " VALUES (?, 'cli', 'anthropic/claude-sonnet-4.6', ?, ?)",
            (SECOND, FIRST, START + 601),
        )
        rows = [
            (FIRST, "system", "You are Hermes. " * 40, None, None, None, START, None, None),
            (FIRST, "user", "The build fails on main", None, None, None, START + 1, None, None),
            (
                FIRST,
                "assistant",
                "",
                None,
                _calls(("call_1", "terminal", {"command": "make"})),
                None,
                START + 2,
                "tool_calls",
                "Run make first",
            ),
            (
                FIRST,
                "tool",
                "make: *** [all] Error 2",
                "call_1",
                None,
                "terminal",
                START + 3,
                None,
                None,
            ),
            (
                FIRST,
                "assistant",
                "A header is missing; added it.",
                None,
                None,
                None,
                START + 4,
                "stop",
                None,
            ),
        ]
        db.executemany(
            "INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls,"
            " tool_name, timestamp, finish_reason, reasoning) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        db.execute(
            "INSERT INTO session_model_usage VALUES (?, 'anthropic/claude-sonnet-4.6', 1000, 250,"
            " 5000, 800, 40), (?, 'openai/gpt-5-mini', 200, 50, 0, 0, 0)",
            (FIRST, FIRST),
        )
        db.commit()
    return path


def _home(tmp_path: Path) -> Path:
    _database(tmp_path / ".hermes" / "state.db")
    return tmp_path


def test_the_store_is_hermes_home_its_profiles_and_session_documents(tmp_path: Path) -> None:
    (store,) = session.session_stores({}, tmp_path)
    assert (store.cli, store.root) == ("hermes", tmp_path / ".hermes")
    (moved,) = session.session_stores({"HERMES_HOME": "/srv/hermes"}, tmp_path)
    assert moved.root == Path("/srv/hermes")
    _database(tmp_path / ".hermes" / "profiles" / "coder" / "state.db")
    found = [
        p.relative_to(store.root).as_posix() for pt in store.patterns for p in store.root.glob(pt)
    ]
    assert found == ["profiles/coder/state.db"]


def test_every_session_row_is_a_session_oldest_first(tmp_path: Path) -> None:
    path = _home(tmp_path) / ".hermes" / "state.db"
    assert session.session_keys(path) == [FIRST, SECOND]


def test_a_session_reads_with_its_own_times_and_paired_tool_calls(tmp_path: Path) -> None:
    path = _home(tmp_path) / ".hermes" / "state.db"
    entries = session_entries(session.create_stdout_parser, session.session_records(path, FIRST))
    assert problems(entries) == []
    init = entries[0]
    assert (init["sessionId"], init["model"], init["cwd"]) == (
        FIRST,
        "anthropic/claude-sonnet-4.6",
        "/home/ada/site",
    )
    assert init["ts"] == "2026-11-20T09:00:00.000Z"
    kinds = [entry["kind"] for entry in entries]
    assert kinds == [
        "init",
        "system",  # title
        "system",  # source
        "system",  # the system prompt, shortened
        "user",
        "thinking",
        "tool_call",
        "tool_result",
        "assistant",
    ]
    assert len(entries[3]["text"]) < 400
    call, result = entries[6], entries[7]
    assert (call["name"], call["input"]) == ("terminal", {"command": "make"})
    assert (result["toolName"], result["content"]) == ("terminal", "make: *** [all] Error 2")
    assert entries[-1]["ts"] == "2026-11-20T09:00:04.000Z"


def test_a_continued_session_says_which_it_continues() -> None:
    lines = [
        json.dumps(
            {
                "type": "hermes_session",
                "session": {
                    "id": SECOND,
                    "parent_session_id": FIRST,
                    "parent_end_reason": "compression",
                },
            }
        )
    ]
    entries = session_entries(session.create_stdout_parser, lines)
    assert entries[-1]["text"] == f"continues session {FIRST} (it ended: compression)"


def test_the_summary_reads_the_rows_counters_per_model_and_the_billed_cost(tmp_path: Path) -> None:
    path = _home(tmp_path) / ".hermes" / "state.db"
    summary = session.summarize_run(session.session_records(path, FIRST))
    assert summary.token_usage == TokenUsage(
        uncached_input=1200, cache_read=5000, cache_write=800, output=300, reasoning=40
    )
    assert set(summary.model_usage) == {"anthropic/claude-sonnet-4.6", "openai/gpt-5-mini"}
    assert (summary.cost_usd, summary.cost_source) == (0.019, "reported")
    assert summary.details["hermesEstimatedCostUsd"] == 0.021
    assert (summary.outcome, summary.complete) == ("completed", True)
    assert summary.details["endReason"] == "compression"


def test_a_session_with_zero_counters_has_unknown_tokens_not_zero(tmp_path: Path) -> None:
    path = _home(tmp_path) / ".hermes" / "state.db"
    summary = session.summarize_run(session.session_records(path, SECOND))
    assert summary.token_usage.is_empty
    assert summary.cost_usd is None
    assert (summary.outcome, summary.complete) == (None, False)


def test_a_session_document_is_read_and_not_listed_twice(tmp_path: Path) -> None:
    home = _home(tmp_path)
    sessions = home / ".hermes" / "sessions"
    sessions.mkdir()
    document = {
        "session_id": "20261121_080000_ffffff",
        "model": "z-ai/glm-5.2",
        "platform": "telegram",
        "session_start": "2026-11-21T08:00:00",
        "messages": [
            {"role": "user", "content": "What is on today?"},
            {"role": "assistant", "content": "Two meetings.", "finish_reason": "stop"},
        ],
    }
    (sessions / "session_20261121_080000_ffffff.json").write_text(json.dumps(document, indent=2))
    (sessions / f"session_{FIRST}.json").write_text(
        json.dumps({"session_id": FIRST, "messages": []})
    )
    assert session.session_keys(sessions / f"session_{FIRST}.json") == []  # the database has it
    path = sessions / "session_20261121_080000_ffffff.json"
    assert session.session_keys(path) == ["20261121_080000_ffffff"]
    entries = session_entries(session.create_stdout_parser, session.session_records(path))
    assert [e["kind"] for e in entries] == ["init", "system", "user", "assistant"]
    assert entries[1]["text"] == "source: telegram"
    assert entries[0]["ts"] == "2026-11-21T08:00:00.000Z"


def test_sessions_lists_every_session_with_the_rows_facts(tmp_path: Path) -> None:
    _, found = listed(_home(tmp_path), "--cli", "hermes")
    by_id = {item["id"]: item for item in found}
    assert set(by_id) == {FIRST, SECOND}
    first = by_id[FIRST]
    assert (first["project"], first["model"], first["outcome"]) == (
        "/home/ada/site",
        "anthropic/claude-sonnet-4.6",
        "completed",
    )
    assert (first["started"], first["ended"]) == (
        "2026-11-20T09:00:00.000Z",
        "2026-11-20T09:00:04.000Z",
    )
    assert (first["costUsd"], first["costSource"]) == (0.019, "reported")
    assert first["firstPrompt"] == "The build fails on main"
    assert by_id[SECOND]["tokenUsage"]["output"] is None


def test_render_by_id_shows_no_raw_records(tmp_path: Path) -> None:
    code, stderr, entries = rendered(_home(tmp_path), FIRST)
    assert code == 0, stderr
    assert "hermes_session" in stderr
    assert not [e for e in entries if e["kind"] == "stdout"]


@pytest.mark.parametrize(
    "schema",
    [
        "CREATE TABLE sessions (id TEXT); CREATE VIEW messages AS "
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r;",
        "CREATE TABLE sessions (id TEXT);",
    ],
)
def test_a_hostile_or_foreign_database_is_refused_with_a_warning_not_a_crash(
    tmp_path: Path, schema: str
) -> None:
    path = tmp_path / ".hermes" / "state.db"
    path.parent.mkdir(parents=True)
    with closing(sqlite3.connect(path)) as db:
        db.executescript(schema)
    with pytest.raises(sqlite3.DatabaseError, match="not a Hermes database"):
        session.session_keys(path)
    stderr, found = listed(tmp_path, "--cli", "hermes")
    assert found == []
    assert "not a Hermes database" in stderr


def test_a_truncated_database_or_a_binary_document_breaks_nothing_else(tmp_path: Path) -> None:
    home = _home(tmp_path)
    whole = (home / ".hermes" / "state.db").read_bytes()
    profile = home / ".hermes" / "profiles" / "cut" / "state.db"
    profile.parent.mkdir(parents=True)
    profile.write_bytes(whole[: len(whole) // 2])
    sessions = home / ".hermes" / "sessions"
    sessions.mkdir()
    (sessions / "session_bin.json").write_bytes(b"\x00\xff\xfe" * 100)
    stderr, found = listed(home, "--cli", "hermes")
    assert {FIRST, SECOND} <= {item["id"] for item in found}
    code, stderr, _ = rendered(home, "bin")
    assert code in (0, 1) and "Traceback" not in stderr
