"""Where Hermes Agent keeps its sessions, and one session as the lines ``hermes_session`` reads.

Hermes (NousResearch/hermes-agent) keeps every session in one SQLite database,
``$HERMES_HOME/state.db`` (``~/.hermes``; a named profile's under
``profiles/<name>/``), as ``hermes_state_common.py``'s ``SCHEMA_SQL`` declares:
a ``sessions`` row per session (``id``, ``source``, ``model``, ``cwd``,
``title``, ``parent_session_id``, ``started_at``/``ended_at`` in epoch
seconds, ``end_reason``, token and cost counters) and its ``messages``
(OpenAI-style: ``role``, ``content``, ``tool_calls`` JSON, ``tool_call_id``,
``tool_name``, ``timestamp``, ``finish_reason``, ``reasoning``), with the
tokens per model in ``session_model_usage``. Hermes also writes each session
as a document, ``sessions/session_<id>.json`` (``session_id``, ``model``,
``platform``, ``session_start``, ``last_updated``, ``messages``).

:func:`session_records` gives, for either, one ``{"type": "hermes_session",
"session": {...}}`` line, one ``{"type": "hermes_message", "message": {...}}``
line per message, and for the database one ``{"type": "hermes_model_usage",
...}`` line per model. The database is read through
:class:`~linewise_contracts.store_database.StoreDatabase` (read-only, bounded,
plain tables only); a session document beside a database that holds the same
session is not listed twice.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Final

from linewise_contracts.extract import as_list, as_object, as_string, to_json_text
from linewise_contracts.sessions import SessionStore, read_document, record_lines, store_root
from linewise_contracts.store_database import StoreDatabase, is_sqlite_file

# Defined beside the sniff, which detection imports alone.
from linewise_hermes.session.sniff import MESSAGE_RECORD, SESSION_RECORD, USAGE_RECORD

__all__ = [
    "MESSAGE_RECORD",
    "SESSION_RECORD",
    "USAGE_RECORD",
    "session_keys",
    "session_records",
    "session_stores",
]

_DATABASE: Final = "state.db"
# The session columns a record carries (older schemas lack some: those are left out).
_SESSION_COLUMNS: Final = (
    "id",
    "source",
    "model",
    "cwd",
    "title",
    "parent_session_id",
    "started_at",
    "ended_at",
    "end_reason",
    "message_count",
    "tool_call_count",
    "api_call_count",
    "input_tokens",
    "output_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
    "reasoning_tokens",
    "billing_provider",
    "estimated_cost_usd",
    "actual_cost_usd",
    "cost_status",
    "cost_source",
)
_MESSAGE_COLUMNS: Final = (
    "role",
    "content",
    "tool_call_id",
    "tool_calls",
    "tool_name",
    "timestamp",
    "finish_reason",
    "reasoning",
    "reasoning_content",
    "active",
)
_USAGE_COLUMNS: Final = (
    "model",
    "billing_provider",
    "api_call_count",
    "input_tokens",
    "output_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
    "reasoning_tokens",
)
# A session document's name: session_<id>.json, the id without separators.
_DOCUMENT: Final = re.compile(r"session_([A-Za-z0-9][A-Za-z0-9_.:-]{0,127})\.json")


def session_stores(environ: Mapping[str, str], home: Path) -> list[SessionStore]:
    """Hermes' stores: ``$HERMES_HOME`` (``~/.hermes``) and its named profiles."""
    root = store_root(environ.get("HERMES_HOME"), home, ".hermes")
    patterns = (
        _DATABASE,
        f"profiles/*/{_DATABASE}",
        "sessions/session_*.json",
        "profiles/*/sessions/session_*.json",
    )
    return [SessionStore("hermes", root, patterns)]


def _open(path: Path) -> StoreDatabase:
    return StoreDatabase(
        path, ("sessions", "messages"), name="Hermes", optional_tables=("session_model_usage",)
    )


def _known(database: StoreDatabase, table: str, wanted: tuple[str, ...]) -> list[str]:
    present = database.columns(table)
    return [column for column in wanted if column in present]


