"""The export folder as one unit: one writer, both tables put in place together, checked on read.

A writer holds an exclusive lock on ``.linewise-export.lock`` for its whole
read-modify-write, so a second export to the folder stops at once ("another
export is writing DIR"). It writes both tables to fresh temporary files, then
commits: a journal naming them (``.linewise-commit.json``) is written and made
durable, the files are renamed into place, and the journal is removed. A kill
at any moment leaves either no journal (the old export is whole; the temporary
files are stale and the next writer removes them) or a journal whose files are
all there (the next writer, or reader, rolls the commit forward). The commit
itself and every read take ``.linewise-read.lock`` (exclusive and shared), so
a query never sees one new table beside one old one.

Each table's Parquet footer carries the export's identity (a digest of its run
ids and counts, so the same export always gives the same bytes); readers check
that both tables carry the same one.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any, Final

from linewise.settings.errors import LinewiseError

__all__ = [
    "JOURNAL_FILE",
    "LOCK_FILE",
    "METADATA_KEY",
    "ExportBusyError",
    "InconsistentExportError",
    "Stamp",
    "check_pair",
    "commit",
    "committed_paths",
    "create_temporary",
    "reading",
    "writing",
]

LOCK_FILE: Final = ".linewise-export.lock"
READ_LOCK_FILE: Final = ".linewise-read.lock"
JOURNAL_FILE: Final = ".linewise-commit.json"
#: The footer key holding the export's identity and counts.
METADATA_KEY: Final = "linewise.export"
_TEMPORARY_SUFFIX: Final = ".tmp"


class ExportBusyError(LinewiseError):
    """Another export holds the folder's lock."""


class InconsistentExportError(LinewiseError):
    """The folder's two tables are not of the same export."""


@dataclass(frozen=True, slots=True)
class Stamp:
    """What both tables' footers say of the export they belong to."""

    export_id: str
    runs: int
    entries: int

    def encode(self) -> str:
        return json.dumps(
            {"export": self.export_id, "runs": self.runs, "entries": self.entries},
            sort_keys=True,
        )

    @classmethod
    def decode(cls, text: bytes | str | None) -> Stamp | None:
        if text is None:
            return None
        try:
            value = json.loads(text)
            return cls(str(value["export"]), int(value["runs"]), int(value["entries"]))
        except (ValueError, KeyError, TypeError):
            return None


