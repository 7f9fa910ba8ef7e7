"""Finding session files: every loaded plugin's stores, globbed, minus what they exclude."""

from __future__ import annotations

import fnmatch
import functools
import os
import re
import stat
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, NamedTuple, Protocol

from linewise_contracts.sessions import SessionStore

from linewise.plugins.generic import GENERIC_ADAPTER_TYPE
from linewise.plugins.guard import PluginCallFailure, describe
from linewise.plugins.registry import LoadedParser, Registry
from linewise.settings.logs import logger

__all__ = [
    "DeclaresStores",
    "SessionFile",
    "StoreOf",
    "StoresOfType",
    "find_files",
    "not_searched",
    "session_keys_of",
    "store_declarations",
    "store_files",
    "stores_of",
]


@dataclass(frozen=True, slots=True)
class StoreOf:
    """One store and the adapter type whose plugin declared it."""

    adapter_type: str
    store: SessionStore


@dataclass(frozen=True, slots=True)
class SessionFile:
    """One session on disk: its file, the key of it in a file holding several, size and mtime."""

    adapter_type: str
    cli: str
    path: Path
    key: str | None
    size: int
    mtime_ns: int


class DeclaresStores(Protocol):
    """What declares session stores: a :class:`StoresOfType` or a ``LoadedParser``."""

    @property
    def adapter_type(self) -> str: ...

    @property
    def session_stores(self) -> Callable[..., Any] | None: ...


class StoresOfType(NamedTuple):
    """One adapter type's guarded ``session_stores``, asked alone (the rest not imported)."""

    adapter_type: str
    session_stores: Callable[..., Any]


def store_declarations(registry: Registry) -> list[StoresOfType]:
    """The adapter types that declare session stores, each with its guarded
    ``session_stores``; of a declared format only that field is imported
    (``Registry.session_stores``), so a log no sniffer is sure of does not load every
    plugin whole to ask whether the file is in a store."""
    found = []
    for adapter_type in registry.adapter_types:
        if adapter_type == GENERIC_ADAPTER_TYPE:
            continue
        stores = registry.session_stores(adapter_type)
        if stores is not None:
            found.append(StoresOfType(adapter_type, stores))
            continue
        loaded = registry.already_loaded(adapter_type)
        if loaded is not None and loaded.isolated and "session_stores" in loaded.unserved:
            not_searched(registry, adapter_type)
    return found


_NOT_SEARCHED = (
    "not searched: the plugin runs isolated (LINEWISE_ISOLATE), and an isolated worker "
    "may not read files"
)


def not_searched(registry: Registry, adapter_type: str) -> None:
    """Record (and so warn, once) that an isolated plugin's session stores are left out."""
    failure = PluginCallFailure(adapter_type, "session_stores", _NOT_SEARCHED)
    if failure not in registry.call_failures.of(adapter_type):
        registry.call_failures.add(failure)


def stores_of(
    parser: DeclaresStores, environ: Mapping[str, str], home: Path, registry: Registry
) -> list[StoreOf]:
    """The stores ``parser``'s plugin declares; a failure or a malformed store is recorded."""
    assert parser.session_stores is not None
    try:
        declared = parser.session_stores(environ, home)
    except Exception as error:  # the guard turned anything else into an Exception
        _failed(registry, parser, f"raised {describe(error)}")
        return []
    if type(declared) not in (list, tuple):
        _failed(registry, parser, f"returned a {type(declared).__name__}, not a list")
        return []
    stores = []
    for store in declared:
        problem = _store_problem(store)
        if problem is not None:
            _failed(registry, parser, problem)
            continue
        stores.append(StoreOf(parser.adapter_type, store))
    return stores


def _store_problem(store: object) -> str | None:
    if type(store) is not SessionStore:
        return f"returned a {type(store).__name__}, not a SessionStore"
    if not isinstance(store.root, Path) or type(store.cli) is not str or not store.cli.strip():
        return "returned a SessionStore without a Path root or a cli name"
    for pattern in (*store.patterns, *store.exclude):
        if type(pattern) is not str or not pattern or pattern.startswith(("/", "\\")):
            return f"returned a SessionStore with a bad pattern {pattern!r}"
        if ".." in PurePosixPath(pattern).parts:
            return f"returned a SessionStore whose pattern {pattern!r} leaves its root"
    return None


