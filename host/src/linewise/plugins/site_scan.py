"""Which installed distributions may claim adapter types, found by reading bytes, not objects.

``importlib.metadata.distributions()`` builds an object per installed
distribution and parses every ``entry_points.txt``; with a thousand
distributions that is most of a cold ``linewise list``. This walks the
``sys.path`` folders as importlib does (``*.dist-info`` and ``*.egg-info``
entries, in folder order) and keeps only the distributions whose
``entry_points.txt`` mentions the group at all, which every distribution with
an entry point in it must. Those are read from their bytes too when they
are in the ordinary shape (:mod:`linewise.plugins.dist_info`), else by
importlib.metadata. A ``sys.path`` entry that is not a folder (a zip file) is
left to importlib; so is an environment where some import hook lists
distributions of its own.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

from linewise.plugins.dist_info import FolderDistribution

if TYPE_CHECKING:
    from importlib.metadata import Distribution

__all__ = ["candidate_distributions", "only_path_finders"]

_SUFFIXES = (".dist-info", ".egg-info")


def only_path_finders() -> bool:
    """True when sys.path alone says where distributions are (no custom finder lists any)."""
    from importlib.machinery import PathFinder

    return all(
        finder is PathFinder or getattr(finder, "find_distributions", None) is None
        for finder in sys.meta_path
    )


def _entry_points_text(folder: str) -> bytes | None:
    try:
        with open(os.path.join(folder, "entry_points.txt"), "rb") as handle:
            return handle.read()
    except OSError:
        return None  # no entry points at all, or a plain-file .egg-info


def _folder_matches(root: str, needle: bytes) -> list[tuple[str, bytes]] | None:
    """The metadata folders under ``root`` whose entry_points.txt mentions ``needle``, with
    its bytes; None when ``root`` is not a folder."""
    try:
        names = os.listdir(root)
    except NotADirectoryError:
        return None
    except OSError:
        return []  # missing or unreadable: importlib finds nothing there either
    infos = [n for n in names if n.lower().endswith(".dist-info")]
    eggs = [n for n in names if n.lower().endswith(".egg-info")]
    # importlib lists a folder's .dist-info entries before its .egg-info ones.
    found: list[tuple[str, bytes]] = []
    for name in infos + eggs:
        folder = os.path.join(root, name)
        data = _entry_points_text(folder)
        if data is not None and needle in data:
            found.append((folder, data))
    return found


def candidate_distributions(group: str) -> Iterator[Distribution | FolderDistribution]:
    """The installed distributions that may have entry points in ``group``, in sys.path order.

    A ``.dist-info`` folder in the ordinary shape is read without
    importlib.metadata (see :mod:`linewise.plugins.dist_info`); importlib reads the others.
    """
    if not only_path_finders():
        from importlib.metadata import distributions

        yield from distributions()
        return
    needle = group.encode("utf-8")
    for entry in list(sys.path):
        if not isinstance(entry, str):
            continue
        matches = _folder_matches(entry or ".", needle)
        if matches is None:
            from importlib.metadata import distributions

            yield from distributions(path=[entry])  # a zip file: importlib reads it
            continue
        for folder, data in matches:
            yield FolderDistribution.read(folder, data) or _importlib_distribution(folder)


def _importlib_distribution(folder: str) -> Distribution:
    from importlib.metadata import PathDistribution
    from pathlib import Path

    return PathDistribution(Path(folder))
