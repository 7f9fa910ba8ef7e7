"""Listing, searching and looking up the sessions on this machine."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from linewise._version import __version__
from linewise.errors import AmbiguousSessionError, SessionNotFoundError
from linewise.plugins.registry import LoadedParser, Registry, get_registry
from linewise.sessions._cache import FactsCache, Key, cache_dir
from linewise.sessions._facts import SessionInfo, read_facts, utc_iso
from linewise.sessions._stores import SessionFile, find_files, session_parsers, stores_of

__all__ = ["Progress", "SessionQuery", "list_sessions", "lookup_session", "parse_since"]

#: Facts written to the cache in one transaction.
_BATCH = 200
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


def _reader(parser: LoadedParser, registry: Registry) -> str:
    """What must not change for a cached row to stay valid: host, adapter type, plugin, and
    the price table that estimated its cost."""
    from linewise.transcript.prices import price_data

    info = registry.info(parser.adapter_type)
    return f"{__version__}|{parser.adapter_type}|{info.distribution}|{info.version}|{price_data()}"


def _all_files(
    registry: Registry, environ: Mapping[str, str], home: Path, cli: str | None
) -> dict[Key, tuple[SessionFile, LoadedParser]]:
    """Every session file, once, by its cache key: a file two stores claim is read by the
    first adapter type."""
    files: dict[Key, tuple[SessionFile, LoadedParser]] = {}
    for parser in session_parsers(registry):
        for found in stores_of(parser, environ, home, registry):
            if cli is not None and found.store.cli.casefold() != cli.casefold():
                continue
            for one in find_files(found, parser, registry):
                files.setdefault(_key(one), (one, parser))
    return files


def _facts(
    registry: Registry,
    environ: Mapping[str, str],
    home: Path,
    *,
    cli: str | None,
    use_cache: bool,
    progress: Progress | None,
) -> tuple[list[SessionInfo], FactsCache | None]:
    files = _all_files(registry, environ, home, cli)
    folder = cache_dir(environ, home) if use_cache else None
    cache = FactsCache(folder) if folder is not None else None
    cached = cache.rows() if cache is not None else {}
    infos: list[SessionInfo] = []
    todo: list[tuple[Key, SessionFile, LoadedParser, str]] = []
    readers: dict[str, str] = {}
    for key, (found, parser) in files.items():
        reader = readers.get(parser.adapter_type)
        if reader is None:
            reader = readers[parser.adapter_type] = _reader(parser, registry)
        row = cached.get(key)
        if row is not None and row[:3] == (found.size, found.mtime_ns, reader):
            infos.append(row[3])
        else:
            todo.append((key, found, parser, reader))
    total = sum(found.size for _, found, _, _ in todo)
    done = 0
    written: list[tuple[Key, int, int, str, SessionInfo, str]] = []
    try:
        for key, found, parser, reader in todo:
            info, text = read_facts(found, parser, registry)
            infos.append(info)
            if info.problem is None:  # one read in part is tried again next time
                written.append((key, found.size, found.mtime_ns, reader, info, text))
            done += found.size
            if progress is not None:
                progress(done, total)
            if len(written) >= _BATCH:
                _flush(cache, written)
    finally:
        _flush(cache, written)  # even on Ctrl-C: what was read is not read again
    if cache is not None and cli is None:
        cache.forget_except(set(files))
    return infos, cache


def _flush(
    cache: FactsCache | None, written: list[tuple[Key, int, int, str, SessionInfo, str]]
) -> None:
    if cache is not None and written:
        cache.put(written)
    written.clear()


def _key(found: SessionFile) -> Key:
    return (str(found.path), found.key or "")


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
) -> list[SessionInfo]:
    """Every session the installed plugins' stores hold that ``query`` keeps, newest first."""
    query = query or SessionQuery()
    registry = registry or get_registry()
    environ = os.environ if environ is None else environ
    home = Path.home() if home is None else home
    infos, cache = _facts(
        registry, environ, home, cli=query.cli, use_cache=use_cache, progress=progress
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
    """The sessions whose message text (user and assistant, subagents too) holds ``text``."""
    needle = text.casefold()
    kept = []
    for info in infos:
        body = cache.text((info.path, info.key or "")) if cache is not None else None
        if body is None:
            body = _text_again(info, registry)
        if needle in body.casefold():
            kept.append(info)
    return kept


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

    An exact id wins over prefixes. Raises :class:`~linewise.errors.SessionNotFoundError`
    or :class:`~linewise.errors.AmbiguousSessionError` (listing the candidates).
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
