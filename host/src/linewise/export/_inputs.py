"""Which files an export reads: the files named and the files under the folders named."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable

__all__ = ["collect_inputs"]


def collect_inputs(
    paths: Iterable[str], pattern: str | None = None, *, exclude: str | None = None
) -> tuple[list[str], list[str], frozenset[str]]:
    """The input files as sorted absolute paths, the paths that are not there, and the named.

    The third is the inputs named explicitly (absolute), as opposed to found in a folder.

    A folder is walked (symbolic links to folders are not followed, so a loop
    cannot trap the walk); hidden files and folders (``.name``) in it are
    skipped, and with ``pattern`` only files whose name matches the glob are
    taken. A file named explicitly is always taken. Each file is read once
    however often it is named. The folder ``exclude`` (the export's own) is
    never walked into, so an export inside its input does not read its tables.
    """
    skipped = os.path.realpath(exclude) if exclude is not None else None
    found: set[str] = set()
    named: set[str] = set()
    missing: list[str] = []
    for path in paths:
        source = os.path.abspath(path)
        if os.path.isdir(source):
            for folder, folders, names in os.walk(source):
                folders[:] = [
                    name
                    for name in folders
                    if not name.startswith(".")
                    and (skipped is None or os.path.realpath(os.path.join(folder, name)) != skipped)
                ]
                for name in names:
                    if name.startswith("."):
                        continue
                    if pattern is not None and not fnmatch.fnmatch(name, pattern):
                        continue
                    file = os.path.join(folder, name)
                    if os.path.isfile(file):
                        found.add(file)
        elif os.path.isfile(source):
            found.add(source)
            named.add(source)
        else:
            missing.append(path)
    return sorted(found), missing, frozenset(named)
