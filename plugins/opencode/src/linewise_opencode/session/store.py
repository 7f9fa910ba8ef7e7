"""Where OpenCode keeps its sessions, and one session as the lines ``opencode_session`` reads.

Current OpenCode keeps every session in one SQLite database,
``$XDG_DATA_HOME/opencode/opencode.db`` (``~/.local/share/opencode/opencode.db``
by default): a ``session`` table, a ``message`` table and a ``part`` table,
each row's fields in a JSON ``data`` column. Earlier versions kept the same
records as JSON files under ``opencode/storage/``: ``session/<project>/<session
id>.json``, ``message/<session id>/<message id>.json`` and ``part/<message
id>/<part id>.json``. A session can also be exported as JSON: the server's
``GET /session/:id/message`` gives ``[{info, parts}]``, and ``opencode
export`` gives ``{info, messages: [{info, parts}]}``.

:func:`session_records` turns either into the same lines:

1. a synthesised session line ``{"type": "session", "session": {...}}``: the
   session's row (``id``, ``directory``, ``title``, ``version``, ``model``,
   ``time``), or the session file's fields in the JSON storage (``model``
   taken from its first messages when it names none), or for an export
   without one, ``id``, ``directory`` and ``model`` taken from its messages;
2. one line per message, ``{"info": {...}, "parts": [...]}`` (the export's own
   shape; from the database, each row's ``data`` with its ``id`` and
   ``sessionID`` put back, parts in the order they were written);
3. for each subagent session the ``task`` tool started (a child session, its
   ``parent_id`` the session's id), a synthesised line ``{"type": "subagent",
   "session": {...}, "parentToolUseId": "<the task call's id>"}`` followed by
   the child's messages, depth first.

``session_keys`` gives a storage session file's id, or nothing for a
subagent's file (it is read nested under its parent instead). The database is
opened read-only (``mode=ro``: SQLite reads a write-ahead
log beside it, so a running OpenCode's latest messages are seen); when even
that is refused (a read-only directory without the ``-shm`` file), it is
opened ``immutable``, which reads the main file only (what is still only in
the log is not seen).

A database is read as untrusted, damaged or hostile as it may be: the
connection is ``query_only`` and does not trust its schema; ``session``,
``message`` and ``part`` must be plain tables (a view, a virtual table or a
generated column could compute without end or make gigabytes from a small
file: such a database is refused with :class:`sqlite3.DatabaseError`); no
value may be longer than ``MAX_DOCUMENT_CHARS`` bytes; each call has a budget
of SQLite steps that grows with the file's size; and the subagent walk visits
each session once (a session that is its own child is read once), at most
``_MAX_DEPTH`` deep and ``_MAX_SESSIONS`` sessions in all (a line says so
when more are left out). Files are read bounded too (``record_lines``,
``read_document``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from linewise_contracts.extract import as_object, as_string, dig, to_json_text
from linewise_contracts.sessions import (
    MAX_DOCUMENT_CHARS,
    SessionStore,
    read_document,
    record_lines,
    store_root,
)

if TYPE_CHECKING:
    import sqlite3  # imported where a database is opened: the plugin loads without it

__all__ = ["session_keys", "session_records", "session_stores"]

_SQLITE_MAGIC: Final = b"SQLite format 3\x00"
# Subagents nest; a cycle in a damaged database must not loop.
_MAX_DEPTH: Final = 16
#: Most sessions (the session and its subagents) one session's records walk.
_MAX_SESSIONS: Final = 1000
#: The tables a database must hold, as plain tables.
_TABLES: Final = ("session", "message", "part")
# SQLite's progress handler runs every this many virtual machine steps.
_STEP: Final = 1000
# Steps one call may take: a fixed part and a part per byte of the file, far above what a
# real database's queries take (a few steps per byte even for a full scan and sort).
_BASE_STEPS: Final = 100_000_000
_STEPS_PER_BYTE: Final = 64
# An OpenCode id, as it may appear in a file name (no separators, no dots).
_ID: Final = re.compile(r"[A-Za-z]{3}_[A-Za-z0-9]{1,64}")


def session_stores(environ: Mapping[str, str], home: Path) -> list[SessionStore]:
    """OpenCode's database: ``opencode/opencode.db`` in ``XDG_DATA_HOME`` or ``~/.local/share``."""
    root = store_root(environ.get("XDG_DATA_HOME"), home, ".local/share") / "opencode"
    return [SessionStore("opencode", root, ("opencode.db", "storage/session/*/*.json"))]


