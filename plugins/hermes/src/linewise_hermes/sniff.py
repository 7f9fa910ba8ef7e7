"""Whether a log is Hermes Agent's text output (``hermes_local``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from linewise_contracts.extract import strip_ansi

__all__ = ["sniff"]

_MARKERS: Final = {
    "tool": re.compile(
        r"^(?:\[done\]\s*)?┊\s*(?:💬|review diff$|\S+\s+\S.*\s\d+(?:\.\d+)?s(?:\s*\[[^\]]*\])*"
        r"(?:\s*\(\d+(?:\.\d+)?s\))?$)"
    ),
    "box": re.compile(r"^(?:╭─+\s*⚕\s*Hermes|┌─+\s*Reasoning\b)"),
    "session": re.compile(
        r"^(?:session_id:\s*\d{8}_\d{6}_[0-9a-f]{6}$"
        r"|Session:\s+\d{8}_\d{6}_[0-9a-f]{6}$"
        r"|hermes\s+--resume\s+\d{8}_\d{6}_[0-9a-f]{6}$"
        r"|↻ Resumed session )"
    ),
    "adapter": re.compile(r"^\[hermes\]\s"),
    "footer": re.compile(r"^Messages:\s+\d+ \(\d+ user, \d+ tool calls?\)$"),
}


def sniff(lines: Sequence[str]) -> float:
    """How sure (0 to 1) it is that Hermes Agent's text output starts with ``lines``.

    Hermes writes text, so this looks for what only Hermes prints at the start
    of a line: ``┊`` tool lines ending in a duration, ``┊ 💬`` messages, the
    ``╭─ ⚕ Hermes`` response box, ``session_id: YYYYMMDD_HHMMSS_xxxxxx``, the
    ``Messages: N (x user, y tool calls)`` footer, ``[hermes]`` adapter lines.
    One kind of marker gives 0.9, two or more 1.0; a log that is mostly JSON
    (another CLI's events) gives 0.
    """
    kinds: set[str] = set()
    json_lines = total = 0
    for raw in lines:
        text = strip_ansi(raw).strip()
        if not text:
            continue
        total += 1
        if text.startswith("{"):
            json_lines += 1
            continue
        for kind, pattern in _MARKERS.items():
            if pattern.match(text):
                kinds.add(kind)
                break
    if not kinds or json_lines * 2 > total:
        return 0.0
    return 1.0 if len(kinds) >= 2 else 0.9
