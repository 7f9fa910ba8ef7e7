"""The terminal writer: segments neutralised once and coloured by role, for text and compact.

Each segment's text is neutralised (:func:`linewise.settings.sanitising.neutralize`:
colour and cursor sequences removed, every other control character, invisible
and bidirectional character shown as a visible stand-in) and then painted in
its role's colour, so escape sequences the agent wrote can never act and the
colours on screen are only ours. Renderers hand this writer raw text; it is
the only place terminal text is neutralised.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from linewise.render.colours import COLOURS
from linewise.render.preview import one_line
from linewise.render.segments import Role, Segment
from linewise.settings.sanitising import neutralize

__all__ = ["INDENT", "LABEL_WIDTH", "TerminalWriter", "first_line"]

#: Width of a block's label in the text style; its later lines are indented as far.
LABEL_WIDTH: Final = 12
INDENT: Final = " " * LABEL_WIDTH
_NEXT_LINE: Final = "\n" + INDENT
# Labels remembered as written (the host's words for entry kinds: a few dozen).
_LABELS: Final = 256

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
    """Turns segments into terminal text: each neutralised, then in its role's colour.

    It also draws the text style's frame, which holds no text of anyone's: a
    label padded to :data:`LABEL_WIDTH`, a block's later lines under its first.
    """

    __slots__ = ("_labels", "color")

    def __init__(self, color: bool) -> None:
        self.color = color
        self._labels: dict[Segment, str] = {}  # each label as written (a few host words)

    def segment(self, role: Role, text: str) -> str:
        """One segment as it is written."""
        shown = neutralize(text)
        code = COLOURS[role] if self.color else ""
        return f"\x1b[{code}m{shown}\x1b[0m" if code and shown else shown

    def join(self, segments: Sequence[Segment]) -> str:
        """Segments one after another."""
        if not self.color:
            return "".join([neutralize(text) for _, text in segments])
        out = []
        for role, text in segments:
            shown = neutralize(text)
            code = COLOURS[role]
            out.append(f"\x1b[{code}m{shown}\x1b[0m" if code and shown else shown)
        return "".join(out)

    def label(self, label: Segment) -> str:
        """A block's label, ``(role, word)``, padded to :data:`LABEL_WIDTH`."""
        written = self._labels.get(label)
        if written is None:
            written = self.segment(label[0], label[1].ljust(LABEL_WIDTH))
            if len(self._labels) < _LABELS:
                self._labels[label] = written
        return written

    def block(self, label: Segment, lines: Sequence[Sequence[Segment]]) -> str:
        """A labelled block: the label, then its lines, each after the first under it."""
        join = self.join
        return self.label(label) + _NEXT_LINE.join([join(line) for line in lines]) + "\n"

    def lines(self, lines: Sequence[Segment], prefix: str = "") -> str:
        """One line per segment, each after ``prefix`` (muted), each ending in a newline."""
        lead = self.segment("muted", prefix) if prefix else ""
        segment = self.segment
        return "".join([f"{lead}{segment(role, text)}\n" for role, text in lines])
