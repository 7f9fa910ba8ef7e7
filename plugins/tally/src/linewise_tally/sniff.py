"""Whether a log is Tally's: its markers on nearly every line (``tally_local``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

__all__ = ["CALL", "MARKERS", "SESSION", "sniff"]

# The parser reads these from here: detection imports this module alone.
SESSION: Final = re.compile(r"@session\s+(\S+)(?:\s+model=(\S+))?")
CALL: Final = re.compile(r"\$\s*\[([^\]]+)\]\s*([^:\s]+):?\s?(.*)")
MARKERS: Final = ("@session", ">", "~", "$", "=", "!", "#")


def sniff(lines: Sequence[str]) -> float:
    """How surely Tally wrote these first lines: its markers on nearly every line."""
    if not lines:
        return 0.0
    marked = sum(1 for line in lines if line.strip().startswith(MARKERS))
    structured = sum(1 for line in lines if SESSION.match(line.strip()) or CALL.match(line.strip()))
    if structured == 0:
        return 0.0
    return round(0.95 * marked / len(lines), 2)
