"""Discovery: the installed parser plugins, read from entry points without importing them."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from linewise_contracts.protocols import (
    ENTRY_POINT_GROUP,
    adapter_type_problem,
    entry_point_value_problem,
)

from linewise.plugins.candidate import Candidate, Loadable, Scan
from linewise.plugins.guard import describe, guarded
from linewise.settings.logs import logger

if TYPE_CHECKING:
    from importlib.metadata import Distribution, EntryPoint

    from linewise.plugins.dist_info import FolderDistribution, FolderEntryPoint

    #: An installed distribution, read by importlib.metadata or from its folder's bytes.
    Installed = Distribution | FolderDistribution
    InstalledPoint = EntryPoint | FolderEntryPoint

__all__ = [
    "Candidate",
    "Loadable",
    "Scan",
    "adapter_type_problem",
    "entry_point_value_problem",
    "installed_entry_points",
    "scan",
]


def _path_ranks() -> dict[str, int]:
    ranks: dict[str, int] = {}
    for index, entry in enumerate(sys.path):
        ranks.setdefault(os.path.realpath(entry or os.curdir), index)
    return ranks


def _where(dist: Installed) -> str:
    # The dist-info folder names a distribution whose METADATA cannot be read.
    path = getattr(dist, "_path", None)
    return str(path) if path is not None else repr(dist)


def _points_of(dist: Installed, group: str) -> list[InstalledPoint]:
    return [point for point in dist.entry_points if point.group == group]


def _name_of(dist: Installed) -> object:
    return _field(dist.metadata, "Name")


def installed_entry_points(
    group: str = ENTRY_POINT_GROUP,
) -> tuple[list[InstalledPoint], list[str]]:
    """The ``group`` entry points of every installed distribution, and why some were skipped.

    Like ``importlib.metadata.entry_points(group=...)`` (the first distribution
    of a name on ``sys.path`` wins), except that a distribution whose
    ``entry_points.txt`` or ``METADATA`` cannot be read (malformed lines,
    invalid UTF-8) is skipped with a reason instead of failing every command.
    Only distributions whose ``entry_points.txt`` mentions ``group`` are read
    further (see :mod:`linewise.plugins.site_scan`), and only those with entry points
    in it have their METADATA read.
    """
    from linewise.plugins.site_scan import candidate_distributions

    points: list[InstalledPoint] = []
    skipped: list[str] = []
    seen: set[str] = set()
    for dist in candidate_distributions(group):
        mine, error = guarded(_points_of, dist, group)
        if error is not None:
            skipped.append(f"{_where(dist)}: unreadable entry_points.txt ({describe(error)})")
            continue
        if not mine:
            continue
        name, error = guarded(_name_of, dist)
        if error is not None or not isinstance(name, str) or not name.strip():
            why = describe(error) if error is not None else "no Name field"
            skipped.append(f"{_where(dist)}: unreadable METADATA ({why})")
            continue
        key = name.strip().lower().replace("-", "_").replace(".", "_")
        if key in seen:
            continue  # an earlier sys.path entry holds this distribution: it wins
        seen.add(key)
        points.extend(mine)
    return points, skipped


def _candidate(point: InstalledPoint, ranks: dict[str, int]) -> Candidate:
    dist = point.dist
    name = version = summary = None
    requires: tuple[str, ...] | None = None
    rank = len(ranks) + 1
    if dist is not None:
        # One read of METADATA gives name, version, summary and Requires-Dist.
        metadata = dist.metadata
        name = _text(_field(metadata, "Name"))
        version = _text(_field(metadata, "Version"))
        summary = _text(_field(metadata, "Summary"))
        requires = tuple(
            item for item in metadata.get_all("Requires-Dist") or () if isinstance(item, str)
        )
        location = dist.locate_file("")
        rank = ranks.get(os.path.realpath(str(location)), rank)
    return Candidate(
        adapter_type=point.name,
        value=point.value,
        distribution=name,
        version=version,
        summary=summary,
        requires=requires,
        path_rank=rank,
        entry_point=point,
    )


def _field(metadata: Any, name: str) -> object:
    """A METADATA field, None when absent.

    importlib_metadata's distributions (found once anything imports the backport,
    which puts its finder on sys.meta_path) raise KeyError for a field that is
    not there, where the standard library's give None.
    """
    try:
        return metadata[name]
    except KeyError:
        return None


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def scan(points: Iterable[EntryPoint] | None = None) -> Scan:
    """Every claim in the ``linewise.parsers`` group, read from installed metadata only.

    ``points`` replaces the environment's entry points (for host apps that
    assemble their own set, and for tests). A distribution whose metadata
    cannot be read is skipped, logged and named in :attr:`Scan.skipped`.
    The environment's scan is cached between processes (see
    :mod:`linewise.plugins.scan_cache`).
    """
    if points is None:
        from linewise.plugins.scan_cache import cached_scan

        found = cached_scan(_scan_installed)
        # JavaScript registrations change apart from sys.path: never cached.
        problems: list[str] = []
        javascript = _javascript_candidates(problems)
        if javascript or problems:
            found = Scan([*found.candidates, *javascript], [*found.skipped, *problems])
    else:
        found = _scan_points(points, [])
    for reason in found.skipped:
        logger.warning("skipped an installed distribution: %s", reason)
    return found


def _scan_installed() -> Scan:
    points, skipped = installed_entry_points()
    return _scan_points(points, skipped)


def _scan_points(points: Iterable[InstalledPoint], skipped: list[str]) -> Scan:
    ranks = _path_ranks()
    candidates: list[Candidate] = []
    for point in points:
        candidate, error = guarded(_candidate, point, ranks)
        if candidate is None:
            assert error is not None
            skipped.append(f"entry point {point.name!r}: unreadable metadata ({describe(error)})")
            continue
        candidates.append(candidate)
    return Scan(candidates, skipped)


def _javascript_candidates(skipped: list[str]) -> list[Candidate]:
    """Registered JavaScript parsers; their support is imported only when there are some."""
    from linewise.settings.data_folder import data_folder_name

    try:
        with os.scandir(os.path.join(data_folder_name(), "javascript")) as entries:
            if not any(entry.is_dir() and not entry.name.startswith(".") for entry in entries):
                return []
    except OSError:
        return []
    from linewise.plugins.javascript._discovery import javascript_candidates

    found, problems = javascript_candidates()
    skipped.extend(problems)
    return found
