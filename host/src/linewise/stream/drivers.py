"""Drivers: how a chunk's lines go through the safety net to the sink, and what a Ctrl-C left.

The session (:mod:`linewise.stream.session`) cuts stdout into lines and hands
each chunk's lines to its driver; the safety net (:mod:`linewise.stream.safety`)
checks one line. A driver decides how the lines reach the parser: one by one
(:class:`LineByLine`), or, for a parser isolated in worker processes, a chunk's
lines in one call (:class:`Batched`, see :mod:`linewise.stream.batching`). It
keeps what a real Ctrl-C inside the parser left (a
:class:`~linewise.stream.leftover.Leftover`: the entries the interrupted call
had made, the lines it had not parsed yet), which the session hands out, or
drops, on its next call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from linewise.stream.batching import parse_batched
from linewise.stream.leftover import Leftover
from linewise.stream.lines import stripped

if TYPE_CHECKING:
    from linewise_contracts.entries import TranscriptEntry

    from linewise.stream.safety import SafetyNet

__all__ = ["Batched", "LineByLine", "LineSink", "driver_for"]

#: Called with each stdout line (stripped, or as printed for a raw-line parser) and its entries.
LineSink = Callable[[str, "list[TranscriptEntry]"], None]


class LineByLine:
    """Each line of a chunk through the safety net in turn, then to the sink with its entries."""

    def __init__(self, net: SafetyNet) -> None:
        self.net = net
        #: Set when a real Ctrl-C stopped the parser; the session resumes from it.
        self.leftover: Leftover | None = None

    def take_leftover(self) -> Leftover | None:
        """What a real Ctrl-C inside the parser left, if anything (cleared as it is taken)."""
        left, self.leftover = self.leftover, None
        return left

    def keep(self, left: Leftover) -> None:
        """Remember what a Ctrl-C left, for the session's next call."""
        self.leftover = left

    def lines_to(self, pieces: list[str], ts: str, sink: LineSink) -> None:
        """Parse whole lines, handing each non-blank one to ``sink`` with its entries."""
        net = self.net
        raw_lines = net.raw
        for index, piece in enumerate(pieces):
            raw = piece + "\n" if raw_lines else piece
            out: list[TranscriptEntry] = []
            try:
                line = net.line(raw, ts, out)
            except KeyboardInterrupt:
                net.diagnostics.lines -= 1
                self.leftover = Leftover([], pieces[index:])
                raise
            if raw_lines:
                sink(raw, out)
            elif out or line:
                sink(line, out)

    def last_line_to(self, text: str, ts: str, sink: LineSink) -> None:
        """Parse the line the stream ended in (no newline), handing it to ``sink`` with its
        entries, unless it is blank and gave none."""
        entries: list[TranscriptEntry] = []
        line = self.net.line(text, ts, entries)
        if line or entries:
            sink(line, entries)


class Batched(LineByLine):
    """A chunk's lines to an isolated parser in one call, each result checked as it comes."""

    def lines_to(self, pieces: list[str], ts: str, sink: LineSink) -> None:
        net = self.net
        for raw, entries in parse_batched(net, pieces, ts, self.keep):
            if net.raw:
                sink(raw, entries)
            elif entries or raw.strip():
                sink(stripped(raw), entries)


def driver_for(net: SafetyNet) -> LineByLine:
    """``net``'s driver: :class:`Batched` for a parser isolated in workers, else line by line."""
    return Batched(net) if net.batch is not None else LineByLine(net)