def _lock(path: str, *, shared: bool, wait: bool) -> int | None:
    """A descriptor holding a lock on ``path``; None when ``wait`` is False and it is taken."""
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    descriptor = os.open(path, flags, 0o644)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: an exclusive byte lock stands in
        import msvcrt

        try:
            how = getattr(msvcrt, "LK_LOCK" if wait else "LK_NBLCK")
            getattr(msvcrt, "locking")(descriptor, how, 1)  # noqa: B009 - typed on Windows only
        except OSError:
            os.close(descriptor)
            return None
        return descriptor
    operation = fcntl.LOCK_SH if shared else fcntl.LOCK_EX
    try:
        fcntl.flock(descriptor, operation if wait else operation | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        return None
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


@contextlib.contextmanager
def _held(path: str, *, shared: bool) -> Iterator[None]:
    descriptor = _lock(path, shared=shared, wait=True)
    try:
        yield
    finally:
        if descriptor is not None:
            os.close(descriptor)


@contextlib.contextmanager
def writing(directory: str) -> Iterator[None]:
    """Hold the folder for one export: refuse if another holds it; finish or clean up a kill."""
    os.makedirs(directory, exist_ok=True)
    descriptor = _lock(os.path.join(directory, LOCK_FILE), shared=False, wait=False)
    if descriptor is None:
        raise ExportBusyError(
            f"another export is writing {directory}; wait for it to finish (or stop it) "
            "and run this one again"
        )
    try:
        with _held(os.path.join(directory, READ_LOCK_FILE), shared=False):
            _roll_forward(directory)
        _remove_stale(directory)
        yield
    finally:
        os.close(descriptor)


@contextlib.contextmanager
def reading(directory: str) -> Iterator[None]:
    """Hold off a commit while the folder is read (a commit waits for readers, and they for it)."""
    path = os.path.join(directory, READ_LOCK_FILE)
    try:
        descriptor = _lock(path, shared=True, wait=True)
    except OSError:  # a folder we may read but not write: nobody can be committing there
        descriptor = None
    try:
        yield
    finally:
        if descriptor is not None:
            os.close(descriptor)


def create_temporary(directory: str, name: str) -> tuple[str, IO[bytes]]:
    """A new, empty hidden file beside ``name``, opened for writing.

    Created exclusively and never through a symbolic link: a link planted at a
    predictable name cannot make the export write elsewhere.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    flags |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    while True:
        path = os.path.join(
            directory, f".{name}.{os.getpid()}.{os.urandom(4).hex()}{_TEMPORARY_SUFFIX}"
        )
        try:
            descriptor = os.open(path, flags, 0o644)
        except FileExistsError:
            continue
        return path, os.fdopen(descriptor, "wb")


def _fsync_folder(directory: str) -> None:
    with contextlib.suppress(OSError, AttributeError):  # not every system opens folders
        descriptor = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def commit(directory: str, staged: dict[str, str]) -> None:
    """Put every staged file (final name -> complete, synced temporary path) in place at once."""
    journal = os.path.join(directory, JOURNAL_FILE)
    record = json.dumps({"files": {name: os.path.basename(t) for name, t in staged.items()}})
    with _held(os.path.join(directory, READ_LOCK_FILE), shared=False), _signals_held():
        path, stream = create_temporary(directory, JOURNAL_FILE.lstrip("."))
        try:
            with stream:
                stream.write(record.encode())
                stream.flush()
                os.fsync(stream.fileno())
            os.replace(path, journal)
        except BaseException:
            with contextlib.suppress(OSError):
                os.remove(path)
            raise
        _fsync_folder(directory)
        # From here the commit is decided: a kill before the end is finished by the next one in.
        _roll_forward(directory)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait until the commit is whole (it takes a few renames)."""
    import signal

    held = {signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", signal.SIGTERM)}
    try:
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    except (AttributeError, OSError, ValueError):  # pragma: no cover - not on every system
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _journal(directory: str) -> dict[str, str] | None:
    try:
        with open(os.path.join(directory, JOURNAL_FILE), "rb") as stream:
            files = json.loads(stream.read())["files"]
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError):
        return {}  # a journal not written whole was never the commit point (it is renamed in)
    if not isinstance(files, dict):
        return {}
    return {
        str(name): str(temporary)
        for name, temporary in files.items()
        if os.path.basename(str(name)) == str(name)
        and os.path.basename(str(temporary)) == str(temporary)
    }


def _roll_forward(directory: str) -> None:
    """Finish a commit a kill interrupted: rename what the journal names, then drop it."""
    files = _journal(directory)
    if files is None:
        return
    for name, temporary in files.items():
        source = os.path.join(directory, temporary)
        if os.path.exists(source):
            os.replace(source, os.path.join(directory, name))
    _fsync_folder(directory)
    os.remove(os.path.join(directory, JOURNAL_FILE))
    _fsync_folder(directory)


def committed_paths(directory: str, names: tuple[str, ...]) -> dict[str, str]:
    """Where each table of the committed export is: its file, or a journal's file not yet renamed.

    Only read while holding :func:`reading`, so no commit is under way.
    """
    files = _journal(directory) or {}
    paths: dict[str, str] = {}
    for name in names:
        staged = files.get(name)
        if staged is not None and os.path.exists(os.path.join(directory, staged)):
            paths[name] = os.path.join(directory, staged)
        else:
            paths[name] = os.path.join(directory, name)
    return paths


def _remove_stale(directory: str) -> None:
    """Temporary files of exports that died: nobody else writes here while the lock is held."""
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        if name.startswith(".") and name.endswith(_TEMPORARY_SUFFIX):
            with contextlib.suppress(OSError):
                os.remove(os.path.join(directory, name))


def check_pair(directory: str, runs: Any, entries: Any) -> None:
    """Raise :class:`InconsistentExportError` unless ``runs`` and ``entries`` are one export.

    Both are ``pyarrow.parquet.ParquetFile``.

    Both footers carry a :class:`Stamp`; an export written before stamps existed
    is checked by its counts (the entries the runs claim against the rows there are).
    """
    key = METADATA_KEY.encode()
    stamps = [
        Stamp.decode((table.schema_arrow.metadata or {}).get(key)) for table in (runs, entries)
    ]
    runs_stamp, entries_stamp = stamps
    if (
        runs_stamp is not None
        and runs_stamp == entries_stamp
        and runs.metadata.num_rows == runs_stamp.runs
        and entries.metadata.num_rows == entries_stamp.entries
    ):
        return
    claimed = None
    if runs_stamp is None and entries_stamp is None:
        claimed = sum(
            value or 0
            for batch in runs.iter_batches(columns=["entries"])
            for value in batch.column(0).to_pylist()
        )
        if claimed == entries.metadata.num_rows:
            return
    detail = (
        f"its runs claim {claimed} entries, entries.parquet holds {entries.metadata.num_rows}"
        if claimed is not None
        else "runs.parquet and entries.parquet were written by different exports"
    )
    raise InconsistentExportError(f"{directory} is not one export: {detail}")
