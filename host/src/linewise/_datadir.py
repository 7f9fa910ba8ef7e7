"""Where linewise keeps the user's own data (JavaScript parser registrations, for now)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["DATA_DIR_VARIABLE", "data_dir"]

#: Set to a folder to keep linewise's user data there instead of the platform's place.
DATA_DIR_VARIABLE = "LINEWISE_DATA_DIR"


def data_dir() -> Path:
    """The user data folder: ``LINEWISE_DATA_DIR``, else the platform's usual place.

    ``$XDG_DATA_HOME/linewise`` (default ``~/.local/share/linewise``) on Linux
    and other Unixes, ``~/Library/Application Support/linewise`` on macOS,
    ``%LOCALAPPDATA%\\linewise`` on Windows. Nothing is created here.
    """
    override = os.environ.get(DATA_DIR_VARIABLE, "").strip()
    if override:
        return Path(override).expanduser()
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA", "").strip()
        return Path(base or Path.home() / "AppData" / "Local") / "linewise"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "linewise"
    base = os.environ.get("XDG_DATA_HOME", "").strip()
    return Path(base or Path.home() / ".local" / "share") / "linewise"