def _failed(registry: Registry, parser: DeclaresStores, reason: str) -> None:
    registry.call_failures.add(PluginCallFailure(parser.adapter_type, "session_stores", reason))


def excluded(relative: str, patterns: tuple[str, ...]) -> bool:
    """Whether ``relative`` (a POSIX path under a store's root) matches one of ``patterns``.

    Segment by segment: ``*`` stays within a segment, ``**`` spans any number of them.
    """
    parts = relative.split("/")
    return any(_matches(parts, _segments(pattern)) for pattern in patterns)


Segment = Callable[[str], object] | None


@functools.lru_cache(maxsize=256)
def _segments(pattern: str) -> tuple[Segment, ...]:
    """A pattern's segments, each a name matcher, or None for ``**``."""
    return tuple(
        None if segment == "**" else re.compile(fnmatch.translate(segment)).match
        for segment in pattern.split("/")
    )


def _matches(parts: list[str], pattern: tuple[Segment, ...]) -> bool:
    if None not in pattern:  # the usual exclusion: one matcher per segment, no DP
        return len(parts) == len(pattern) and all(
            match(part) is not None  # type: ignore[misc]
            for match, part in zip(pattern, parts, strict=True)
        )
    # reachable[j]: the first i parts can match the first j pattern segments (linear DP).
    reachable = [True] + [False] * len(pattern)
    for j, segment in enumerate(pattern, 1):
        reachable[j] = segment is None and reachable[j - 1]
    for part in parts:
        following = [False] * (len(pattern) + 1)
        for j, segment in enumerate(pattern, 1):
            if segment is None:
                following[j] = reachable[j] or reachable[j - 1] or following[j - 1]
            elif reachable[j - 1] and segment(part) is not None:
                following[j] = True
        reachable = following
    return reachable[-1]


def find_files(found: StoreOf, parser: LoadedParser, registry: Registry) -> Iterator[SessionFile]:
    """Every session file of one store (several per file when the plugin has ``session_keys``)."""
    store = found.store
    for path, size, mtime_ns in store_files(store):
        for key in session_keys_of(parser, Path(path), registry):
            yield SessionFile(parser.adapter_type, store.cli, Path(path), key, size, mtime_ns)


def store_files(store: SessionStore) -> list[tuple[str, int, int]]:
    """The regular files of one store its patterns match and ``exclude`` leaves: (path, size,
    mtime_ns), each pattern's in path order, a file two patterns match once.

    Found as :meth:`pathlib.Path.glob` (Python 3.11) finds them, with :func:`os.scandir`:
    one listing per folder the patterns reach and one ``stat`` per file, no ``Path``
    made per file (the warm listing of 10,000 sessions is mostly this).
    """
    root = str(store.root)
    found: list[tuple[str, int, int]] = []
    seen: set[str] = set()
    for pattern in store.patterns:
        if pattern.endswith(("/", "\\")):
            continue  # matches folders only, never a session file
        segments = PurePosixPath(pattern).parts
        try:
            matched = sorted(_select(root, "", segments), key=_path_order)
        except (OSError, ValueError) as error:
            logger.warning("cannot look in %s for %s: %s", root, pattern, error)
            continue
        for path, relative in matched:
            if path in seen:
                continue
            seen.add(path)
            if store.exclude and excluded(relative, store.exclude):
                continue
            try:
                status = os.stat(path)
            except OSError:
                continue  # gone since the listing, or a broken link
            if stat.S_ISREG(status.st_mode):
                found.append((path, status.st_size, status.st_mtime_ns))
    return found


def _path_order(item: tuple[str, str]) -> str:
    # As pathlib sorts paths, part by part (``a/b`` before ``a-c``): the separator made the
    # smallest character, which no name holds, orders strings the same way.
    return item[0].replace(os.sep, "\0")


