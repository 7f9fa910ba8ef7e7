"""The facts cache: one SQLite file (mode 0600) under the user's cache directory.

A row is a session's :class:`~linewise.sessions.SessionInfo` and its message
text (compressed, read only when searching), keyed on the file's path and the
session's key, and valid while the file's size and modification time and the
reader (host version, adapter type, plugin version) are the same. The text of
sessions stays on this machine, readable by its owner only.

Anything wrong with the cache (a read-only directory, a corrupt file, a
lock held too long) costs speed, never a result: the facts are read again.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import zlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

from linewise_contracts.usage import TOKEN_FIELDS, TokenUsage

from linewise.sessions._facts import SessionInfo
from linewise.settings.cache_folder import cache_folder

__all__ = ["FactsCache", "cache_dir"]

logger = logging.getLogger("linewise")

#: Bumped when what a row holds changes: older rows are then read again.
SCHEMA: Final = 4
_FILE: Final = "sessions.sqlite3"
#: The usage fields of :class:`SessionInfo` (its last ones), kept in one JSON column (``usage``).
_USAGE: Final = ("token_usage", "model_usage", "model_costs")
#: The facts' other columns, one per :class:`SessionInfo` field, in its order.
_PLAIN: Final = tuple(SessionInfo.__dataclass_fields__)[: -len(_USAGE)]
assert tuple(SessionInfo.__dataclass_fields__)[-len(_USAGE) :] == _USAGE
_FIELDS: Final = (*_PLAIN, "usage")
_COUNTS: Final = tuple(name for name, _ in TOKEN_FIELDS)
assert _COUNTS == ("uncached_input", "cache_read", "cache_write", "output", "reasoning")
_CREATE: Final = f"""
CREATE TABLE IF NOT EXISTS facts (
    file TEXT NOT NULL,
    file_key TEXT NOT NULL,
    file_size INTEGER NOT NULL,
    file_mtime_ns INTEGER NOT NULL,
    reader TEXT NOT NULL,
    {", ".join(f"info_{name}" for name in _FIELDS)},
    text BLOB NOT NULL,
    PRIMARY KEY (file, file_key)
)
"""
_COLUMNS: Final = len(_FIELDS) + 6

Key = tuple[str, str]


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


def _plain_ok(values: tuple[Any, ...]) -> bool:
    return all(
        type(value) in kinds or not kinds
        for value, kinds in zip(values, _PLAIN_TYPES, strict=False)
    )


def _encode(info: SessionInfo) -> tuple[Any, ...]:
    """A row's values: the plain fields, then the usage as one JSON text (lists, not
    objects, as reading 10,000 rows is what a warm ``linewise usage`` costs)."""
    usage = [
        _counts(info.token_usage),
        {model: _counts(tokens) for model, tokens in info.model_usage.items()},
        info.model_costs,
    ]
    return (*(getattr(info, name) for name in _PLAIN), json.dumps(usage))


def _decode(values: tuple[Any, ...]) -> SessionInfo:
    """The inverse of :func:`_encode`; ValueError or TypeError when the row is damaged."""
    if not _plain_ok(values[:-1]):
        raise TypeError("a field of the wrong type")
    total, per_model, costs = json.loads(values[-1])
    if type(per_model) is not dict or type(costs) is not dict:
        raise ValueError("malformed usage")
    # Positional, in field order (the usage fields are the last three): the fastest way.
    return SessionInfo(  # type: ignore[call-arg]
        *values[:-1],
        _usage(total),
        {model: _usage(counts) for model, counts in per_model.items()},
        costs,
    )


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
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version != SCHEMA:
                db.execute("DROP TABLE IF EXISTS facts")
                db.execute(f"PRAGMA user_version = {SCHEMA}")
            db.execute(_CREATE)
            db.commit()
        except sqlite3.DatabaseError:
            db.close()
            # Not a database (or a corrupt one): start afresh.
            self.path.unlink(missing_ok=True)
            _private_file(self.path)
            db = sqlite3.connect(self.path, timeout=5)
            db.execute(f"PRAGMA user_version = {SCHEMA}")
            db.execute(_CREATE)
            db.commit()
        return db

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
            for suffix in ("", "-journal", "-wal", "-shm"):
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)
            self._db = self._open()
        except (OSError, sqlite3.Error) as again:
            logger.info("sessions cache unavailable (%s): reading every session", again)
            self._db = None

    def rows(self) -> dict[Key, tuple[int, int, str, SessionInfo]]:
        """Every cached row: (path, key) -> (size, mtime_ns, reader, info)."""
        if self._db is None:
            return {}
        found: dict[Key, tuple[int, int, str, SessionInfo]] = {}
        columns = ", ".join(f"info_{name}" for name in _FIELDS)
        try:
            query = f"SELECT file, file_key, file_size, file_mtime_ns, reader, {columns} FROM facts"
            for path, key, size, mtime_ns, reader, *values in self._db.execute(query):
                try:
                    info = _decode(tuple(values))
                except (ValueError, TypeError):
                    continue  # a damaged row: that session is read again
                found[(path, key)] = (size, mtime_ns, reader, info)
        except sqlite3.Error as error:
            self._damaged(error, "unreadable")
            return {}
        return found

    def text(self, key: Key) -> str | None:
        """The cached message text of one session, or None."""
        if self._db is None:
            return None
        try:
            row = self._db.execute(
                "SELECT text FROM facts WHERE file = ? AND file_key = ?", key
            ).fetchone()
            return None if row is None else zlib.decompress(row[0]).decode("utf-8", "replace")
        except sqlite3.Error as error:
            self._damaged(error, "unreadable")
            return None
        except zlib.error as error:
            logger.info("sessions cache unreadable (%s)", error)
            return None

    def put(self, rows: Iterable[tuple[Key, int, int, str, SessionInfo, str]]) -> None:
        """Store (key, size, mtime_ns, reader, info, text) rows, in one transaction."""
        if self._db is None:
            return
        values = [
            (
                key[0],
                key[1],
                size,
                mtime_ns,
                reader,
                *_encode(info),
                zlib.compress(text.encode("utf-8", "replace")),
            )
            for key, size, mtime_ns, reader, info, text in rows
        ]
        marks = ", ".join("?" * _COLUMNS)
        try:
            with self._db:
                self._db.executemany(f"INSERT OR REPLACE INTO facts VALUES ({marks})", values)
        except sqlite3.Error as error:
            self._damaged(error, "not written")
            if self._rebuilt and self._db is not None:
                # The fresh file takes what was to be written there.
                with contextlib.suppress(sqlite3.Error), self._db:
                    self._db.executemany(f"INSERT OR REPLACE INTO facts VALUES ({marks})", values)

    def forget_except(self, kept: set[Key]) -> None:
        """Drop the rows of sessions no longer found."""
        if self._db is None:
            return
        try:
            stale = [
                key
                for key in self._db.execute("SELECT file, file_key FROM facts")
                if tuple(key) not in kept
            ]
            with self._db:
                self._db.executemany("DELETE FROM facts WHERE file = ? AND file_key = ?", stale)
        except sqlite3.Error as error:
            self._damaged(error, "not pruned")

    def close(self) -> None:
        """Close the database."""
        if self._db is not None:
            self._db.close()
            self._db = None
