"""The terminal writer: segments neutralised once and coloured by role, for text and compact.

Each segment's text is neutralised (:func:`linewise.settings.sanitising.neutralize`:
colour and cursor sequences removed, every other control character, invisible
and bidirectional character shown as a visible stand-in) and then painted in
its role's colour, so escape sequences the agent wrote can never act and the
colours on screen are only ours. Renderers hand this writer raw text; it is
the only place terminal text is neutralised.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from linewise.render.colours import COLOURS
from linewise.render.preview import one_line
from linewise.render.segments import Role, Segment
from linewise.settings.sanitising import neutralize

__all__ = ["TerminalWriter", "first_line"]

# Only the start of a long text is read for its first line.
_FIRST_LINE_SCAN: Final = 65536


def first_line(text: str, limit: int) -> str:
    """The first non-blank line of ``text`` as the terminal shows it, at most ``limit`` long.

    Neutralised before it is cut and its whitespace collapsed, so a cut never
    splits an escape sequence and a carriage return stays visible (``␍``), not
    read as a space. The writer neutralises the segment made of it again when
    it writes it: a no-op on neutralised text (``neutralize`` is idempotent).
    """
    return one_line(neutralize(text[:_FIRST_LINE_SCAN]), limit)


class TerminalWriter:
    """Turns segments into terminal text: each neutralised, then in its role's colour."""

    __slots__ = ("color",)

    def __init__(self, color: bool) -> None:
        self.color = color

    def segment(self, role: Role, text: str) -> str:
        """One segment as it is written."""
        shown = neutralize(text)
        code = COLOURS[role] if self.color else ""
        return f"\x1b[{code}m{shown}\x1b[0m" if code and shown else shown

    def join(self, segments: Iterable[Segment]) -> str:
        """Segments one after another."""
        if not self.color:
            return "".join([neutralize(text) for _, text in segments])
        return "".join([self.segment(role, text) for role, text in segments])

    def lines(self, lines: Sequence[Segment], prefix: str = "") -> str:
        """One line per segment, each after ``prefix`` (muted), each ending in a newline."""
        lead = self.segment("muted", prefix) if prefix else ""
        segment = self.segment
        return "".join([f"{lead}{segment(role, text)}\n" for role, text in lines])
