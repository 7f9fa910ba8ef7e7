"""The facts cache: one SQLite file (mode 0600) under the user's cache directory.

A row of ``facts`` is a session's :class:`~linewise.sessions.SessionInfo`,
keyed on the file's path and the session's key, and valid while the file's
size and modification time (ns) and the reader (host version, adapter type,
plugin version, price table) are the same. Its message text (compressed, read
only when searching) is a row of ``texts``, apart, so that listing reads
nothing it does not show; ``files`` keeps the keys of the sessions a store
file holding several has (a database), so that an unchanged one is not opened
again, and ``stores`` where each plugin said its CLI keeps sessions, so that a
warm listing imports no plugin (:mod:`linewise.sessions._declared`). All of
it is read in one query per table; the text of sessions stays on this
machine, readable by its owner only. The file is in WAL mode: a listing reads
while another process (a second ``linewise sessions``, ``linewise serve``)
writes.

Anything wrong with the cache (a read-only directory, a corrupt file, a
lock held too long) costs speed, never a result: the facts are read again, and
a damaged file is rebuilt once, with a warning.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import zlib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Final

from linewise_contracts.usage import TOKEN_FIELDS, TokenUsage

from linewise.sessions._facts import SessionInfo
from linewise.settings.cache_folder import cache_folder
from linewise.settings.logs import logger

__all__ = ["CachedRow", "FactsCache", "cache_dir", "decode", "pack_text"]


#: Bumped when what a row holds changes: older rows are then read again.
SCHEMA: Final = 6
_FILE: Final = "sessions.sqlite3"
#: The usage fields of :class:`SessionInfo` (its last ones), kept in one JSON column (``usage``).
_USAGE: Final = ("token_usage", "model_usage", "model_costs")
#: The facts' other columns, one per :class:`SessionInfo` field, in its order.
_PLAIN: Final = tuple(SessionInfo.__dataclass_fields__)[: -len(_USAGE)]
assert tuple(SessionInfo.__dataclass_fields__)[-len(_USAGE) :] == _USAGE
_FIELDS: Final = (*_PLAIN, "usage")
_COUNTS: Final = tuple(name for name, _ in TOKEN_FIELDS)
assert _COUNTS == ("uncached_input", "cache_read", "cache_write", "output", "reasoning")
_CREATE: Final = (
    f"""
CREATE TABLE IF NOT EXISTS facts (
    file TEXT NOT NULL,
    file_key TEXT NOT NULL,
    file_size INTEGER NOT NULL,
    file_mtime_ns INTEGER NOT NULL,
    reader TEXT NOT NULL,
    {", ".join(f"info_{name}" for name in _FIELDS)},
    PRIMARY KEY (file, file_key)
)
""",
    """
CREATE TABLE IF NOT EXISTS texts (
    file TEXT NOT NULL,
    file_key TEXT NOT NULL,
    text BLOB NOT NULL,
    PRIMARY KEY (file, file_key)
)
""",
    """
CREATE TABLE IF NOT EXISTS stores (
    adapter_type TEXT NOT NULL PRIMARY KEY,
    identity TEXT NOT NULL,
    variables TEXT NOT NULL,
    digest TEXT NOT NULL,
    stores TEXT NOT NULL,
    keyed INTEGER NOT NULL
)
""",
    """
