"""A cache of the entry-point scan, so that start-up does not read every installed distribution.

Reading the ``linewise.parsers`` claims means opening the metadata of every
installed distribution: with a thousand of them that is most of what
``linewise list`` costs. The scan's result is kept in a small JSON file under
the user's cache folder (``LINEWISE_CACHE_DIR`` overrides it; set it empty to
turn the cache off), one file per environment and ``sys.path``.

It is used only while nothing it depends on has changed: every ``sys.path``
entry (its real path, modification time, inode and device: installing or
removing a distribution adds or removes a folder there, and so changes it) and
the ``entry_points.txt`` and ``METADATA`` files of each distribution that
claims an adapter type. A change within two seconds of the scan is not trusted
(coarse file-system clocks): such a scan is not written. A cache that is
unreadable, corrupt, foreign or unwritable is ignored, and the scan runs as if
there were none. It holds data only (names, versions, entry point values);
nothing in it is evaluated.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
import zlib
from collections.abc import Callable
from typing import Any, Final

from linewise.plugins.candidate import Candidate, Scan
from linewise.plugins.dist_info import load_entry_point
from linewise.plugins.site_scan import only_path_finders
from linewise.settings.logs import logger
from linewise.settings.version import __version__

__all__ = ["CachedEntryPoint", "cache_folder", "cached_scan"]


FORMAT: Final = 1
#: Changes younger than this may share a modification time with a later one.
SETTLE_NS: Final = 2_000_000_000
_GROUP: Final = "linewise.parsers"


class CachedEntryPoint:
    """An entry point read back from the cache; ``load()`` imports it as importlib's does."""

    __slots__ = ("group", "name", "value")

    def __init__(self, name: str, value: str, group: str = _GROUP) -> None:
        self.name = name
        self.value = value
        self.group = group

    def load(self) -> Any:
        """Import the module and return the attribute the value names (``module:attr.sub``)."""
        return load_entry_point(self.value)

    def __repr__(self) -> str:
        return f"CachedEntryPoint(name={self.name!r}, value={self.value!r}, group={self.group!r})"


def cache_folder() -> str | None:
    """Where linewise keeps its caches; None when ``LINEWISE_CACHE_DIR`` is set empty."""
    from linewise.settings.cache_folder import cache_folder_name

    return cache_folder_name()


def _stamp(path: str) -> list[int] | None:
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        return None
    return [status.st_mtime_ns, status.st_ino, status.st_dev]


def _path_state() -> list[list[Any]]:
    """Each sys.path entry, as written and resolved, with its modification stamp."""
    state: list[list[Any]] = []
    for entry in sys.path:
        if not isinstance(entry, str):
            continue
        real = os.path.realpath(entry or os.curdir)
        state.append([entry, real, _stamp(real)])
    return state


def _file_state(candidates: list[Candidate]) -> list[list[Any]] | None:
    """The metadata files of each claiming distribution; None when one has no folder."""
    files: list[list[Any]] = []
    for candidate in candidates:
        folder = getattr(getattr(candidate.entry_point, "dist", None), "_path", None)
        if folder is None:
            return None
        for name in ("entry_points.txt", "METADATA"):
            path = os.path.join(str(folder), name)
            files.append([path, _stamp(path)])
    return files


def _cache_file(folder: str, paths: list[list[Any]]) -> str:
    identity = json.dumps([sys.executable, [entry for entry, _, _ in paths]])
    digest = zlib.crc32(identity.encode("utf-8", "surrogatepass"))
    return os.path.join(folder, f"scan-{digest:08x}.json")


def cached_scan(fresh: Callable[[], Scan]) -> Scan:
    """The cached scan when still valid, else ``fresh()`` (and the cache rewritten)."""
    folder = cache_folder()
    if folder is None or not only_path_finders():
        return fresh()
    paths = _path_state()
    file = _cache_file(folder, paths)
    cached = _read(file, paths)
    if cached is not None:
        return cached
    found = fresh()
    files = _file_state(found.candidates)
    if files is not None and _settled(paths, files):
        _write(file, _to_json(found, paths, files))
    return found


def _settled(paths: list[list[Any]], files: list[list[Any]]) -> bool:
    stamps = [stamp for _, _, stamp in paths] + [stamp for _, stamp in files]
    newest: int = max((stamp[0] for stamp in stamps if stamp), default=0)
    return time.time_ns() - newest > SETTLE_NS


def _to_json(found: Scan, paths: list[list[Any]], files: list[list[Any]]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "linewise": __version__,
        "group": _GROUP,
        "paths": paths,
        "files": files,
        "skipped": found.skipped,
        "candidates": [
            {
                "adapter_type": c.adapter_type,
                "value": c.value,
                "distribution": c.distribution,
                "version": c.version,
                "summary": c.summary,
                "requires": None if c.requires is None else list(c.requires),
                "path_rank": c.path_rank,
            }
            for c in found.candidates
        ],
    }


def _write(file: str, payload: dict[str, Any]) -> None:
    partial = f"{file}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(file), mode=0o700, exist_ok=True)
        with open(partial, "w", encoding="ascii") as handle:
            handle.write(json.dumps(payload))
        os.replace(partial, file)
    except OSError as error:
        logger.debug("entry-point cache not written to %s: %s", file, error)
        with contextlib.suppress(OSError):
            os.unlink(partial)


def _read(file: str, paths: list[list[Any]]) -> Scan | None:
    try:
        with open(file, "rb") as handle:
            if hasattr(os, "getuid") and os.fstat(handle.fileno()).st_uid != os.getuid():
                return None  # someone else's file: not trusted
            payload = json.loads(handle.read())
    except (OSError, ValueError):
        return None
    try:
        return _from_json(payload, paths)
    except (KeyError, TypeError, ValueError):
        return None  # corrupt, or written by another version: scan again


def _from_json(payload: Any, paths: list[list[Any]]) -> Scan | None:
    if not isinstance(payload, dict):
        raise TypeError("payload")
    if (
        payload.get("format") != FORMAT
        or payload.get("linewise") != __version__
        or payload.get("group") != _GROUP
        or payload.get("paths") != paths
    ):
        return None
    files = payload["files"]
    if not isinstance(files, list) or not all(_unchanged(pair) for pair in files):
        return None
    skipped = payload["skipped"]
    if not isinstance(skipped, list) or not all(isinstance(s, str) for s in skipped):
        raise ValueError("skipped")
    return Scan([_candidate(item) for item in payload["candidates"]], skipped)


def _unchanged(pair: Any) -> bool:
    if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)):
        raise TypeError("files")
    return bool(_stamp(pair[0]) == pair[1])


def _text(item: dict[str, Any], key: str, *, optional: bool = True) -> str | None:
    value = item[key]
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise TypeError(key)
    return value


def _candidate(item: dict[str, Any]) -> Candidate:
    adapter_type = _text(item, "adapter_type", optional=False)
    value = _text(item, "value", optional=False)
    assert adapter_type is not None and value is not None
    requires = item["requires"]
    if requires is not None and not (
        isinstance(requires, list) and all(isinstance(r, str) for r in requires)
    ):
        raise TypeError("requires")
    rank = item["path_rank"]
    if not isinstance(rank, int) or isinstance(rank, bool):
        raise TypeError("path_rank")
    return Candidate(
        adapter_type=adapter_type,
        value=value,
        distribution=_text(item, "distribution"),
        version=_text(item, "version"),
        summary=_text(item, "summary"),
        requires=None if requires is None else tuple(requires),
        path_rank=rank,
        entry_point=CachedEntryPoint(adapter_type, value),
    )
