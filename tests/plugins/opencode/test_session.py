"""opencode_session: OpenCode's SQLite store and session exports, read through session_records."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise_contracts import entry_problem
from linewise_contracts.compliance import run_checks
from linewise_contracts.sessions import SessionStore
from linewise_opencode import sniff as stdout_sniff
from linewise_opencode.session import (
    create_stdout_parser,
    session_keys,
    session_records,
    session_stores,
    sniff,
    summarize_run,
)
from session_checks import HOST_TS, problems, render, session_entries
from support import corpus_path, json_values

SCHEMA = """
CREATE TABLE `session` (`id` text PRIMARY KEY, `project_id` text NOT NULL, `parent_id` text,
  `slug` text NOT NULL, `directory` text NOT NULL, `title` text NOT NULL, `version` text NOT NULL,
  `model` text, `time_created` integer NOT NULL, `time_updated` integer NOT NULL);
CREATE TABLE `message` (`id` text PRIMARY KEY, `session_id` text NOT NULL,
  `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `data` text NOT NULL);
CREATE TABLE `part` (`id` text PRIMARY KEY, `message_id` text NOT NULL, `session_id` text NOT NULL,
  `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `data` text NOT NULL);
"""
T0 = 1_780_000_000_000


def _real_database() -> Path:
    return corpus_path("real-sessions", "opencode", "lantern-opencode-1.18.13-opencode.db")


def _add_session(db: sqlite3.Connection, ident: str, parent: str | None, at: int) -> None:
    db.execute(
        "INSERT INTO session VALUES (?, 'global', ?, 'slug', '/home/dev/app', ?, '1.18.20', ?, ?, ?)",
        (ident, parent, f"title of {ident}", json.dumps({"id": "claude-sonnet-4-5"}), at, at),
    )


def _add_message(
    db: sqlite3.Connection,
    *,
    session: str,
    ident: str,
    at: int,
    info: dict[str, Any],
    parts: list[dict[str, Any]],
) -> None:
    db.execute(
        "INSERT INTO message VALUES (?, ?, ?, ?, ?)",
        (ident, session, at, at, json.dumps({**info, "time": {"created": at}})),
    )
    for number, part in enumerate(parts):
        db.execute(
            "INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)",
            (f"prt_{ident}_{number}", ident, session, at + number, at + number, json.dumps(part)),
        )


def _tool(call: str, name: str, status: str, **state: Any) -> dict[str, Any]:
    return {
        "type": "tool",
        "callID": call,
        "tool": name,
        "state": {"status": status, "input": {"x": 1}, **state},
    }


@pytest.fixture
def live_database(tmp_path: Path) -> Iterator[Path]:
    """A WAL-mode database OpenCode is still writing: its rows are in the -wal file, not yet
    checkpointed into the main file, while the writer's connection stays open."""
    path = tmp_path / "opencode.db"
    with closing(sqlite3.connect(path)) as writer:
        writer.execute("PRAGMA journal_mode=WAL")
        writer.execute("PRAGMA wal_autocheckpoint=0")
        writer.executescript(SCHEMA)
        _add_session(writer, "ses_old", None, T0)
        _add_session(writer, "ses_main", None, T0 + 1000)
        _add_session(writer, "ses_child", "ses_main", T0 + 3000)
        _add_message(
            writer,
            session="ses_main",
            ident="msg_1",
            at=T0 + 1000,
            info={"role": "user"},
            parts=[
                {"type": "text", "text": "Review the code"},
                {"type": "text", "text": "<file contents>", "synthetic": True},
            ],
        )
        _add_message(
            writer,
            session="ses_main",
            ident="msg_2",
            at=T0 + 2000,
            info={"role": "assistant", "modelID": "claude-sonnet-4-5"},
            parts=[
                {"type": "step-start", "snapshot": "abc"},
                {"type": "reasoning", "text": "Delegate the review."},
                _tool(
                    "call_task",
                    "task",
                    "completed",
                    output="looks fine",
                    metadata={"sessionId": "ses_child"},
                ),
                _tool("call_hang", "bash", "running"),
                {"type": "patch", "hash": "abc", "files": ["/home/dev/app/a.py"]},
                {
                    "type": "step-finish",
                    "reason": "tool-calls",
                    "cost": 0.01,
                    "tokens": {"input": 100, "output": 20, "reasoning": 5, "cache": {"read": 50}},
                },
            ],
        )
        _add_message(
            writer,
            session="ses_child",
            ident="msg_3",
            at=T0 + 3000,
            info={
                "role": "assistant",
                "error": {"name": "APIError", "data": {"message": "overloaded"}},
            },
            parts=[
                {"type": "text", "text": "Reading a.py"},
                _tool("call_read", "read", "error", error="no such file"),
            ],
        )
        writer.commit()
        assert (tmp_path / "opencode.db-wal").stat().st_size > 0
        yield path


