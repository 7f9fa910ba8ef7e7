"""The installed distributions, read so that one with unreadable metadata is skipped, not fatal."""

from __future__ import annotations

import inspect
from collections import defaultdict
from importlib.metadata import Distribution, EntryPoint, distributions

__all__ = ["installed_entry_points", "packages_distributions"]


def _where(dist: Distribution) -> str:
    # The dist-info folder names a distribution whose METADATA cannot be read.
    path = getattr(dist, "_path", None)
    return str(path) if path is not None else repr(dist)


def _why(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


def _name(dist: Distribution) -> str:
    name = dist.metadata["Name"]
    if not isinstance(name, str) or not name.strip():
        raise ValueError("no Name field")
    return name.strip()


def installed_entry_points(group: str) -> tuple[list[EntryPoint], list[str]]:
    """The ``group`` entry points of every installed distribution, and why some were skipped.

    Like ``importlib.metadata.entry_points(group=...)`` (the first distribution
    of a name on ``sys.path`` wins), except that a distribution whose
    ``entry_points.txt`` or ``METADATA`` cannot be read (malformed lines,
    invalid UTF-8) is skipped with a reason instead of failing the check.
    The host's discovery reads them the same way; contracts cannot import it.
    """
    points: list[EntryPoint] = []
    skipped: list[str] = []
    seen: set[str] = set()
    for dist in distributions():
        try:
            mine = [point for point in dist.entry_points if point.group == group]
        except Exception as error:  # any unreadable file is skipped with its reason
            skipped.append(f"{_where(dist)}: unreadable entry_points.txt ({_why(error)})")
            continue
        if not mine:
            continue
        try:
            name = _name(dist)
        except Exception as error:
            skipped.append(f"{_where(dist)}: unreadable METADATA ({_why(error)})")
            continue
        key = name.lower().replace("-", "_").replace(".", "_")
        if key in seen:
            continue  # an earlier sys.path entry holds this distribution: it wins
        seen.add(key)
        points.extend(mine)
    return points, skipped


def _top_level(dist: Distribution) -> set[str]:
    declared = dist.read_text("top_level.txt")
    if declared is not None:
        return {name for name in declared.split() if name}
    found: set[str] = set()
    for file in dist.files or ():
        top = file.parts[0] if len(file.parts) > 1 else inspect.getmodulename(str(file))
        if top and "." not in top:
            found.add(top)
    return found


def packages_distributions() -> tuple[dict[str, list[str]], list[str]]:
    """Top-level import names to the distributions providing them, and the ones skipped.

    ``importlib.metadata.packages_distributions`` without its failure on one
    unreadable distribution.
    """
    providers: dict[str, list[str]] = defaultdict(list)
    skipped: list[str] = []
    for dist in distributions():
        try:
            name = _name(dist)
            names = _top_level(dist)
        except Exception as error:
            skipped.append(f"{_where(dist)}: unreadable metadata ({_why(error)})")
            continue
        for top in names:
            providers[top].append(name)
    return dict(providers), skipped