def _is_database(path: Path) -> bool:
    with path.open("rb") as handle:
        return handle.read(len(_SQLITE_MAGIC)) == _SQLITE_MAGIC


class _Budget:
    """SQLite's progress handler: stops a call's queries once they have taken ``steps``."""

    __slots__ = ("left", "steps")

    def __init__(self, steps: int) -> None:
        self.steps = steps
        self.left = steps // _STEP

    def __call__(self) -> int:
        self.left -= 1
        return 1 if self.left < 0 else 0  # non-zero interrupts the statement

    @property
    def spent(self) -> bool:
        return self.left < 0


def _read_only(uri: str) -> sqlite3.Connection | None:
    """The database opened ``mode=ro`` (its log read too), or None when SQLite refuses."""
    import sqlite3

    try:
        connection = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=2)
    except sqlite3.OperationalError:
        return None
    try:
        connection.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
    except sqlite3.OperationalError:
        connection.close()
        return None
    return connection


def _connect(path: Path) -> tuple[sqlite3.Connection, _Budget]:
    """The database, guarded (see the module docstring), and the budget its queries spend."""
    import sqlite3

    uri = path.resolve().as_uri()
    connection = _read_only(uri)
    if connection is None:  # the main file only, as it is
        connection = sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, timeout=2)
    try:
        connection.execute("PRAGMA query_only = ON")
        connection.execute("PRAGMA trusted_schema = OFF")
        connection.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_DOCUMENT_CHARS)
        budget = _Budget(_BASE_STEPS + _STEPS_PER_BYTE * path.stat().st_size)
        connection.set_progress_handler(budget, _STEP)
        _check_tables(connection, path)
    except BaseException:
        connection.close()
        raise
    return connection, budget


def _check_tables(connection: sqlite3.Connection, path: Path) -> None:
    """Refuse a database whose session, message or part is not a plain table."""
    import sqlite3

    marks = ",".join("?" * len(_TABLES))
    kinds = {
        name: (kind, sql)
        for name, kind, sql in connection.execute(
            f"SELECT name, type, sql FROM sqlite_master WHERE name IN ({marks})", _TABLES
        )
    }
    for name in _TABLES:
        kind, sql = kinds.get(name, (None, None))
        virtual = type(sql) is str and sql.lstrip()[:14].upper() == "CREATE VIRTUAL"
        if kind != "table" or virtual:
            what = "missing" if kind is None else f"a {'virtual table' if virtual else kind}"
            raise sqlite3.DatabaseError(
                f"{path} is not an OpenCode database: its {name!r} is {what}, not a table"
            )
        hidden = [row[1] for row in connection.execute(f"PRAGMA table_xinfo({name})") if row[6]]
        if hidden:
            raise sqlite3.DatabaseError(
                f"{path} is not an OpenCode database: {name!r} has computed columns "
                f"({', '.join(map(str, hidden))})"
            )


def _spent(error: Exception, budget: _Budget, path: Path) -> Exception:
    """The error to raise for ``error``: one that says so when the budget stopped a query."""
    import sqlite3

    if budget.spent:
        return sqlite3.OperationalError(
            f"reading {path} stopped after {budget.steps} SQLite steps: "
            "a damaged database, or not an OpenCode one"
        )
    return error


def session_keys(path: Path) -> list[str]:
    """The ids of the database's top-level sessions (not subagents'), oldest first.

    An export file holds one session: its key is its id.
    """
    if _is_storage_session(path):
        info = _read_json(path)
        return [] if info.get("parentID") else [path.stem]
    if not _is_database(path):
        records = _export_records(path)
        first = _session_id(next(records, ""))
        return [first] if first else []
    import sqlite3

    connection, budget = _connect(path)
    with closing(connection):
        try:
            rows = connection.execute(
                "SELECT id FROM session WHERE parent_id IS NULL ORDER BY time_created, id"
            ).fetchall()
        except sqlite3.Error as error:
            raise _spent(error, budget, path) from None
    return [row[0] for row in rows if type(row[0]) is str]