CREATE TABLE IF NOT EXISTS files (
    file TEXT NOT NULL PRIMARY KEY,
    file_size INTEGER NOT NULL,
    file_mtime_ns INTEGER NOT NULL,
    reader TEXT NOT NULL,
    keys TEXT NOT NULL
)
""",
)
_TABLES: Final = ("facts", "texts", "files", "stores")
_COLUMNS: Final = len(_FIELDS) + 5

Key = tuple[str, str]
#: A cached row as read: (path, key, size, mtime_ns, reader, sound, *the info's columns);
#: ``sound`` is 0 when a value has the wrong type. :func:`decode` makes the info, once
#: it is wanted (kept as SQLite gives it: 10,000 rows are read on every listing).
CachedRow = tuple[Any, ...]
_INFO_AT: Final = 6


def _counts(usage: TokenUsage) -> list[int | None]:
    return [getattr(usage, name) for name in _COUNTS]


def _usage(counts: Any) -> TokenUsage:
    """A TokenUsage from a row's list of counts (ValueError when it is not one).

    Checked here, then made without TokenUsage's own per-field check: reading
    10,000 rows makes 30,000 of them, and that check is most of the time.
    """
    if type(counts) is not list or len(counts) != len(_COUNTS):
        raise ValueError("malformed token counts")
    for count in counts:
        if count is not None and (type(count) is not int or count < 0):
            raise ValueError("malformed token counts")
    usage = object.__new__(TokenUsage)
    for name, count in zip(_COUNTS, counts, strict=True):
        object.__setattr__(usage, name, count)  # frozen: set once, as __init__ does
    return usage


def _allowed(annotation: object) -> tuple[type, ...]:
    """The value types a plain field's annotation (``"int | None"``, say) lets a row hold."""
    names = {"str": str, "int": int, "float": float, "bool": bool, "None": type(None)}
    kinds = tuple(
        names[part.strip()] for part in str(annotation).split("|") if part.strip() in names
    )
    # A float field may hold a whole number (SQLite gives 1.0 back as 1.0, an int as int).
    return (*kinds, int) if float in kinds else kinds


#: Per plain field, the types a sound row holds there (a damaged row is read again).
_PLAIN_TYPES: Final = tuple(
    _allowed(SessionInfo.__dataclass_fields__[name].type) for name in _PLAIN
)
_SQL_TYPES: Final = {str: "text", int: "integer", float: "real", type(None): "null"}


def _sound(name: str, kinds: tuple[type, ...]) -> str:
    """SQL that is true when column ``info_<name>`` holds one of ``kinds`` (SQLite checks it,
    10,000 rows in a few milliseconds)."""
    if not kinds or bool in kinds:
        return "1"  # no check known for the type: as before, any value is taken
    names = ", ".join(sorted({f"'{_SQL_TYPES[kind]}'" for kind in kinds}))
    return f"typeof(info_{name}) IN ({names})"


#: One column of a facts query: 1 when the row's plain fields have their types.
_SOUND: Final = " AND ".join(
    _sound(name, kinds) for name, kinds in zip(_PLAIN, _PLAIN_TYPES, strict=True)
)
#: The usage text of a session that reported no tokens (most of them, for some CLIs).
_NO_USAGE: Final = json.dumps([[None] * len(_COUNTS), {}, {}])
_EMPTY_USAGE: Final = TokenUsage()


def _encode(info: SessionInfo) -> tuple[Any, ...]:
    """A row's values: the plain fields, then the usage as one JSON text (lists, not
    objects, as reading 10,000 rows is what a warm ``linewise usage`` costs)."""
    usage = [
        _counts(info.token_usage),
        {model: _counts(tokens) for model, tokens in info.model_usage.items()},
        info.model_costs,
    ]
    return (*(getattr(info, name) for name in _PLAIN), json.dumps(usage))


def decode(row: CachedRow) -> SessionInfo:
    """The info of a row whose plain fields SQLite found sound (the inverse of
    :func:`_encode`); ValueError or TypeError when its usage is damaged."""
    text = row[-1]
    if text == _NO_USAGE:
        total, per_model, costs = _EMPTY_USAGE, {}, {}
    else:
        counts, models, costs = json.loads(text)
        if type(models) is not dict or type(costs) is not dict:
            raise ValueError("malformed usage")
        total = _usage(counts)
        per_model = {model: _usage(tokens) for model, tokens in models.items()}
    # Positional, in field order (the usage fields are the last three): the fastest way.
    return SessionInfo(*row[_INFO_AT:-1], total, per_model, costs)  # type: ignore[call-arg]


def pack_text(text: str) -> bytes:
    """A session's message text as the cache keeps it (compressed; in a worker, say)."""
    return zlib.compress(text.encode("utf-8", "replace"))


def cache_dir(environ: Mapping[str, str], home: Path) -> Path | None:
    """Where the facts cache lives (see ``linewise.settings.cache_folder``); None: off."""
    return cache_folder(environ, home)


