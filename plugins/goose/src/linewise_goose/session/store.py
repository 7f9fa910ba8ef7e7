"""Where Goose keeps its sessions, and one session as the lines ``goose_session`` reads.

Goose (block/goose, now aaif-goose/goose) keeps its sessions in the data
folder ``config/paths.rs`` names (``$GOOSE_PATH_ROOT/data`` when set, else
``$XDG_DATA_HOME/goose``, ``~/.local/share/goose``; on macOS
``~/Library/Application Support/Block/goose``), under ``sessions/``:

- current versions: one SQLite database, ``sessions.db`` (``session/session_storage.rs``
  and ``migrations.rs``): a ``sessions`` row per session (``id``, ``name``,
  ``description``, ``session_type``, ``working_dir``, ``created_at``,
  ``updated_at``, the last and the accumulated ``input_tokens`` /
  ``output_tokens`` / ``total_tokens``, ``provider_name``,
  ``model_config_json``, ``accumulated_cost``) and its ``messages``
  (``role``, ``content_json``: goose's message content parts,
  ``created_timestamp`` in epoch seconds);
- older versions: one ``<yyyymmdd_hhmmss>.jsonl`` per session
  (``session/storage.rs``): a metadata line (``working_dir``,
  ``description``, the token counts) then one goose Message per line.

:func:`session_records` gives both as ``{"type": "goose_session", "session":
{...}}`` then ``{"type": "message", "message": {role, created, content}}``
lines: the shape of ``goose run --output-format stream-json``'s message
events, which the stream parser reads. The database is read through
:class:`~linewise_contracts.store_database.StoreDatabase` (read-only,
bounded, plain tables only).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Final

from linewise_contracts.extract import parse_json_object, to_json_text
from linewise_contracts.sessions import SessionStore, record_lines, store_root
from linewise_contracts.store_database import StoreDatabase, is_sqlite_file

# Defined beside the sniff, which detection imports alone.
from linewise_goose.session.sniff import SESSION_RECORD

__all__ = ["SESSION_RECORD", "session_keys", "session_records", "session_stores"]

_SESSION_COLUMNS: Final = (
    "id",
    "name",
    "description",
    "session_type",
    "working_dir",
    "created_at",
    "updated_at",
    "input_tokens",
    "output_tokens",
    "total_tokens",
    "accumulated_input_tokens",
    "accumulated_output_tokens",
    "accumulated_total_tokens",
    "provider_name",
    "model_config_json",
    "accumulated_cost",
    "schedule_id",
)
# What a metadata line of an older session file holds (a message line has a role).
_METADATA_KEYS: Final = frozenset({"working_dir", "description", "message_count"})


def session_stores(environ: Mapping[str, str], home: Path) -> list[SessionStore]:
    """Goose's session folder (see the module docstring): the database and older files."""
    patterns = ("sessions.db", "*.jsonl")
    root = environ.get("GOOSE_PATH_ROOT", "").strip()
    if root.startswith("/"):  # goose takes an absolute root only
        return [SessionStore("goose", Path(root) / "data" / "sessions", patterns)]
    data = store_root(environ.get("XDG_DATA_HOME"), home, ".local/share") / "goose"
    mac = home / "Library" / "Application Support" / "Block" / "goose"
    return [
        SessionStore("goose", data / "sessions", patterns),
        SessionStore("goose", mac / "sessions", patterns),
    ]


def _open(path: Path) -> StoreDatabase:
    return StoreDatabase(path, ("sessions", "messages"), name="Goose")


def session_keys(path: Path) -> list[str]:
    """The database's session ids, oldest first; an older session file's name."""
    if not is_sqlite_file(path):
        return [path.stem]
    with _open(path) as database:
        order = "created_at, id" if "created_at" in database.columns("sessions") else "id"
        rows = database.rows(f"SELECT id FROM sessions ORDER BY {order}")
        return [row["id"] for row in rows if type(row["id"]) is str and row["id"]]


def _content(text: object) -> object:
    if type(text) is not str:
        return text
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return [{"type": "text", "text": text}]  # not goose's JSON: shown as it is


def _database_records(path: Path, key: str | None) -> Iterator[str]:
    if key is None:
        keys = session_keys(path)
        if not keys:
            return
        key = keys[-1]  # the newest session, when none is named
    with _open(path) as database:
        present = database.columns("sessions")
        columns = ", ".join(column for column in _SESSION_COLUMNS if column in present)
        found = list(database.rows(f"SELECT {columns} FROM sessions WHERE id = ?", [key]))
        if not found:
            raise KeyError(f"no session {key!r} in {path}")
        session = {name: value for name, value in found[0].items() if value is not None}
        if "model_config_json" in session:
            session["model_config"] = _content(session.pop("model_config_json"))
        yield to_json_text({"type": SESSION_RECORD, "session": session})
        order = (
            "created_timestamp, id" if "created_timestamp" in database.columns("messages") else "id"
        )
        query = (
            "SELECT role, content_json, created_timestamp FROM messages"
            f" WHERE session_id = ? ORDER BY {order}"
        )
        for row in database.rows(query, [key]):
            message: dict[str, Any] = {
                "role": row["role"],
                "created": row["created_timestamp"],
                "content": _content(row["content_json"]),
            }
            yield to_json_text({"type": "message", "message": message})


def _file_records(path: Path) -> Iterator[str]:
    lines = record_lines(path)
    head = [line for line in (next(lines, None), next(lines, None)) if line is not None]
    if not head:
        return
    session: dict[str, Any] = {"id": path.stem}
    first = parse_json_object(head[0])
    if first is not None and "role" not in first and first.keys() & _METADATA_KEYS:
        session.update(first)
        head.pop(0)
    # The metadata line has no time: the first message's (read ahead) starts the session.
    message = parse_json_object(head[0]) if head else None
    if message is not None and "created_at" not in session and "created" in message:
        session["created_at"] = message["created"]
    yield to_json_text({"type": SESSION_RECORD, "session": session})
    for line in (*head, *lines):
        record = parse_json_object(line)
        if record is not None and "role" in record:
            body = {name: value for name, value in record.items() if name != "id"}
            yield to_json_text({"type": "message", "message": body})
        else:
            yield line  # not a goose message: shown as it is


def session_records(path: Path, key: str | None = None) -> Iterator[str]:
    """The session ``key`` of ``sessions.db`` (the newest when None), or an older session file.

    Raises ``KeyError`` for a key the database does not hold and
    ``sqlite3.Error`` for a database it cannot read (with the reason).
    """
    if is_sqlite_file(path):
        yield from _database_records(path, key)
    else:
        yield from _file_records(path)
