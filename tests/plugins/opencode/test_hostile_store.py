"""A damaged or hostile opencode.db is read in bounded time and memory, and breaks nothing else.

Each database is built by the test, a few KB on disk: a ``session`` view over an
endless recursive query, a ``message`` view (or a computed column) that makes
hundreds of MB, a session that is its own child many times over. The commands
run in a child under the test's own limits (a timeout and an address-space
rlimit): a hang or a runaway fails the test instead of the suite. Next to the
database lies an ordinary Claude session, which must list and render whatever
the database does.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
from bounded import run_bounded

TIMEOUT = 90.0
MEMORY_MIB = 1024
CLAUDE_SESSION = "0b5c3c2e-3f1a-4d6e-9a7b-1c2d3e4f5a6b"
_CLI = """
import sys
from linewise.cli import main
sys.exit(main(sys.argv[1:]))
"""

_SESSION_TABLE = """CREATE TABLE session (id text, project_id text, parent_id text, slug text,
  directory text, title text, version text, model text, time_created integer,
  time_updated integer);"""
_MESSAGE_TABLE = """CREATE TABLE message (id text, session_id text, time_created integer,
  time_updated integer, data text);"""
_PART_TABLE = """CREATE TABLE part (id text, message_id text, session_id text,
  time_created integer, time_updated integer, data text);"""
# Rows without end: an ORDER BY over them never finishes.
_ENDLESS_SESSIONS = """CREATE VIEW session AS
  WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)
  SELECT 'ses_' || n AS id, 'p' AS project_id, NULL AS parent_id, 's' AS slug,
    '/w' AS directory, 't' AS title, '1' AS version, NULL AS model,
    n AS time_created, n AS time_updated FROM r;"""
# 600 messages of 1 MB each, made from nothing: 600 MB from a file of a few KB.
_HUGE_MESSAGES = """CREATE VIEW message AS
  WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 600)
  SELECT 'msg_' || n AS id, 'ses_a' AS session_id, n AS time_created, n AS time_updated,
    '{"role": "user", "pad": "' || hex(zeroblob(500000)) || '"}' AS data FROM r;"""
_COMPUTED_MESSAGES = """CREATE TABLE message (id text, session_id text, time_created integer,
  time_updated integer, data text GENERATED ALWAYS AS
  ('{"role": "user", "pad": "' || hex(zeroblob(50000000)) || '"}') VIRTUAL);"""


def _session_rows(db: sqlite3.Connection, rows: list[tuple[str, str | None]]) -> None:
    for number, (ident, parent) in enumerate(rows):
        db.execute(
            "INSERT INTO session VALUES (?, 'p', ?, 's', '/w', 't', '1', NULL, ?, ?)",
            (ident, parent, number, number),
        )


def _endless_sessions(db: sqlite3.Connection) -> None:
    db.executescript(_ENDLESS_SESSIONS + _MESSAGE_TABLE + _PART_TABLE)


def _huge_messages(db: sqlite3.Connection) -> None:
    db.executescript(_SESSION_TABLE + _HUGE_MESSAGES + _PART_TABLE)
    _session_rows(db, [("ses_a", None)])


def _computed_messages(db: sqlite3.Connection) -> None:
    db.executescript(_SESSION_TABLE + _COMPUTED_MESSAGES + _PART_TABLE)
    _session_rows(db, [("ses_a", None)])
    db.execute(
        "INSERT INTO message (id, session_id, time_created, time_updated) "
        "VALUES ('msg_1', 'ses_a', 1, 1)"
    )


def _own_child(db: sqlite3.Connection) -> None:
    # ses_a is a top-level session and, four times over, its own child: walked naively,
    # 4^16 trees of its 50 messages.
    db.executescript(_SESSION_TABLE + _MESSAGE_TABLE + _PART_TABLE)
    _session_rows(db, [("ses_a", None)] + [("ses_a", "ses_a")] * 4)
    for number in range(50):
        data = json.dumps({"role": "user", "time": {"created": number}})
        db.execute(
            "INSERT INTO message VALUES (?, 'ses_a', ?, ?, ?)",
            (f"msg_{number:03}", number, number, data),
        )
        part = json.dumps({"type": "text", "text": f"message {number}"})
        db.execute(
            "INSERT INTO part VALUES (?, ?, 'ses_a', ?, ?, ?)",
            (f"prt_{number:03}", f"msg_{number:03}", number, number, part),
        )


HOSTILE: dict[str, Callable[[sqlite3.Connection], None]] = {
    "endless session view": _endless_sessions,
    "huge message view": _huge_messages,
    "computed message column": _computed_messages,
    "session its own child": _own_child,
}


def _home(tmp_path: Path, build: Callable[[sqlite3.Connection], None]) -> Path:
    home = tmp_path / "home"
    store = home / ".local" / "share" / "opencode"
    store.mkdir(parents=True)
    with closing(sqlite3.connect(store / "opencode.db")) as db:
        build(db)
        db.commit()
    project = home / ".claude" / "projects" / "-work-demo"
    project.mkdir(parents=True)
    record = {
        "type": "user",
        "sessionId": CLAUDE_SESSION,
        "cwd": "/work/demo",
        "timestamp": "2026-01-01T00:00:00Z",
        "message": {"role": "user", "content": "an unrelated claude session"},
    }
    (project / f"{CLAUDE_SESSION}.jsonl").write_text(json.dumps(record) + "\n")
    return home


def _linewise(home: Path, *args: str) -> tuple[int | None, str, str]:
    env = {**os.environ, "HOME": str(home), "LINEWISE_CACHE_DIR": str(home / "cache")}
    for name in ("XDG_DATA_HOME", "CLAUDE_CONFIG_DIR", "LINEWISE_ISOLATE"):
        env.pop(name, None)
    ended = run_bounded(_CLI, timeout=TIMEOUT, memory_mib=MEMORY_MIB, env=env, args=args)
    assert not ended.timed_out, str(ended)
    return ended.returncode, ended.stdout, ended.stderr


@pytest.mark.parametrize("build", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_database_leaves_the_other_stores_listed_and_rendered(
    tmp_path: Path, build: Callable[[sqlite3.Connection], None]
) -> None:
    home = _home(tmp_path, build)
    code, out, err = _linewise(home, "sessions", "--json", "--no-cache")
    assert code == 0, err[-3000:]
    ids = [info["id"] for info in json.loads(out)["sessions"]]
    assert CLAUDE_SESSION in ids
    code, out, err = _linewise(home, "render", CLAUDE_SESSION, "-f", "text")
    assert code == 0, err[-3000:]
    assert "an unrelated claude session" in out


@pytest.mark.parametrize(
    ("build", "what"),
    [
        (_endless_sessions, "'session' is a view"),
        (_huge_messages, "'message' is a view"),
        (_computed_messages, "'message' has computed columns"),
    ],
    ids=["endless session view", "huge message view", "computed message column"],
)
def test_a_database_whose_tables_are_not_tables_is_refused_with_a_reason(
    tmp_path: Path, build: Callable[[sqlite3.Connection], None], what: str
) -> None:
    home = _home(tmp_path, build)
    database = home / ".local" / "share" / "opencode" / "opencode.db"
    code, _, err = _linewise(home, "render", str(database), "-a", "opencode_session")
    assert code != 0
    assert "not an OpenCode database" in err and what in err, err[-3000:]
    assert "MemoryError" not in err and "Traceback" not in err


def test_a_session_that_is_its_own_child_is_read_once(tmp_path: Path) -> None:
    home = _home(tmp_path, _own_child)
    code, out, err = _linewise(home, "render", "ses_a", "-f", "jsonl")
    assert code == 0, err[-3000:]
    texts = [json.loads(line).get("text") for line in out.splitlines()]
    assert sorted(text for text in texts if text and text.startswith("message ")) == sorted(
        f"message {number}" for number in range(50)
    )


_BUDGET = """
import sys
from pathlib import Path
from linewise_opencode.session.store import _connect
connection, budget = _connect(Path(sys.argv[1]))
try:
    connection.execute(
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r"
    ).fetchall()
