"""Which sessions are being written now: their files changed within the last two minutes."""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Final

from linewise.sessions._facts import SessionInfo

__all__ = ["LIVE_SECONDS", "is_live", "live_sessions"]

#: A session whose file changed this many seconds ago or less is being written (live).
#: Claude Code, Codex and the others write each record as it happens; an agent
#: thinking for longer than this writes nothing meanwhile and is not counted live.
LIVE_SECONDS: Final = 120.0


def is_live(info: SessionInfo, now: float | None = None) -> bool:
    """True when ``info``'s file was modified within :data:`LIVE_SECONDS` of ``now``.

    One of several sessions in a store file (a database) is live when the file
    is and its own last record is that recent too: the others were not written.
    """
    moment = time.time() if now is None else now
    try:
        modified = os.stat(info.path).st_mtime
    except OSError:
        return False
    if moment - modified > LIVE_SECONDS:
        return False
    if info.key is None:
        return True
    ended = _timestamp(info.ended)
    return ended is not None and moment - ended <= LIVE_SECONDS


def live_sessions(found: Iterable[SessionInfo], now: float | None = None) -> list[SessionInfo]:
    """The sessions of ``found`` being written now, in their order."""
    moment = time.time() if now is None else now
    return [info for info in found if is_live(info, moment)]


def _timestamp(text: str | None) -> float | None:
    if not text:
        return None
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.timestamp()
