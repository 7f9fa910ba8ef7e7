"""A CLI's SQLite session store read as untrusted input: read-only, bounded, plain tables (1.4).

Several CLIs keep their sessions in one SQLite database (Hermes' ``state.db``,
Goose's ``sessions.db``, Crush's ``crush.db``). A plugin reading one must not
lock the CLI out, write to it, or let a damaged or hostile file hang or
exhaust the host: :class:`StoreDatabase` opens it read-only (``mode=ro``, so
the write-ahead log of a running CLI is read too; ``immutable`` when even
that is refused, the main file only), ``query_only`` and without trusting its
schema; refuses a database whose tables are views, virtual tables or have
computed columns (each could compute without end or make gigabytes from a
small file); bounds every value to :data:`~linewise_contracts.sessions.MAX_DOCUMENT_CHARS`
bytes and every call to a budget of SQLite steps that grows with the file's
size. What it refuses or stops raises :class:`sqlite3.DatabaseError` with a
message saying why.

``sqlite3`` is imported when a database is opened, not with this module.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Final

from linewise_contracts.sessions import MAX_DOCUMENT_CHARS

if TYPE_CHECKING:
    import sqlite3

__all__ = ["SQLITE_MAGIC", "StoreDatabase", "is_sqlite_file"]

#: The first bytes of every SQLite 3 database file.
SQLITE_MAGIC: Final = b"SQLite format 3\x00"
# SQLite's progress handler runs every this many virtual machine steps.
_STEP: Final = 1000
# Steps one database may take: a fixed part and a part per byte of the file, far above
# what a real store's queries take (a few steps per byte even for a full scan and sort).
_BASE_STEPS: Final = 100_000_000
_STEPS_PER_BYTE: Final = 64


def is_sqlite_file(path: Path) -> bool:
    """Whether the file at ``path`` starts as a SQLite 3 database does (False when unreadable)."""
    try:
        with path.open("rb") as handle:
            return handle.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


class _Budget:
    """SQLite's progress handler: interrupts the queries once they have taken ``steps``."""

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


class StoreDatabase:
    """One session store database, opened guarded (see the module docstring).

    ``tables`` are the tables the store must hold as plain tables;
    ``optional_tables`` those an older version of the CLI may lack (checked
    the same way when present; :meth:`has` says which are). ``name`` names the
    CLI in messages (``"Hermes"``). Use it in a ``with`` block, or call
    :meth:`close`. Raises :class:`sqlite3.DatabaseError` when the file is not
    such a database.
    """

    __slots__ = ("_budget", "_columns", "connection", "name", "path")

    def __init__(
        self,
        path: Path,
        tables: Sequence[str],
        *,
        name: str,
        optional_tables: Sequence[str] = (),
    ) -> None:
        import sqlite3

        self.path = path
        self.name = name
        self._columns: dict[str, frozenset[str]] = {}
        uri = path.resolve().as_uri()
        connection = _read_only(uri)
        if connection is None:  # the main file only, as it is
            connection = sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, timeout=2)
        self.connection: sqlite3.Connection = connection
        try:
            connection.execute("PRAGMA query_only = ON")
            connection.execute("PRAGMA trusted_schema = OFF")
            connection.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_DOCUMENT_CHARS)
            self._budget = _Budget(_BASE_STEPS + _STEPS_PER_BYTE * path.stat().st_size)
            connection.set_progress_handler(self._budget, _STEP)
            for table in tables:
                self._check_table(table)
            for table in optional_tables:
                self._check_table(table, optional=True)
        except BaseException as error:
            connection.close()
            if isinstance(error, sqlite3.Error):
                raise self._stopped(error) from None
            raise

    def _check_table(self, table: str, *, optional: bool = False) -> None:
        import sqlite3

        row = self.connection.execute(
            "SELECT type, sql FROM sqlite_master WHERE name = ?", (table,)
        ).fetchone()
        if row is None and optional:
            return
        kind, sql = row if row is not None else (None, None)
        virtual = type(sql) is str and sql.lstrip()[:14].upper() == "CREATE VIRTUAL"
        if kind != "table" or virtual:
            what = "missing" if kind is None else f"a {'virtual table' if virtual else kind}"
            raise sqlite3.DatabaseError(
                f"{self.path} is not a {self.name} database: its {table!r} is {what}, not a table"
            )
        info = self.connection.execute(f'PRAGMA table_xinfo("{table}")').fetchall()
        hidden = [str(column[1]) for column in info if column[6]]
        if hidden:
            raise sqlite3.DatabaseError(
                f"{self.path} is not a {self.name} database: {table!r} has computed columns "
                f"({', '.join(hidden)})"
            )
        self._columns[table] = frozenset(str(column[1]) for column in info)

    def columns(self, table: str) -> frozenset[str]:
        """The columns of one of the checked tables (older CLI versions have fewer)."""
        return self._columns.get(table, frozenset())

    def has(self, table: str) -> bool:
        """Whether the database holds ``table`` (one of the checked tables) as a plain table."""
        return table in self._columns

    def rows(self, sql: str, parameters: Sequence[object] = ()) -> Iterator[dict[str, Any]]:
        """The rows of a query, one dict each (column name to value), read as they are needed.

        Raises :class:`sqlite3.Error`; one that says so when the budget stopped the query.
        """
        import sqlite3

        try:
            cursor = self.connection.execute(sql, tuple(parameters))
            names = [column[0] for column in cursor.description or ()]
            for row in cursor:
                yield dict(zip(names, row, strict=True))
        except sqlite3.Error as error:
            raise self._stopped(error) from None

    def _stopped(self, error: sqlite3.Error) -> sqlite3.Error:
        import sqlite3

        budget = getattr(self, "_budget", None)
        if budget is not None and budget.spent:
            return sqlite3.OperationalError(
                f"reading {self.path} stopped after {budget.steps} SQLite steps: "
                f"a damaged database, or not a {self.name} one"
            )
        return error

    def close(self) -> None:
        """Close the connection (the database file is never written)."""
        self.connection.close()

    def __enter__(self) -> StoreDatabase:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


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
    except BaseException:  # not a database at all ("file is not a database"): said as it is
        connection.close()
        raise
    return connection
