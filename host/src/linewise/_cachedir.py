"""Where linewise keeps its caches: one rule for the entry-point scan and the session facts."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

__all__ = ["cache_folder"]


def cache_folder(environ: Mapping[str, str] | None = None, home: Path | None = None) -> Path | None:
    """``LINEWISE_CACHE_DIR``, else the platform's user cache folder; None when caching is off.

    ``LINEWISE_CACHE_DIR`` set but empty turns every cache off. ``environ`` and
    ``home`` default to the process's (tests and host apps pass their own).
    """
    env = os.environ if environ is None else environ
    configured = env.get("LINEWISE_CACHE_DIR")
    if configured is not None:
        return Path(configured.strip()).expanduser() if configured.strip() else None
    base = Path.home() if home is None else home
    if sys.platform == "darwin":
        return base / "Library" / "Caches" / "linewise"
    if sys.platform == "win32":
        local = env.get("LOCALAPPDATA", "").strip()
        return (Path(local) if local else base / "AppData" / "Local") / "linewise" / "Cache"
    xdg = env.get("XDG_CACHE_HOME", "").strip()
    return (Path(xdg) if xdg and Path(xdg).is_absolute() else base / ".cache") / "linewise"