def _private_file(path: Path) -> None:
    """Create ``path`` (and its directory) readable by its owner only, or tighten it."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    # Not through a link someone else planted: the file is where it says.
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        if os.name == "posix":
            os.fchmod(descriptor, 0o600)
    finally:
        os.close(descriptor)


class FactsCache:
    """The facts cache at ``directory``; every method degrades to "not cached" on trouble."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / _FILE
        self._db: sqlite3.Connection | None = None
        self._rebuilt = False
        try:
            self._db = self._open()
        except (OSError, sqlite3.Error) as error:
            logger.info("sessions cache unavailable (%s): reading every session", error)
            self._db = None

    def _open(self) -> sqlite3.Connection:
        _private_file(self.path)
        db = sqlite3.connect(self.path, timeout=5)
        try:
            _prepare(db)
        except sqlite3.OperationalError:
            db.close()
            raise  # locked, read-only, ...: not a damaged file
        except sqlite3.DatabaseError:
            db.close()
            # Not a database (or a corrupt one): start afresh.
            logger.warning("the sessions cache %s was damaged; rebuilding it", self.path)
            self._remove()
            _private_file(self.path)
            db = sqlite3.connect(self.path, timeout=5)
            _prepare(db)
        return db

    def _remove(self) -> None:
        for suffix in ("", "-journal", "-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)

    def _damaged(self, error: sqlite3.Error, doing: str) -> None:
        """A read or write failed: a corrupt file is rebuilt empty, once per process.

        Without this a file whose header is intact but whose pages are damaged
        would make every later run read every session again (as slowly as with
        no cache), for ever.
        """
        corrupt = isinstance(error, sqlite3.DatabaseError) and not isinstance(
            error, sqlite3.OperationalError
        )
        if not corrupt or self._rebuilt:
            logger.info("sessions cache %s (%s)", doing, error)
            return
        self._rebuilt = True
        logger.warning("the sessions cache %s was damaged (%s); rebuilding it", self.path, error)
        self.close()
        try:
            self._remove()
            self._db = self._open()
        except (OSError, sqlite3.Error) as again:
            logger.info("sessions cache unavailable (%s): reading every session", again)
            self._db = None

    def rows(self) -> dict[Key, CachedRow]:
        """Every cached row (see :data:`CachedRow`), in one query, by (path, key).

        A row SQLite finds a value of the wrong type in is damaged (``sound`` 0):
        that session is read again. Else :func:`decode` makes its info.
        """
        if self._db is None:
            return {}
        columns = ", ".join(f"info_{name}" for name in _FIELDS)
        query = (
            f"SELECT file, file_key, file_size, file_mtime_ns, reader, {_SOUND}, {columns} "
            "FROM facts"
        )
        try:
            return {(row[0], row[1]): row for row in self._db.execute(query)}
        except sqlite3.Error as error:
            self._damaged(error, "unreadable")
            return {}

    def file_keys(self) -> dict[str, tuple[int, int, str, list[str]]]:
        """The keys of the sessions in store files holding several (databases):
        path -> (size, mtime_ns, reader, keys)."""
        if self._db is None:
            return {}
        found: dict[str, tuple[int, int, str, list[str]]] = {}
        try:
            query = "SELECT file, file_size, file_mtime_ns, reader, keys FROM files"
            for path, size, mtime_ns, reader, keys in self._db.execute(query):
                with contextlib.suppress(ValueError, TypeError):
                    listed = json.loads(keys)
                    if type(listed) is list and all(type(key) is str for key in listed):
                        found[path] = (size, mtime_ns, reader, listed)
        except sqlite3.Error as error:
            self._damaged(error, "unreadable")
            return {}
        return found

    def declared(self) -> dict[str, tuple[str, str, str, str, str, int]]:
        """What each plugin declared, by adapter type (see :mod:`linewise.sessions._declared`)."""
        if self._db is None:
            return {}
        try:
            query = "SELECT adapter_type, identity, variables, digest, stores, keyed FROM stores"
            return {
                row[0]: row
                for row in self._db.execute(query)
                if all(type(value) is str for value in row[:5]) and type(row[5]) is int
            }
        except sqlite3.Error as error:
            self._damaged(error, "unreadable")
            return {}

    def put_declared(self, rows: list[tuple[str, str, str, str, str, int]]) -> None:
        """Keep what plugins declared (rows of ``stores``)."""
        if self._db is None or not rows:
            return
        try:
            with self._db:
                self._db.executemany(
                    "INSERT OR REPLACE INTO stores VALUES (?, ?, ?, ?, ?, ?)", rows
                )
        except sqlite3.Error as error:
            self._damaged(error, "not written")

    def text(self, key: Key) -> str | None:
        """The cached message text of one session, or None."""
        if self._db is None:
            return None
        try:
            row = self._db.execute(
                "SELECT text FROM texts WHERE file = ? AND file_key = ?", key
            ).fetchone()
            return None if row is None else zlib.decompress(row[0]).decode("utf-8", "replace")
        except sqlite3.Error as error:
            self._damaged(error, "unreadable")
            return None
        except (zlib.error, TypeError) as error:
            logger.info("sessions cache unreadable (%s)", error)
            return None

    def texts(self) -> Iterator[tuple[Key, str]]:
        """Every cached message text, one at a time, in one query (a damaged one is left out:
        its session is read again)."""
        if self._db is None:
            return
        try:
            for path, key, packed in self._db.execute("SELECT file, file_key, text FROM texts"):
                try:
                    yield (path, key), zlib.decompress(packed).decode("utf-8", "replace")
                except (zlib.error, TypeError) as error:
                    logger.info("sessions cache unreadable (%s)", error)
        except sqlite3.Error as error:
            self._damaged(error, "unreadable")

    def put(
        self,
        rows: Iterable[tuple[Key, int, int, str, SessionInfo, bytes]],
        keys: Iterable[tuple[str, int, int, str, list[str]]] = (),
    ) -> None:
        """Store (key, size, mtime_ns, reader, info, packed text) rows, and (path, size,
        mtime_ns, reader, keys) of store files, in one transaction."""
        if self._db is None:
            return
        rows = list(rows)
        facts = [
            (key[0], key[1], size, mtime_ns, reader, *_encode(info))
            for key, size, mtime_ns, reader, info, _ in rows
        ]
        texts = [(key[0], key[1], text) for key, _, _, _, _, text in rows]
        files = [
            (path, size, mtime_ns, reader, json.dumps(listed))
            for path, size, mtime_ns, reader, listed in keys
        ]
        try:
            self._write(facts, texts, files)
        except sqlite3.Error as error:
            self._damaged(error, "not written")
            if self._rebuilt and self._db is not None:
                # The fresh file takes what was to be written there.
                with contextlib.suppress(sqlite3.Error):
                    self._write(facts, texts, files)

    def _write(
        self,
        facts: list[tuple[Any, ...]],
        texts: list[tuple[Any, ...]],
        files: list[tuple[Any, ...]],
    ) -> None:
        assert self._db is not None
        marks = ", ".join("?" * _COLUMNS)
        with self._db:
            self._db.executemany(f"INSERT OR REPLACE INTO facts VALUES ({marks})", facts)
            self._db.executemany("INSERT OR REPLACE INTO texts VALUES (?, ?, ?)", texts)
            self._db.executemany("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?)", files)

    def forget(self, sessions: Iterable[Key], files: Iterable[str] = ()) -> None:
        """Drop the rows of sessions (and store files) no longer found."""
        stale, gone = list(sessions), [(path,) for path in files]
        if self._db is None or not (stale or gone):
            return
        try:
            with self._db:
                self._db.executemany("DELETE FROM facts WHERE file = ? AND file_key = ?", stale)
                self._db.executemany("DELETE FROM texts WHERE file = ? AND file_key = ?", stale)
                self._db.executemany("DELETE FROM files WHERE file = ?", gone)
        except sqlite3.Error as error:
            self._damaged(error, "not pruned")

    def close(self) -> None:
        """Close the database."""
        if self._db is not None:
            self._db.close()
            self._db = None


def _prepare(db: sqlite3.Connection) -> None:
    """Make ``db`` the current schema (an older one is dropped: its rows are read again)."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version != SCHEMA:
        for table in _TABLES:
            db.execute(f"DROP TABLE IF EXISTS {table}")
        db.execute(f"PRAGMA user_version = {SCHEMA}")
    # WAL: a reader never waits for a writer (two listings at once, the web app's list page).
    with contextlib.suppress(sqlite3.OperationalError):
        db.execute("PRAGMA journal_mode = WAL")
    for create in _CREATE:
        db.execute(create)
    db.commit()