def _session_id(line: str) -> str:
    """The session id of a synthesised session line ("" when ``line`` is not one)."""
    try:
        record = json.loads(line)
    except ValueError:
        return ""
    return as_string(dig(record, "session", "id")) if type(record) is dict else ""


def _data(text: object) -> dict[str, Any]:
    if type(text) is not str:
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if type(value) is dict else {}


def _session_row(connection: sqlite3.Connection, key: str) -> dict[str, Any] | None:
    cursor = connection.execute("SELECT * FROM session WHERE id = ?", (key,))
    row = cursor.fetchone()
    if row is None:
        return None
    fields = dict(zip([column[0] for column in cursor.description], row, strict=True))
    model = fields.get("model")
    return {
        "id": fields.get("id"),
        "parentID": fields.get("parent_id"),
        "directory": fields.get("directory"),
        "title": fields.get("title"),
        "version": fields.get("version"),
        "model": _data(model) or model,
        "time": {"created": fields.get("time_created"), "updated": fields.get("time_updated")},
    }


def _messages(connection: sqlite3.Connection, key: str) -> list[dict[str, Any]]:
    parts: dict[str, list[dict[str, Any]]] = {}
    for ident, message, data in connection.execute(
        "SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY time_created, id",
        (key,),
    ):
        parts.setdefault(message, []).append(
            {**_data(data), "id": ident, "messageID": message, "sessionID": key}
        )
    return [
        {"info": {**_data(data), "id": ident, "sessionID": key}, "parts": parts.get(ident, [])}
        for ident, data in connection.execute(
            "SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id", (key,)
        )
    ]


def _task_calls(messages: list[dict[str, Any]]) -> dict[str, str]:
    """Child session id -> the id of the ``task`` call that started it."""
    calls: dict[str, str] = {}
    for message in messages:
        for part in message["parts"]:
            child = as_string(dig(part, "state", "metadata", "sessionId"))
            if part.get("type") == "tool" and child:
                calls[child] = as_string(part.get("callID")) or as_string(part.get("id"))
    return calls


def _database_records(path: Path, key: str | None) -> Iterator[str]:
    import sqlite3

    if key is None:
        keys = session_keys(path)
        if not keys:
            return
        key = keys[-1]  # the newest session, when none is named
    connection, budget = _connect(path)
    with closing(connection):
        try:
            session = _session_row(connection, key)
            if session is None:
                raise KeyError(f"no session {key!r} in {path}")
            yield to_json_text({"type": "session", "session": session})
            yield from _session_tree(connection, key, 0, {key})
        except sqlite3.Error as error:
            raise _spent(error, budget, path) from None


def _session_tree(
    connection: sqlite3.Connection, key: str, depth: int, seen: set[str]
) -> Iterator[str]:
    messages = _messages(connection, key)
    for message in messages:
        yield to_json_text(message)
    if depth >= _MAX_DEPTH:
        return
    calls = _task_calls(messages)
    children = connection.execute(
        "SELECT id FROM session WHERE parent_id = ? ORDER BY time_created, id", (key,)
    ).fetchall()
    for (child,) in children:
        if type(child) is not str or child in seen:
            continue  # a session that is its own child (or its parent's parent): read once
        if len(seen) >= _MAX_SESSIONS:
            yield _left_out(key)
            return
        seen.add(child)
        session = _session_row(connection, child) or {"id": child}
        line = {"type": "subagent", "session": session, "parentToolUseId": calls.get(child, "")}
        yield to_json_text(line)
        yield from _session_tree(connection, child, depth + 1, seen)


def _left_out(parent: str) -> str:
    """The line saying a walk stopped at ``_MAX_SESSIONS`` (shown raw: nothing left silently)."""
    reason = f"more than {_MAX_SESSIONS} sessions in one session's tree: the rest are not read"
    return to_json_text({"type": "subagents-left-out", "parentID": parent, "reason": reason})