def session_keys(path: Path) -> list[str]:
    """The database's session ids, oldest first; a session document's id, unless the
    ``state.db`` beside its folder holds that session too (then it is read from there)."""
    if not is_sqlite_file(path):
        match = _DOCUMENT.fullmatch(path.name)
        if match is None:
            return []
        beside = path.parent.parent / _DATABASE
        if is_sqlite_file(beside) and _holds(beside, match.group(1)):
            return []
        return [match.group(1)]
    with _open(path) as database:
        order = "started_at, id" if "started_at" in database.columns("sessions") else "id"
        rows = database.rows(f"SELECT id FROM sessions ORDER BY {order}")
        return [row["id"] for row in rows if type(row["id"]) is str and row["id"]]


def _holds(path: Path, key: str) -> bool:
    import sqlite3

    try:
        with _open(path) as database:
            found = database.rows("SELECT 1 AS one FROM sessions WHERE id = ? LIMIT 1", [key])
            return any(True for _ in found)
    except (sqlite3.Error, OSError):
        return False  # an unreadable database: the document is the session


def _parsed(value: object) -> object:
    """A JSON column (``tool_calls``) as its value; text that is not JSON as it is."""
    if type(value) is not str or value[:1] not in ("[", "{"):
        return value
    try:
        return json.loads(value)
    except (ValueError, RecursionError):
        return value


def _database_records(path: Path, key: str | None) -> Iterator[str]:
    if key is None:
        keys = session_keys(path)
        if not keys:
            return
        key = keys[-1]  # the newest session, when none is named
    with _open(path) as database:
        columns = ", ".join(_known(database, "sessions", _SESSION_COLUMNS))
        found = list(database.rows(f"SELECT {columns} FROM sessions WHERE id = ?", [key]))
        if not found:
            raise KeyError(f"no session {key!r} in {path}")
        session = {name: value for name, value in found[0].items() if value is not None}
        parent = session.get("parent_session_id")
        if type(parent) is str and parent and "end_reason" in database.columns("sessions"):
            for row in database.rows("SELECT end_reason FROM sessions WHERE id = ?", [parent]):
                if row["end_reason"] is not None:
                    session["parent_end_reason"] = row["end_reason"]
        yield to_json_text({"type": SESSION_RECORD, "session": session})
        wanted = _known(database, "messages", _MESSAGE_COLUMNS)
        order = "timestamp, id" if "timestamp" in wanted else "id"
        query = f"SELECT {', '.join(wanted)} FROM messages WHERE session_id = ? ORDER BY {order}"
        for row in database.rows(query, [key]):
            message = {name: value for name, value in row.items() if value is not None}
            if "tool_calls" in message:
                message["tool_calls"] = _parsed(message["tool_calls"])
            yield to_json_text({"type": MESSAGE_RECORD, "message": message})
        if database.has("session_model_usage"):
            usage = ", ".join(_known(database, "session_model_usage", _USAGE_COLUMNS))
            query = f"SELECT {usage} FROM session_model_usage WHERE session_id = ?"
            for row in database.rows(query, [key]):
                yield to_json_text({"type": USAGE_RECORD, **row})


def _document_records(path: Path) -> Iterator[str]:
    text = read_document(path)
    if text is None:  # too big to hold whole: its lines, each bounded (shown, not lost)
        yield from record_lines(path)
        return
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        document = None
    if type(document) is not dict:
        del text
        yield from record_lines(path)  # not a session document: shown as it is
        return
    match = _DOCUMENT.fullmatch(path.name)
    session: dict[str, Any] = {
        "id": as_string(document.get("session_id")) or (match.group(1) if match else path.stem),
    }
    for source, target in (
        ("model", "model"),
        ("platform", "source"),
        ("session_start", "started_at"),
        ("last_updated", "last_activity"),
        ("cwd", "cwd"),
        ("title", "title"),
    ):
        if document.get(source) is not None:
            session[target] = document[source]
    yield to_json_text({"type": SESSION_RECORD, "session": session})
    for message in as_list(document.get("messages")):
        yield to_json_text({"type": MESSAGE_RECORD, "message": as_object(message) or message})


def session_records(path: Path, key: str | None = None) -> Iterator[str]:
    """The session ``key`` of the database at ``path`` (the newest when None), or a document.

    Raises ``KeyError`` for a key the database does not hold and
    ``sqlite3.Error`` for a database it cannot read (with the reason).
    """
    if is_sqlite_file(path):
        yield from _database_records(path, key)
    else:
        yield from _document_records(path)
