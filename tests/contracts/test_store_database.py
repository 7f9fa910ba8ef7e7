"""StoreDatabase: a CLI's SQLite store read-only, bounded, plain tables only (contract 1.4)."""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from linewise_contracts import store_database
from linewise_contracts.store_database import StoreDatabase, is_sqlite_file

SCHEMA = """CREATE TABLE sessions (id TEXT, title TEXT);
CREATE TABLE messages (id INTEGER, session_id TEXT, body TEXT);
INSERT INTO sessions VALUES ('s1', 'first');
INSERT INTO messages VALUES (1, 's1', 'hello'), (2, 's1', 'world');"""


def _database(tmp_path: Path, schema: str = SCHEMA, name: str = "store.db") -> Path:
    path = tmp_path / name
    with closing(sqlite3.connect(path)) as db:
        db.executescript(schema)
        db.commit()
    return path


def test_rows_come_as_dicts_and_the_file_is_never_written(tmp_path: Path) -> None:
    path = _database(tmp_path)
    before = path.read_bytes()
    with StoreDatabase(path, ("sessions", "messages"), name="Test") as db:
        assert db.columns("messages") == {"id", "session_id", "body"}
        rows = list(
            db.rows("SELECT id, body FROM messages WHERE session_id = ? ORDER BY id", ["s1"])
        )
        assert rows == [{"id": 1, "body": "hello"}, {"id": 2, "body": "world"}]
        with pytest.raises(sqlite3.OperationalError):
            list(db.rows("DELETE FROM messages"))
    assert path.read_bytes() == before
    assert not path.with_name("store.db-wal").exists()


def test_a_running_clis_write_ahead_log_is_read(tmp_path: Path) -> None:
    path = _database(tmp_path)
    writer = sqlite3.connect(path)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("INSERT INTO messages VALUES (3, 's1', 'not yet checkpointed')")
    writer.commit()
    try:
        with StoreDatabase(path, ("messages",), name="Test") as db:
            bodies = [row["body"] for row in db.rows("SELECT body FROM messages ORDER BY id")]
        assert bodies[-1] == "not yet checkpointed"
    finally:
        writer.close()


@pytest.mark.parametrize(
    ("schema", "reason"),
    [
        ("CREATE TABLE sessions (id TEXT);", "its 'messages' is missing, not a table"),
        (
            "CREATE TABLE sessions (id TEXT); CREATE VIEW messages AS "
            "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r;",
            "its 'messages' is a view, not a table",
        ),
        (
            "CREATE TABLE sessions (id TEXT); CREATE TABLE messages (id INTEGER, body TEXT "
            "GENERATED ALWAYS AS (hex(zeroblob(50000000))) VIRTUAL);",
            "'messages' has computed columns (body)",
        ),
    ],
)
def test_a_database_that_could_compute_without_end_is_refused_with_the_reason(
    tmp_path: Path, schema: str, reason: str
) -> None:
    path = _database(tmp_path, schema)
    with pytest.raises(sqlite3.DatabaseError, match=re.escape(f"is not a Test database: {reason}")):
        StoreDatabase(path, ("sessions", "messages"), name="Test")


def test_a_query_past_its_step_budget_stops_with_a_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_database, "_BASE_STEPS", 20_000)
    monkeypatch.setattr(store_database, "_STEPS_PER_BYTE", 0)
    path = _database(tmp_path)
    with StoreDatabase(path, ("messages",), name="Test") as db:
        endless = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r"
        with pytest.raises(sqlite3.OperationalError, match="stopped after 20000 SQLite steps"):
            list(db.rows(endless))


def test_a_file_that_is_not_a_database_is_told_apart(tmp_path: Path) -> None:
    text = tmp_path / "notes.json"
    text.write_text('{"not": "a database"}' * 100)
    assert not is_sqlite_file(text)
    assert not is_sqlite_file(tmp_path / "absent.db")
    assert is_sqlite_file(_database(tmp_path))
    with pytest.raises(sqlite3.DatabaseError):
        StoreDatabase(text, ("sessions",), name="Test")


def test_an_optional_table_may_be_absent_but_not_a_view(tmp_path: Path) -> None:
    path = _database(tmp_path)
    with StoreDatabase(path, ("sessions",), name="Test", optional_tables=("usage",)) as db:
        assert not db.has("usage") and db.has("sessions")
        assert db.columns("usage") == frozenset()
    viewed = _database(tmp_path, SCHEMA + "CREATE VIEW usage AS SELECT 1;", name="viewed.db")
    with pytest.raises(sqlite3.DatabaseError, match="its 'usage' is a view"):
        StoreDatabase(viewed, ("sessions",), name="Test", optional_tables=("usage",))
