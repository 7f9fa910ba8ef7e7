"""Listing, searching and looking up the sessions on this machine."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final, NamedTuple

from linewise.plugins.registry import Registry, get_registry
from linewise.sessions._cache import CachedRow, FactsCache, Key, cache_dir, decode, pack_text
from linewise.sessions._declared import declared_stores
from linewise.sessions._facts import SessionInfo, read_facts, unread_info, utc_iso
from linewise.sessions._memo import FactsMemo
from linewise.sessions._stores import SessionFile, session_keys_of, store_files
from linewise.settings.errors import AmbiguousSessionError, SessionNotFoundError
from linewise.settings.version import __version__

__all__ = [
    "NOT_READ_YET",
    "Progress",
    "SessionQuery",
    "all_facts",
    "list_sessions",
    "lookup_session",
    "parse_since",
]

#: Facts written to the cache in one transaction.
_BATCH = 200
#: Sessions to read, or bytes of them, from which a pool of processes reads them (fewer:
#: this process does, as starting the workers would cost more than it saves).
POOL_SESSIONS: Final = 64
POOL_BYTES: Final = 4 * 1024 * 1024
#: Called as sessions are read: (bytes read so far, bytes to read in all).
Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class SessionQuery:
    """What to keep: every filter is optional; text matches ignore case."""

    cli: str | None = None
    project: str | None = None
    since: str | None = None
    search: str | None = None
    limit: int | None = None


def parse_since(text: str) -> str:
    """A date (``2026-01-31``) or ISO 8601 time as the UTC string facts are compared with."""
    value = text.strip()
    normal = utc_iso(value if "T" in value or " " in value else value + "T00:00:00")
    if normal is None:
        raise ValueError(f"not a date: {text!r} (for example 2026-01-31 or 2026-01-31T09:30Z)")
    return normal


def _reader(adapter_type: str, registry: Registry) -> str:
    """What must not change for a cached row to stay valid: host, adapter type, plugin, and
    the price table that estimated its cost."""
    from linewise.transcript.prices import price_data

    info = registry.info(adapter_type)
    return f"{__version__}|{adapter_type}|{info.distribution}|{info.version}|{price_data()}"


class _Found(NamedTuple):
    """One session found on disk, before its facts are known (no ``Path`` made yet; a
    tuple: 10,000 are made on every listing)."""

    path: str
    key: str | None
    size: int
    mtime_ns: int
    adapter_type: str
    cli: str
    reader: str

    def session_file(self) -> SessionFile:
        return SessionFile(
            self.adapter_type, self.cli, Path(self.path), self.key, self.size, self.mtime_ns
        )


@dataclass(slots=True)
class _Scan:
    """Every session file, once, by its cache key, and what the store files' keys came to."""

    files: dict[Key, _Found]
    keys_read: list[tuple[str, int, int, str, list[str]]]
    store_files: set[str]
    known_keys: Mapping[str, tuple[int, int, str, list[str]]]


def _all_files(
    registry: Registry,
    environ: Mapping[str, str],
    home: Path,
    cli: str | None,
    cache: FactsCache | None,
) -> _Scan:
    """Every session file, once, by its cache key: a file two stores claim is read by the
    first adapter type. Plugins are asked where their stores are only when what they said
    before may no longer hold, and a store file holding several sessions is opened for
    their keys only when it changed since they were read from it."""
    kept = cache.declared() if cache is not None else {}
    declared, asked = declared_stores(registry, environ, home, kept)
    if cache is not None:
        cache.put_declared(asked)
    known_keys = cache.file_keys() if cache is not None else {}
    scan = _Scan({}, [], set(), known_keys)
    for plugin in declared:
        adapter_type = plugin.adapter_type
        reader = _reader(adapter_type, registry) if plugin.stores else ""
        for found in plugin.stores:
            store = found.store
            if cli is not None and store.cli.casefold() != cli.casefold():
                continue
            for file in store_files(store):
                path, size, mtime_ns = file
                keys = (
                    _keys(adapter_type, file, reader, scan=scan, registry=registry)
                    if plugin.keyed
                    else _ONE
                )
                for key in keys:
                    scan.files.setdefault(
                        (path, key or ""),
                        _Found(path, key, size, mtime_ns, adapter_type, store.cli, reader),
                    )
    return scan


#: The keys of a file that is one session.
_ONE: Final[list[str | None]] = [None]


def _keys(
    adapter_type: str,
    file: tuple[str, int, int],
    reader: str,
    *,
    scan: _Scan,
    registry: Registry,
) -> list[str | None]:
    """The sessions' keys in a store file: the cached ones while it is unchanged."""
    path, size, mtime_ns = file
    scan.store_files.add(path)
    known = scan.known_keys.get(path)
    if known is not None and known[:3] == (size, mtime_ns, reader):
        return list(known[3])
    failures = registry.call_failures.count
    keys = session_keys_of(registry.load(adapter_type), Path(path), registry)
    if registry.call_failures.count == failures:  # a failure is tried again next time
        scan.keys_read.append(
            (path, size, mtime_ns, reader, [key for key in keys if key is not None])
        )
    return keys