def _export_records(path: Path) -> Iterator[str]:
    text = read_document(path)
    if text is None:  # too big to hold whole: its lines, each bounded (shown, not lost)
        yield from record_lines(path)
        return
    try:
        document = json.loads(text)
    except ValueError:
        document = None
    info: dict[str, Any] = {}
    if type(document) is dict:
        info = as_object(document.get("info"))
        document = document.get("messages")
    if type(document) is not list:
        del text
        yield from record_lines(path)  # shown, not lost
        return
    messages = [item for item in document if type(item) is dict]
    firsts = [as_object(item.get("info")) for item in messages]
    session: dict[str, Any] = {
        "id": as_string(info.get("id"))
        or next((as_string(i.get("sessionID")) for i in firsts), ""),
        "directory": as_string(info.get("directory"))
        or next((d for i in firsts if (d := as_string(dig(i, "path", "cwd")))), ""),
        "model": _first_model(messages),
    }
    created = next((c for i in firsts if (c := dig(i, "time", "created")) is not None), None)
    if created is not None:
        session["time"] = {"created": created}
    for name in ("title", "version", "time", "parentID"):
        if name in info:
            session[name] = info[name]
    yield to_json_text({"type": "session", "session": session})
    for item in document:
        yield to_json_text(item)


def _read_json(path: Path) -> dict[str, Any]:
    try:
        # A record file past MAX_DOCUMENT_CHARS is read as empty, not held whole.
        return _data(read_document(path))
    except OSError:  # a file removed while OpenCode wrote: as good as empty
        return {}


def _is_storage_session(path: Path) -> bool:
    """``.../storage/session/<project>/<session id>.json`` (the session id checked)."""
    parents = path.parents
    return (
        len(parents) >= 3
        and parents[1].name == "session"
        and parents[2].name == "storage"
        and path.suffix == ".json"
        and _ID.fullmatch(path.stem) is not None
    )


def _storage_messages(storage: Path, key: str) -> list[dict[str, Any]]:
    messages = []
    for file in sorted((storage / "message" / key).glob("*.json")):
        parts = [_read_json(part) for part in sorted((storage / "part" / file.stem).glob("*.json"))]
        messages.append({"info": _read_json(file), "parts": parts})
    return messages


def _storage_tree(
    storage: Path,
    project: Path,
    key: str,
    messages: list[dict[str, Any]],
    *,
    depth: int,
    seen: set[str],
) -> Iterator[str]:
    for message in messages:
        yield to_json_text(message)
    if depth >= _MAX_DEPTH:
        return
    for child, call in _task_calls(messages).items():
        if _ID.fullmatch(child) is None or not (project / f"{child}.json").is_file():
            continue  # only ids, never paths, from the records
        if child in seen:
            continue  # a session that is its own child: read once
        if len(seen) >= _MAX_SESSIONS:
            yield _left_out(key)
            return
        seen.add(child)
        session = _read_json(project / f"{child}.json") or {"id": child}
        yield to_json_text({"type": "subagent", "session": session, "parentToolUseId": call})
        children = _storage_messages(storage, child)
        yield from _storage_tree(storage, project, child, children, depth=depth + 1, seen=seen)


def _first_model(messages: list[dict[str, Any]]) -> str:
    for message in messages:
        info = as_object(message.get("info"))
        model = as_string(info.get("modelID")) or as_string(dig(info, "model", "modelID"))
        if model:
            return model
    return ""


def _storage_records(path: Path) -> Iterator[str]:
    storage = path.parents[2]
    messages = _storage_messages(storage, path.stem)
    session = {**_read_json(path), "id": path.stem}
    if not session.get("model"):
        session["model"] = _first_model(messages)
    yield to_json_text({"type": "session", "session": session})
    yield from _storage_tree(storage, path.parent, path.stem, messages, depth=0, seen={path.stem})


def session_records(path: Path, key: str | None = None) -> Iterator[str]:
    """The session ``key`` of the database at ``path`` (the newest when None), or an export.

    See the module docstring for the lines. Raises ``KeyError`` for a key the
    database does not hold, and ``sqlite3.Error`` for a database it cannot read.
    """
    if _is_storage_session(path):
        yield from _storage_records(path)
    elif _is_database(path):
        yield from _database_records(path, key)
    else:
        yield from _export_records(path)
