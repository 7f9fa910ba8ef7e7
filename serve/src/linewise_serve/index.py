"""The sessions the server shows: every store's (the facts cache) and the folders given.

A session is known to the web app by a ``uid`` made from its file and key, and
only through this index: a URL names a uid, never a path, so nothing outside
the configured stores and folders can be served.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from linewise_serve._host import (
    GENERIC_ADAPTER_TYPE,
    Registry,
    SessionInfo,
    file_session,
    find_sessions,
    get_registry,
)

__all__ = ["Listed", "SessionIndex", "session_uid"]

logger = logging.getLogger("linewise")

#: How often the index looks at the stores again (a warm look reads the facts cache only).
REFRESH_SECONDS: Final = 30.0


def session_uid(info: SessionInfo) -> str:
    """The web app's name of a session: a digest of its file and key (no path in a URL)."""
    text = f"{info.path}\0{info.key or ''}"
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=10).hexdigest()


@dataclass(frozen=True, slots=True)
class Listed:
    """One session as the web app lists it: its uid, facts and where it was found."""

    uid: str
    info: SessionInfo
    #: "store" (a CLI's session store) or the folder given on the command line.
    origin: str


@dataclass(frozen=True, slots=True)
class _Snapshot:
    ordered: tuple[Listed, ...]
    by_uid: Mapping[str, Listed]
    # uid -> (previous, next) session of the same project, in time order.
    neighbours: Mapping[str, tuple[str | None, str | None]]
    left_out: tuple[tuple[str, str], ...]
    made: float


class SessionIndex:
    """The sessions, newest first, looked at again when older than :data:`REFRESH_SECONDS`.

    ``folders`` are walked (sorted) for log and session files, each read through
    its detected parser (kept in memory while its size and time stay the same);
    files no installed parser recognises are left out and named in ``left_out``.
    """

    def __init__(
        self,
        *,
        folders: Iterable[Path] = (),
        registry: Registry | None = None,
        environ: Mapping[str, str] | None = None,
        home: Path | None = None,
        stores: bool = True,
        refresh_seconds: float = REFRESH_SECONDS,
    ) -> None:
        self.folders = tuple(Path(folder) for folder in folders)
        self.registry = registry or get_registry()
        self.environ = os.environ if environ is None else environ
        self.home = home
        self.stores = stores
        self.refresh_seconds = refresh_seconds
        self._lock = threading.Lock()
        self._snapshot: _Snapshot | None = None
        self._refreshing = False
        self._files: dict[str, tuple[int, int, SessionInfo | None]] = {}

    def snapshot(self) -> _Snapshot:
        """The current sessions: read the first time (the caller waits), then looked at again
        in a thread of its own once older than the refresh, while requests go on being
        answered from the one they have."""
        current = self._snapshot
        if current is None:
            with self._lock:
                current = self._snapshot
                if current is None:
                    current = self._snapshot = self._read()
            return current
        if time.monotonic() - current.made > self.refresh_seconds and not self._refreshing:
            self._refreshing = True
            threading.Thread(target=self._refresh_quietly, daemon=True).start()
        return current

    def refresh(self) -> None:
        """Look at the stores and folders again now (the caller waits)."""
        with self._lock:
            self._snapshot = self._read()

    def _refresh_quietly(self) -> None:
        try:
            self.refresh()
        except Exception:  # the next look tries again; the list stays as it was
            logger.exception("looking at the session stores again failed")
        finally:
            self._refreshing = False

    def sessions(self) -> tuple[Listed, ...]:
        return self.snapshot().ordered

    def get(self, uid: str) -> Listed | None:
        return self.snapshot().by_uid.get(uid)

    def neighbours(self, uid: str) -> tuple[Listed | None, Listed | None]:
        """The previous and next session of the same project (by start time)."""
        snapshot = self.snapshot()
        before, after = snapshot.neighbours.get(uid, (None, None))
        return (
            snapshot.by_uid.get(before) if before else None,
            snapshot.by_uid.get(after) if after else None,
        )

    def left_out(self) -> tuple[tuple[str, str], ...]:
        """(path, why) of the folders' files that are not listed."""
        return self.snapshot().left_out

    def _read(self) -> _Snapshot:
        listed: list[Listed] = []
        if self.stores:
            for info in find_sessions(registry=self.registry, environ=self.environ, home=self.home):
                listed.append(Listed(session_uid(info), info, "store"))
        left_out: list[tuple[str, str]] = []
        for folder in self.folders:
            for path in _walk(folder):
                read, why = self._file(path)
                if read is None:
                    left_out.append((path, why))
                else:
                    listed.append(Listed(session_uid(read), read, str(folder)))
        by_uid: dict[str, Listed] = {}
        for one in listed:
            by_uid.setdefault(one.uid, one)  # a folder inside a store: listed once
        ordered = sorted(
            by_uid.values(),
            key=lambda one: (one.info.newest, one.info.path, one.info.key or ""),
            reverse=True,
        )
        return _Snapshot(
            tuple(ordered), by_uid, _neighbours(ordered), tuple(left_out), time.monotonic()
        )

    def _file(self, path: str) -> tuple[SessionInfo | None, str]:
        try:
            status = os.stat(path)
        except OSError as error:
            return None, error.strerror or str(error)
        known = self._files.get(path)
        if known is not None and known[:2] == (status.st_size, status.st_mtime_ns):
            return known[2], "no installed parser recognises it"
        try:
            info: SessionInfo | None = file_session(path, registry=self.registry)
        except OSError as error:
            return None, error.strerror or str(error)
        if info is not None and info.adapter_type == GENERIC_ADAPTER_TYPE:
            info = None  # raw lines: no session to show (as `linewise usage` leaves them out)
        self._files[path] = (status.st_size, status.st_mtime_ns, info)
        return info, "no installed parser recognises it"


def _walk(folder: Path) -> Iterable[str]:
    if folder.is_file():
        yield str(folder)
        return
    for where, folders, files in os.walk(folder):
        folders.sort()
        for name in sorted(files):
            yield os.path.join(where, name)


def _neighbours(ordered: list[Listed]) -> dict[str, tuple[str | None, str | None]]:
    by_project: dict[str, list[Listed]] = {}
    for one in ordered:
        if one.info.project:
            by_project.setdefault(one.info.project, []).append(one)
    result: dict[str, tuple[str | None, str | None]] = {}
    for group in by_project.values():
        group.sort(key=lambda one: (one.info.started or one.info.newest, one.uid))
        for index, one in enumerate(group):
            before = group[index - 1].uid if index > 0 else None
            after = group[index + 1].uid if index + 1 < len(group) else None
            result[one.uid] = (before, after)
    return result