def _facts(
    registry: Registry,
    environ: Mapping[str, str],
    home: Path,
    *,
    cli: str | None,
    use_cache: bool,
    progress: Progress | None,
    workers: int | None = None,
    memo: FactsMemo | None = None,
    read_new: bool = True,
) -> tuple[list[SessionInfo], FactsCache | None]:
    folder = cache_dir(environ, home) if use_cache else None
    cache = FactsCache(folder) if folder is not None else None
    scan = _all_files(registry, environ, home, cli, cache)
    infos: list[SessionInfo] = []
    pending: dict[Key, _Found] = scan.files
    remembered = memo.sessions if memo is not None else {}
    if remembered:
        pending = {}
        for key, found in scan.files.items():
            held = remembered.get(key)
            if held is not None and held[:3] == (found.size, found.mtime_ns, found.reader):
                infos.append(held[3])
            else:
                pending[key] = found
    # The facts cache is read (in one query) only for what the memo did not hold.
    cached = cache.rows() if cache is not None and (pending or memo is None) else {}
    todo: list[_Found] = []
    for key, found in pending.items():
        info = _still_valid(cached.get(key), found)
        if info is None:
            todo.append(found)
        else:
            infos.append(info)
    if cache is not None and scan.keys_read:
        cache.put((), scan.keys_read)
    if read_new:
        infos.extend(_read_all(todo, cache, registry, progress, workers))
    else:
        infos.extend(unread_info(found.session_file(), NOT_READ_YET) for found in todo)
    if memo is not None:
        _remember(memo, scan, infos)
    if cache is not None and cli is None:
        gone = set(cached) | set(remembered)
        cache.forget(
            (key for key in gone if key not in scan.files),
            (path for path in scan.known_keys if path not in scan.store_files),
        )
    return infos, cache


#: The problem of a session listed without reading it (``all_facts(read_new=False)``).
NOT_READ_YET: Final = "not read yet: new or changed since its facts were cached"


def _remember(memo: FactsMemo, scan: _Scan, infos: list[SessionInfo]) -> None:
    """Keep what was listed (not what is incomplete: that is read again next time)."""
    kept = {}
    for info in infos:
        key = (info.path, info.key or "")
        found = scan.files.get(key)
        if info.problem is None and found is not None:
            kept[key] = (found.size, found.mtime_ns, found.reader, info)
    memo.sessions = kept


def _still_valid(row: CachedRow | None, found: _Found) -> SessionInfo | None:
    """The cached facts of ``found`` while its file and reader are unchanged, else None."""
    if row is None or not row[5]:
        return None
    if row[2] != found.size or row[3] != found.mtime_ns or row[4] != found.reader:
        return None
    try:
        return decode(row)
    except (ValueError, TypeError):
        return None  # a damaged row: that session is read again


def _read_all(
    todo: list[_Found],
    cache: FactsCache | None,
    registry: Registry,
    progress: Progress | None,
    workers: int | None,
) -> list[SessionInfo]:
    """The facts of the sessions not cached, read now (in a pool of processes when there
    are many) and cached in batches."""
    total = sum(found.size for found in todo)
    done = 0
    infos: list[SessionInfo] = []
    written: list[tuple[Key, int, int, str, SessionInfo, bytes]] = []
    try:
        for found, info, text in _read(todo, registry, _workers(workers, todo, total)):
            infos.append(info)
            if info.problem is None:  # one read in part is tried again next time
                key = (found.path, found.key or "")
                written.append((key, found.size, found.mtime_ns, found.reader, info, text))
            done += found.size
            if progress is not None:
                progress(done, total)
            if len(written) >= _BATCH:
                _flush(cache, written)
    finally:
        _flush(cache, written)  # even on Ctrl-C: what was read is not read again
    return infos


def _workers(asked: int | None, todo: list[_Found], total: int) -> int:
    """How many processes read: as asked, else one per core when there is enough to read
    that starting them pays (a handful of small sessions is read here)."""
    if asked is not None:
        return max(1, asked)
    if len(todo) < 2 or (len(todo) < POOL_SESSIONS and total < POOL_BYTES):
        return 1
    from linewise.sessions._pool import default_workers

    return default_workers()


def _read(
    todo: list[_Found], registry: Registry, workers: int
) -> Iterator[tuple[_Found, SessionInfo, bytes]]:
    """Each session's facts and packed message text, in the order given."""
    if workers <= 1:
        for found in todo:
            parser = registry.load(found.adapter_type)
            info, text = read_facts(found.session_file(), parser, registry)
            yield found, info, pack_text(text) if info.problem is None else b""
        return
    from linewise.sessions._pool import Task, read_in_pool

    by_key = {(found.path, found.key): found for found in todo}
    tasks = [
        Task(found.adapter_type, found.cli, found.path, found.key, found.size, found.mtime_ns)
        for found in todo
    ]
    for task, outcome in read_in_pool(tasks, workers, registry):
        yield by_key[(task.path, task.key)], outcome.info, outcome.text