def test_a_live_wal_database_is_read_read_only_with_subagents_nested(live_database: Path) -> None:
    before = live_database.read_bytes()
    assert session_keys(live_database) == ["ses_old", "ses_main"]  # the child is nested, not listed
    entries = session_entries(create_stdout_parser, session_records(live_database, "ses_main"))
    assert live_database.read_bytes() == before
    assert problems(entries) == []
    assert entries[0] == {
        "kind": "init",
        "ts": "2026-05-28T20:26:41.000Z",
        "model": "claude-sonnet-4-5",
        "sessionId": "ses_main",
        "cwd": "/home/dev/app",
    }
    assert [(e["kind"], e.get("text")) for e in entries[1:4]] == [
        ("user", "Review the code"),
        ("system", "<file contents>"),
        ("thinking", "Delegate the review."),
    ]
    hang = [e for e in entries if e.get("toolUseId") == "call_hang"]
    assert hang[1]["isError"] is True and "running when the session was saved" in hang[1]["content"]
    step = next(e for e in entries if e["kind"] == "result")
    assert (step["inputTokens"], step["outputTokens"], step["cachedTokens"], step["costUsd"]) == (
        100,
        25,
        50,
        0.01,
    )
    nested = [e for e in entries if e.get("parentToolUseId") == "call_task"]
    assert [e["kind"] for e in nested] == [
        "system",
        "assistant",
        "tool_call",
        "tool_result",
        "stderr",
    ]
    assert nested[0]["text"] == "subagent session ses_child: title of ses_child"
    assert nested[-1]["text"] == "overloaded"


def test_the_newest_session_is_read_when_none_is_named_and_an_unknown_key_is_an_error(
    live_database: Path,
) -> None:
    first = next(iter(session_records(live_database)))
    assert json.loads(first)["session"]["id"] == "ses_main"
    with pytest.raises(KeyError, match="ses_nope"):
        list(session_records(live_database, "ses_nope"))


def test_every_session_of_the_real_database() -> None:
    path = _real_database()
    keys = session_keys(path)
    assert len(keys) == 3
    with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as db:
        rows = dict(db.execute("SELECT id, tokens_input FROM session").fetchall())
        created = [row[0] for row in db.execute("SELECT id FROM session ORDER BY time_created")]
    assert keys == created
    for key in keys:
        entries = session_entries(create_stdout_parser, session_records(path, key))
        assert problems(entries) == [], key
        assert entries[0]["sessionId"] == key and entries[0]["model"] == "qwen3:0.6b"
        assert entries[0]["cwd"] == "/work"
        inputs = sum(e["inputTokens"] for e in entries if e["kind"] == "result")
        assert inputs == rows[key]  # the steps add up to the session's own total


def test_the_real_export_reads_whole() -> None:
    path = corpus_path(
        "real-sessions", "opencode", "kern-orch-opencode-1.18.19-session-messages.json"
    )
    assert session_keys(path) == ["ses_fe0621d73ffeHda4Bz1EHvH4iT"]
    entries = session_entries(create_stdout_parser, session_records(path))
    assert problems(entries) == []
    assert entries[0]["model"] == "big-pickle"
    [result] = [e for e in entries if e["kind"] == "tool_result"]
    assert (
        result["toolName"] == "bash" and "hello-from-opencode-fixture-capture" in result["content"]
    )


