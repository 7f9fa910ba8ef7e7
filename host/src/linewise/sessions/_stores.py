"""Finding session files: every loaded plugin's stores, globbed, minus what they exclude."""

from __future__ import annotations

import fnmatch
import logging
import os
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from linewise_contracts.sessions import SessionStore

from linewise.plugins.generic import GENERIC_ADAPTER_TYPE
from linewise.plugins.guard import PluginCallFailure, describe
from linewise.plugins.registry import LoadedParser, Registry

__all__ = ["SessionFile", "StoreOf", "find_files", "session_parsers", "stores_of"]

logger = logging.getLogger("linewise")


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


def session_parsers(registry: Registry) -> list[LoadedParser]:
    """The loaded parsers that declare session stores (every plugin is imported to learn it)."""
    found = []
    for adapter_type in registry.adapter_types:
        if adapter_type == GENERIC_ADAPTER_TYPE:
            continue
        loaded = registry.load(adapter_type)
        if not loaded.is_fallback and loaded.session_stores is not None:
            found.append(loaded)
        elif loaded.isolated and "session_stores" in loaded.unserved:
            _not_searched(registry, adapter_type)
    return found


_NOT_SEARCHED = (
    "not searched: the plugin runs isolated (LINEWISE_ISOLATE), and an isolated worker "
    "may not read files"
)


def _not_searched(registry: Registry, adapter_type: str) -> None:
    """Record (and so warn, once) that an isolated plugin's session stores are left out."""
    failure = PluginCallFailure(adapter_type, "session_stores", _NOT_SEARCHED)
    if failure not in registry.call_failures.of(adapter_type):
        registry.call_failures.add(failure)


def stores_of(
    parser: LoadedParser, environ: Mapping[str, str], home: Path, registry: Registry
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


def _failed(registry: Registry, parser: LoadedParser, reason: str) -> None:
    registry.call_failures.add(PluginCallFailure(parser.adapter_type, "session_stores", reason))


def excluded(relative: str, patterns: tuple[str, ...]) -> bool:
    """Whether ``relative`` (a POSIX path under a store's root) matches one of ``patterns``.

    Segment by segment: ``*`` stays within a segment, ``**`` spans any number of them.
    """
    parts = relative.split("/")
    return any(_matches(parts, pattern.split("/")) for pattern in patterns)


def _matches(parts: list[str], pattern: list[str]) -> bool:
    # reachable[j]: the first i parts can match the first j pattern segments (linear DP).
    reachable = [True] + [False] * len(pattern)
    for j, segment in enumerate(pattern, 1):
        reachable[j] = segment == "**" and reachable[j - 1]
    for part in parts:
        following = [False] * (len(pattern) + 1)
        for j, segment in enumerate(pattern, 1):
            if segment == "**":
                following[j] = reachable[j] or reachable[j - 1] or following[j - 1]
            elif reachable[j - 1] and fnmatch.fnmatchcase(part, segment):
                following[j] = True
        reachable = following
    return reachable[-1]


def find_files(found: StoreOf, parser: LoadedParser, registry: Registry) -> Iterator[SessionFile]:
    """Every session file of one store (several per file when the plugin has ``session_keys``)."""
    store = found.store
    seen: set[Path] = set()
    for pattern in store.patterns:
        try:
            matches = sorted(store.root.glob(pattern))
        except (OSError, ValueError, NotImplementedError) as error:
            logger.warning("cannot look in %s for %s: %s", store.root, pattern, error)
            continue
        for path in matches:
            if path in seen:
                continue
            seen.add(path)
            if store.exclude and excluded(path.relative_to(store.root).as_posix(), store.exclude):
                continue
            try:
                status = os.stat(path)
            except OSError:
                continue  # gone since the glob, or a broken link
            if not stat.S_ISREG(status.st_mode):
                continue
            for key in _keys(parser, path, registry):
                yield SessionFile(
                    parser.adapter_type, store.cli, path, key, status.st_size, status.st_mtime_ns
                )


def _keys(parser: LoadedParser, path: Path, registry: Registry) -> list[str | None]:
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