except Exception as error:
    print(type(error).__name__, error, budget.spent)
"""


def test_a_query_that_never_ends_is_stopped_by_the_step_budget(tmp_path: Path) -> None:
    home = _home(tmp_path, _own_child)
    database = home / ".local" / "share" / "opencode" / "opencode.db"
    ended = run_bounded(_BUDGET, timeout=TIMEOUT, memory_mib=MEMORY_MIB, args=(str(database),))
    assert ended.returncode == 0 and not ended.timed_out, str(ended)
    assert ended.stdout.strip() == "OperationalError interrupted True"


def test_a_storage_session_that_starts_itself_as_a_subagent_is_read_once(tmp_path: Path) -> None:
    from linewise_opencode.session.store import session_records

    storage = tmp_path / "opencode" / "storage"
    session = storage / "session" / "prj_demo" / "ses_loop.json"
    session.parent.mkdir(parents=True)
    session.write_text(json.dumps({"id": "ses_loop", "directory": "/w"}))
    message = storage / "message" / "ses_loop" / "msg_one.json"
    message.parent.mkdir(parents=True)
    message.write_text(json.dumps({"id": "msg_one", "sessionID": "ses_loop", "role": "user"}))
    part = storage / "part" / "msg_one" / "prt_one.json"
    part.parent.mkdir(parents=True)
    task = {"type": "tool", "tool": "task", "callID": "call_1"}
    task["state"] = {"status": "completed", "metadata": {"sessionId": "ses_loop"}}
    part.write_text(json.dumps(task))
    lines = list(session_records(session))
    assert [json.loads(line).get("type") for line in lines] == ["session", None]


def test_a_session_with_more_subagents_than_the_cap_says_where_it_stopped(
    tmp_path: Path,
) -> None:
    from linewise_opencode.session.store import _MAX_SESSIONS, session_records

    path = tmp_path / "opencode.db"
    with closing(sqlite3.connect(path)) as db:
        db.executescript(_SESSION_TABLE + _MESSAGE_TABLE + _PART_TABLE)
        rows = [("ses_top", None)] + [(f"ses_{n:05}", "ses_top") for n in range(_MAX_SESSIONS)]
        _session_rows(db, rows)
        db.commit()
    records = [json.loads(line) for line in session_records(path, "ses_top")]
    kinds = [record.get("type") for record in records]
    assert kinds.count("subagent") == _MAX_SESSIONS - 1  # the session itself is one of them
    assert kinds[-1] == "subagents-left-out"
    assert "the rest are not read" in records[-1]["reason"]