def test_the_opencode_export_document_shape(tmp_path: Path) -> None:
    path = tmp_path / "export.json"
    document = {
        "info": {"id": "ses_x", "directory": "/srv/app", "title": "t", "time": {"created": T0}},
        "messages": [
            {
                "info": {
                    "id": "msg_1",
                    "sessionID": "ses_x",
                    "role": "user",
                    "time": {"created": T0},
                },
                "parts": [{"type": "text", "text": "hi"}, {"type": "future-part", "x": 1}],
            }
        ],
    }
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    raw = [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert sniff(raw[:40]) >= 0.9
    entries = session_entries(create_stdout_parser, session_records(path))
    assert entries[0]["cwd"] == "/srv/app" and entries[0]["model"] == ""
    assert entries[1] == {"kind": "user", "ts": "2026-05-28T20:26:40.000Z", "text": "hi"}
    assert entries[2]["kind"] == "stdout" and '"future-part"' in entries[2]["text"]  # shown raw


def test_the_sniffer_knows_the_database_the_export_and_leaves_stdout_to_opencode_local() -> None:
    text = _real_database().read_bytes().decode("utf-8", errors="replace")
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    assert sniff(lines[:40]) >= 0.9
    for path in sorted(corpus_path("real-logs", "opencode").iterdir()):
        log = [
            line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
        ]
        assert sniff(log[:40]) < 0.5, path.name
    records = list(session_records(_real_database()))
    assert sniff(records[:40]) >= 0.9
    assert stdout_sniff(records[:40]) == 0.0


def test_the_export_is_detected_by_the_host() -> None:
    path = corpus_path(
        "real-sessions", "opencode", "kern-orch-opencode-1.18.19-session-messages.json"
    )
    stderr, _ = render(path)
    assert "detected opencode_session" in stderr, stderr


def test_the_database_renders_through_the_host() -> None:
    stderr, entries = render(_real_database())
    assert "detected opencode_session" in stderr, stderr
    assert problems(entries) == []


def test_the_store_is_in_the_xdg_data_directory(tmp_path: Path) -> None:
    [store] = session_stores({}, tmp_path)
    assert store == SessionStore(
        "opencode", tmp_path / ".local/share/opencode", ("opencode.db", "storage/session/*/*.json")
    )
    [moved] = session_stores({"XDG_DATA_HOME": "/data"}, tmp_path)
    assert moved.root == Path("/data/opencode")


@given(
    st.lists(
        st.fixed_dictionaries(
            {
                "info": st.dictionaries(
                    st.sampled_from(["role", "time", "error", "sessionID"]), json_values, max_size=4
                ),
                "parts": st.lists(
                    st.dictionaries(
                        st.sampled_from(
                            [
                                "type",
                                "text",
                                "state",
                                "tool",
                                "callID",
                                "tokens",
                                "files",
                                "time",
                                "error",
                            ]
                        ),
                        json_values
                        | st.sampled_from(["tool", "text", "step-finish", "patch", "retry"]),
                        max_size=5,
                    ),
                    max_size=3,
                ),
            }
        ),
        max_size=4,
    )
)
def test_never_raises_on_hostile_messages(records: list[dict[str, Any]]) -> None:
    parser = create_stdout_parser()
    for record in records:
        for entry in parser.parse_line(json.dumps(record), HOST_TS):
            assert entry_problem(entry) is None, entry


def test_the_compliance_checks_pass() -> None:
    report = run_checks("opencode_session", examples=200)
    failed = [
        f"{result.check}: {result.message}" for result in report.results if result.status == "fail"
    ]
    assert report.ok, failed


def _write(path: Path, value: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2), encoding="utf-8")