def _child(parent: str, name: str) -> str:
    if parent == ".":
        return name  # as pathlib spells it: Path(".") / "a" is "a"
    return parent + name if parent.endswith(os.sep) else parent + os.sep + name


def _select(parent: str, relative: str, segments: tuple[str, ...]) -> Iterator[tuple[str, str]]:
    """(path, POSIX path relative to the root) of everything under ``parent`` matching
    ``segments``, as pathlib's selectors of Python 3.11 find them."""
    if not segments:
        yield parent, relative
        return
    if not os.path.isdir(parent):
        return
    yield from _below(parent, relative, segments)


def _below(parent: str, relative: str, segments: tuple[str, ...]) -> Iterator[tuple[str, str]]:
    segment, rest = segments[0], segments[1:]
    if segment == "**":
        yielded: set[str] = set()
        for folder, where in _folders(parent, relative):
            for item in _select_in(folder, where, rest):
                if item[0] not in yielded:
                    yielded.add(item[0])
                    yield item
        return
    if "**" in segment:
        raise ValueError("Invalid pattern: '**' can only be an entire path component")
    if not ("*" in segment or "?" in segment or "[" in segment):
        path = _child(parent, segment)
        if os.path.isdir(path) if rest else os.path.exists(path):
            yield from _select_in(path, _joined(relative, segment), rest)
        return
    match = _name_matcher(segment)
    entries = _entries(parent)
    if not rest:  # the files of one folder (most of a store): no generator per file
        folder = _child(parent, "")
        prefix = _joined(relative, "")
        yield from (
            (folder + entry.name, prefix + entry.name)
            for entry in entries
            if match(entry.name) is not None
        )
        return
    for entry in entries:
        try:
            if not entry.is_dir():
                continue
        except OSError:
            continue
        name = entry.name
        if match(name) is not None:
            yield from _select_in(_child(parent, name), _joined(relative, name), rest)


def _select_in(path: str, relative: str, rest: tuple[str, ...]) -> Iterator[tuple[str, str]]:
    # A selector's successor: the path is known to be a folder (or the last segment).
    if not rest:
        yield path, relative
    else:
        yield from _below(path, relative, rest)


def _folders(parent: str, relative: str) -> Iterator[tuple[str, str]]:
    """``parent`` and every folder below it, links to folders not followed (as ``**`` does)."""
    yield parent, relative
    for entry in _entries(parent):
        try:
            folder = entry.is_dir(follow_symlinks=False)
        except OSError:
            continue
        if folder:
            yield from _folders(_child(parent, entry.name), _joined(relative, entry.name))


def _entries(folder: str) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as listing:
            return list(listing)
    except PermissionError:
        return []  # as pathlib: an unreadable folder holds nothing


def _joined(relative: str, name: str) -> str:
    return f"{relative}/{name}" if relative else name


@functools.lru_cache(maxsize=256)
def _name_matcher(segment: str) -> Callable[[str], object]:
    # pathlib's rule: case matters on POSIX (macOS too), not on Windows.
    flags = re.IGNORECASE if os.name == "nt" else 0
    return re.compile(fnmatch.translate(segment), flags).fullmatch


def session_keys_of(parser: LoadedParser, path: Path, registry: Registry) -> list[str | None]:
    """The keys of the sessions a store file holds (``[None]``: the file is one session);
    a failing or malformed ``session_keys`` is recorded and gives none."""
    if parser.session_keys is None:
        return [None]
    try:
        keys = parser.session_keys(path)
    except Exception as error:  # the guard turned anything else into an Exception
        reason = f"raised {describe(error)} on {path}"
        registry.call_failures.add(PluginCallFailure(parser.adapter_type, "session_keys", reason))
        return []
    if type(keys) not in (list, tuple) or any(type(key) is not str for key in keys):
        reason = f"returned {type(keys).__name__}, not a list of str, on {path}"
        registry.call_failures.add(PluginCallFailure(parser.adapter_type, "session_keys", reason))
        return []
    return list(dict.fromkeys(keys))
