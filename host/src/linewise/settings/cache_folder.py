"""Where linewise keeps its caches: one rule for the entry-point scan and the session facts."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["cache_folder", "cache_folder_name", "expand_user"]


def cache_folder(environ: Mapping[str, str] | None = None, home: Path | None = None) -> Path | None:
    """``LINEWISE_CACHE_DIR``, else the platform's user cache folder; None when caching is off.

    ``LINEWISE_CACHE_DIR`` set but empty turns every cache off. ``environ`` and
    ``home`` default to the process's (tests and host apps pass their own).
    """
    name = cache_folder_name(environ, home)
    if name is None:
        return None
    from pathlib import Path

    return Path(name)


def cache_folder_name(
    environ: Mapping[str, str] | None = None, home: os.PathLike[str] | str | None = None
) -> str | None:
    """:func:`cache_folder` as a string, found without importing pathlib (start-up reads it).

    The same folder, and the same errors: a ``~`` that names no home raises
    :class:`RuntimeError`, as ``Path.expanduser`` does.
    """
    env = os.environ if environ is None else environ
    configured = env.get("LINEWISE_CACHE_DIR")
    if configured is not None:
        return expand_user(configured.strip()) if configured.strip() else None
    base = expand_user("~") if home is None else os.fspath(home)
    if sys.platform == "darwin":
        return os.path.join(base, "Library", "Caches", "linewise")
    if sys.platform == "win32":
        local = env.get("LOCALAPPDATA", "").strip()
        return os.path.join(local or os.path.join(base, "AppData", "Local"), "linewise", "Cache")
    xdg = env.get("XDG_CACHE_HOME", "").strip()
    return os.path.join(
        xdg if xdg and os.path.isabs(xdg) else os.path.join(base, ".cache"), "linewise"
    )


def expand_user(text: str) -> str:
    """``Path(text).expanduser()`` as a string, without importing pathlib."""
    if not text.startswith("~"):
        return text
    expanded = os.path.expanduser(text)
    if expanded.startswith("~"):
        raise RuntimeError("Could not determine home directory.")
    return expanded