def _storage(tmp_path: Path) -> Path:
    """The older JSON storage: a session that started a subagent, and the subagent's."""
    storage = tmp_path / ".local/share/opencode/storage"
    project = storage / "session" / "global"
    _write(
        project / "ses_main.json",
        {
            "id": "ses_main",
            "projectID": "global",
            "directory": "/srv/app",
            "title": "Fix",
            "version": "0.9.1",
            "time": {"created": T0, "updated": T0 + 9000},
        },
    )
    _write(
        project / "ses_kid.json",
        {
            "id": "ses_kid",
            "projectID": "global",
            "parentID": "ses_main",
            "directory": "/srv/app",
            "title": "Explore",
            "time": {"created": T0 + 2000},
        },
    )
    _write(
        storage / "message/ses_main/msg_1.json",
        {"id": "msg_1", "sessionID": "ses_main", "role": "user", "time": {"created": T0}},
    )
    _write(storage / "part/msg_1/prt_1.json", {"id": "prt_1", "type": "text", "text": "Fix it"})
    _write(
        storage / "message/ses_main/msg_2.json",
        {
            "id": "msg_2",
            "sessionID": "ses_main",
            "role": "assistant",
            "modelID": "gpt-5",
            "time": {"created": T0 + 1000},
        },
    )
    _write(
        storage / "part/msg_2/prt_1.json",
        _tool("call_task", "task", "completed", output="done", metadata={"sessionId": "ses_kid"}),
    )
    # A record naming a path instead of an id is not followed.
    _write(
        storage / "part/msg_2/prt_2.json",
        _tool(
            "call_bad",
            "task",
            "completed",
            output="x",
            metadata={"sessionId": "../../../etc/passwd"},
        ),
    )
    _write(
        storage / "message/ses_kid/msg_3.json",
        {
            "id": "msg_3",
            "sessionID": "ses_kid",
            "role": "assistant",
            "time": {"created": T0 + 2000},
        },
    )
    _write(storage / "part/msg_3/prt_1.json", {"id": "prt_1", "type": "text", "text": "Found it"})
    return project


def test_the_older_json_storage_is_read_with_subagents_nested(tmp_path: Path) -> None:
    project = _storage(tmp_path)
    [store] = session_stores({}, tmp_path)
    found = sorted(path for pattern in store.patterns for path in store.root.glob(pattern))
    assert found == [project / "ses_kid.json", project / "ses_main.json"]
    assert session_keys(project / "ses_main.json") == ["ses_main"]
    assert session_keys(project / "ses_kid.json") == []  # read under its parent, not listed
    raw = [
        line.strip()
        for line in (project / "ses_main.json").read_text().splitlines()
        if line.strip()
    ]
    assert sniff(raw) >= 0.9
    entries = session_entries(create_stdout_parser, session_records(project / "ses_main.json"))
    assert problems(entries) == []
    assert entries[0]["model"] == "gpt-5" and entries[0]["cwd"] == "/srv/app"
    nested = [
        (e["kind"], e.get("text")) for e in entries if e.get("parentToolUseId") == "call_task"
    ]
    assert nested == [("system", "subagent session ses_kid: Explore"), ("assistant", "Found it")]
    assert not any(e.get("parentToolUseId") == "call_bad" for e in entries)


def test_the_summary_of_the_real_database_and_export() -> None:
    path = _real_database()
    with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as db:
        rows = {
            row[0]: row[1:]
            for row in db.execute("SELECT id, tokens_input, tokens_output, cost FROM session")
        }
    for key in session_keys(path):
        summary = summarize_run(session_records(path, key))
        assert summary.session_id == key and summary.model == "qwen3:0.6b"
        assert (summary.usage.input_tokens, summary.usage.output_tokens) == rows[key][:2]
        # OpenCode records the cost: known, and 0 for this local model.
        assert summary.cost_usd == rows[key][2]
        assert (summary.outcome, summary.complete) == ("completed", True)
        assert summary.details["finishReason"] == "stop"


def test_the_summary_of_a_live_database(live_database: Path) -> None:
    summary = summarize_run(session_records(live_database, "ses_main"))
    assert summary.cost_usd == 0.01
    assert summary.errors == ("overloaded",)  # the subagent's error
    assert summary.final_text is None and summary.complete is False  # only a subagent answered


def test_a_database_sqlite_refuses_to_open_read_only_is_opened_immutable(
    live_database: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What happens in a read-only directory without the -shm file (not reproducible as
    # root): SQLite refuses mode=ro on a WAL database, and the main file is read as is.
    real_connect = sqlite3.connect
    uris: list[str] = []

    def connect(database: str, **options: Any) -> sqlite3.Connection:
        uris.append(database)
        if "immutable=1" not in database:
            raise sqlite3.OperationalError("unable to open database file")
        return real_connect(database, **options)

    with closing(sqlite3.connect(live_database)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # what is written so far: in the main file
        _add_session(db, "ses_new", None, T0 + 9000)  # and one more session in the -wal file
        db.commit()
        monkeypatch.setattr(sqlite3, "connect", connect)
        # Immutable reads the main file only: the session still in the log is not seen.
        assert session_keys(live_database) == ["ses_old", "ses_main"]
    assert uris[-1].endswith("?mode=ro&immutable=1")
