"""Where linewise keeps the user's own data (JavaScript parser registrations, for now)."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from linewise.settings.cache_folder import expand_user

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["DATA_DIR_VARIABLE", "data_dir", "data_folder_name"]

#: Set to a folder to keep linewise's user data there instead of the platform's place.
DATA_DIR_VARIABLE = "LINEWISE_DATA_DIR"


def data_dir() -> Path:
    """The user data folder: ``LINEWISE_DATA_DIR``, else the platform's usual place.

    ``$XDG_DATA_HOME/linewise`` (default ``~/.local/share/linewise``) on Linux
    and other Unixes, ``~/Library/Application Support/linewise`` on macOS,
    ``%LOCALAPPDATA%\\linewise`` on Windows. Nothing is created here.
    """
    from pathlib import Path

    return Path(data_folder_name())


def data_folder_name() -> str:
    """:func:`data_dir` as a string, found without importing pathlib (start-up looks there)."""
    override = os.environ.get(DATA_DIR_VARIABLE, "").strip()
    if override:
        return expand_user(override)
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA", "").strip()
        return os.path.join(base or os.path.join(expand_user("~"), "AppData", "Local"), "linewise")
    if sys.platform == "darwin":
        return os.path.join(expand_user("~"), "Library", "Application Support", "linewise")
    base = os.environ.get("XDG_DATA_HOME", "").strip()
    return os.path.join(base or os.path.join(expand_user("~"), ".local", "share"), "linewise")
