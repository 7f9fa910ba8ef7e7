"""What a real Ctrl-C inside a parser left: made by the safety net and by batching alike."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from linewise_contracts.entries import TranscriptEntry

__all__ = ["Leftover"]


class Leftover:
    """What a real Ctrl-C inside the parser left: the entries not handed out yet (the
    output list it stopped), and the lines not parsed yet, the interrupted one first.

    A plain class: a dataclass cost about 3 M instructions to build at import."""

    __slots__ = ("entries", "lines")

    def __init__(self, entries: list[TranscriptEntry], lines: list[str]) -> None:
        self.entries = entries
        self.lines = lines
