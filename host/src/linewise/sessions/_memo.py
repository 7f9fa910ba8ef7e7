"""The facts a long-running process has read, kept between listings (the web app's list page)."""

from __future__ import annotations

from linewise.sessions._cache import Key
from linewise.sessions._facts import SessionInfo

__all__ = ["FactsMemo"]


class FactsMemo:
    """Each session's facts as last listed, with the file's size, mtime_ns and reader.

    Pass the same memo to every :func:`linewise.sessions.all_facts` call of a
    process: a session whose file is unchanged is then taken from here, not
    even from the facts cache. It holds one :class:`SessionInfo` per session
    (about a kilobyte each), nothing of their text.
    """

    __slots__ = ("sessions",)

    def __init__(self) -> None:
        self.sessions: dict[Key, tuple[int, int, str, SessionInfo]] = {}

    def __len__(self) -> int:
        return len(self.sessions)
