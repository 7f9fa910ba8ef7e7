"""The one colour table: the reference convention, shared by every renderer and command."""

from __future__ import annotations

import os
from typing import IO, Any, Final

__all__ = ["COLOURS", "STATUS_ROLES", "paint", "use_color"]

#: Role -> SGR parameters. The reference convention: lifecycle and usage blue,
#: assistant green, thinking and tool input grey, tool calls yellow, results
#: cyan, errors red. The roles of a plugin's compact lines
#: (``linewise_contracts.protocols.CompactRole``) are all here.
COLOURS: Final[dict[str, str]] = {
    "lifecycle": "34",
    "assistant": "32",
    "thinking": "2;90",
    "input": "90",
    "tool": "33",
    "tool_name": "1;33",
    "result": "36",
    "error": "31",
    "heading": "1;32",
    "user": "35",
    "emphasis": "1",
    "muted": "90",
    "plain": "",
    # States shown by `linewise list`, `doctor` and `check`.
    "pass": "32",
    "warn": "33",
    "fail": "31",
}

#: The state words of list / doctor / check, each to the role that colours it.
STATUS_ROLES: Final[dict[str, str]] = {
    "pass": "pass",
    "info": "pass",
    "loaded": "pass",
    "available": "pass",
    "warn": "warn",
    "incompatible": "warn",
    "error": "fail",
    "fail": "fail",
    "failed": "fail",
    "skip": "muted",
    "disabled": "muted",
    "shadowed": "muted",
    "not installed": "muted",
}


def paint(text: str, role: str | None, enabled: bool = True) -> str:
    """``text`` in the colour of ``role`` (unchanged when disabled, empty or uncoloured)."""
    code = COLOURS.get(role or "", "")
    if not enabled or not code or not text:
        return text
    return f"\x1b[{code}m{text}\x1b[0m"


def use_color(stream: IO[Any], choice: str = "auto") -> bool:
    """Whether to colour ``stream``: ``always``, ``never``, or ``auto`` (a tty, no NO_COLOR)."""
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and os.environ.get("TERM") != "dumb"