def _flush(
    cache: FactsCache | None, written: list[tuple[Key, int, int, str, SessionInfo, bytes]]
) -> None:
    if cache is not None and written:
        cache.put(written)
    written.clear()


def _keeps(info: SessionInfo, query: SessionQuery) -> bool:
    if query.project is not None:
        needle = query.project.casefold()
        if needle not in (info.project or "").casefold() and needle not in info.path.casefold():
            return False
    return not (query.since is not None and info.newest < query.since)


def list_sessions(
    query: SessionQuery | None = None,
    *,
    registry: Registry | None = None,
    environ: Mapping[str, str] | None = None,
    home: Path | None = None,
    use_cache: bool = True,
    progress: Progress | None = None,
    workers: int | None = None,
) -> list[SessionInfo]:
    """Every session the installed plugins' stores hold that ``query`` keeps, newest first.

    Sessions not cached are read by ``workers`` processes (1: in this one); by default
    one per core when there are many, else in this process.
    """
    query = query or SessionQuery()
    registry = registry or get_registry()
    environ = os.environ if environ is None else environ
    home = Path.home() if home is None else home
    infos, cache = _facts(
        registry,
        environ,
        home,
        cli=query.cli,
        use_cache=use_cache,
        progress=progress,
        workers=workers,
    )
    try:
        kept = [info for info in infos if _keeps(info, query)]
        kept.sort(key=lambda info: (info.newest, info.path, info.key or ""), reverse=True)
        if query.search:
            kept = _searched(kept, query.search, cache, registry)
        return kept[: query.limit] if query.limit else kept
    finally:
        if cache is not None:
            cache.close()


def _searched(
    infos: list[SessionInfo], text: str, cache: FactsCache | None, registry: Registry
) -> list[SessionInfo]:
    """The sessions whose message text (user and assistant, subagents too) holds ``text``.

    The cached texts are read in one pass, one at a time (memory stays flat however
    long they are); a session whose text is not cached is read again.
    """
    needle = text.casefold()
    wanted = {(info.path, info.key or ""): info for info in infos}
    holding: set[Key] = set()
    seen: set[Key] = set()
    if cache is not None:
        for key, body in cache.texts():
            if key in wanted and key not in seen:
                seen.add(key)
                if needle in body.casefold():
                    holding.add(key)
    for key, info in wanted.items():
        if key not in seen and needle in _text_again(info, registry).casefold():
            holding.add(key)
    return [info for info in infos if (info.path, info.key or "") in holding]


def _text_again(info: SessionInfo, registry: Registry) -> str:
    """The message text of a session whose text is not cached: read it again."""
    path = Path(info.path)
    try:
        status = os.stat(path)
    except OSError:
        return ""
    parser = registry.load(info.adapter_type)
    found = SessionFile(
        info.adapter_type, info.cli, path, info.key, status.st_size, status.st_mtime_ns
    )
    return read_facts(found, parser, registry)[1]


def lookup_session(
    reference: str,
    *,
    registry: Registry | None = None,
    environ: Mapping[str, str] | None = None,
    home: Path | None = None,
    use_cache: bool = True,
    progress: Progress | None = None,
) -> SessionInfo:
    """The one session whose id is ``reference``, or starts with it.

    An exact id wins over prefixes. Raises :class:`~linewise.settings.errors.SessionNotFoundError`
    or :class:`~linewise.settings.errors.AmbiguousSessionError` (listing the candidates).
    """
    infos = list_sessions(registry=registry, environ=environ, home=home, use_cache=use_cache)
    wanted = reference.strip()
    exact = [info for info in infos if wanted in (info.id, info.key)]
    matches = exact or [info for info in infos if wanted and info.id.startswith(wanted)]
    unique = {(info.path, info.key): info for info in matches}
    if not unique:
        raise SessionNotFoundError(reference, len(infos))
    if len(unique) > 1:
        raise AmbiguousSessionError(reference, [(info.id, info.path) for info in unique.values()])
    return next(iter(unique.values()))


def all_facts(
    *,
    registry: Registry | None = None,
    environ: Mapping[str, str] | None = None,
    home: Path | None = None,
    memo: FactsMemo | None = None,
    read_new: bool = True,
    workers: int | None = None,
) -> list[SessionInfo]:
    """Every session's facts, newest first (see :func:`linewise.sessions.all_facts`)."""
    registry = registry or get_registry()
    environ = os.environ if environ is None else environ
    home = Path.home() if home is None else home
    infos, cache = _facts(
        registry,
        environ,
        home,
        cli=None,
        use_cache=True,
        progress=None,
        workers=workers,
        memo=memo,
        read_new=read_new,
    )
    if cache is not None:
        cache.close()
    infos.sort(key=lambda info: (info.newest, info.path, info.key or ""), reverse=True)
    return infos
