"""Text laid out for a terminal: a coloured label, a hanging indent, nesting bars, width cuts."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import IO, Final

from linewise.render.segments import Role, Segment
from linewise.render.terminal import INDENT, LABEL_WIDTH, TerminalWriter

__all__ = ["DEFAULT_WIDTH", "INDENT", "LABEL_WIDTH", "TextLayout"]

_RESULT_LINES: Final = 12
#: Width assumed when the output is not a terminal (a file or a pipe).
DEFAULT_WIDTH: Final = 160


def _terminal_width(stream: IO[str]) -> int:
    try:
        columns = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):
        return DEFAULT_WIDTH
    return columns if columns > 0 else DEFAULT_WIDTH


class NestedStream:
    """A text stream that starts every line with the current nesting prefix."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.prefix = ""
        self._at_start = True

    def write(self, text: str) -> None:
        if not text:
            return
        if self.prefix:
            lead = self.prefix if self._at_start else ""
            body = text[:-1] if text.endswith("\n") else text
            text = lead + body.replace("\n", "\n" + self.prefix) + text[len(body) :]
        self.stream.write(text)
        self._at_start = text.endswith("\n")


class TextLayout:
    """Lays out labelled blocks of segments, cutting lines to the terminal's width.

    It makes segments of raw text (bodies with a hanging indent) and hands
    them to the :class:`~linewise.render.terminal.TerminalWriter`, which
    neutralises and colours them and draws the labels, and writes the result
    on a :class:`NestedStream`.
    """

    def __init__(self, stream: IO[str], *, color: bool, full: bool, width: int | None) -> None:
        self.out = NestedStream(stream)
        self.writer = TerminalWriter(color)
        self._full = full
        self._width = max(width or _terminal_width(stream), 40)

    def write(self, segments: Sequence[Segment]) -> None:
        """Segments one after another, then a newline."""
        self.out.write(self.writer.join(segments) + "\n")

    def write_block(self, label: Segment, lines: Sequence[Sequence[Segment]]) -> None:
        """A labelled block of lines (see :meth:`TerminalWriter.block`)."""
        self.out.write(self.writer.block(label, lines))

    @staticmethod
    def body(text: str, role: Role = "plain") -> Segment:
        """``text`` with a hanging indent: its later lines start under its first."""
        return (role, text.replace("\n", "\n" + INDENT))

    def block(self, label: str, role: Role, text: str, body_role: Role = "plain") -> None:
        body = (body_role, text.replace("\n", "\n" + INDENT))
        self.out.write(self.writer.block((role, label), ((body,),)))

    def cut_lines(self, text: str) -> str:
        """Each line at most the room the terminal has beside the label, with what was hidden."""
        if self._full:
            return text
        room = max(self._width - LABEL_WIDTH - len(self.out.prefix), 30)
        if all(len(line) <= room for line in text.split("\n")):
            return text
        lines = []
        for line in text.split("\n"):
            hidden = len(line) - room
            lines.append(
                f"{line[:room]}… ({hidden:,} more characters; --full shows all)"
                if hidden > 0
                else line
            )
        return "\n".join(lines)

    def shorten_lines(self, text: str) -> str:
        if self._full:
            return text
        lines = text.split("\n", _RESULT_LINES)
        if len(lines) > _RESULT_LINES:
            hidden = lines[-1].count("\n") + 1
            more = f"{hidden} more line" + ("s" if hidden > 1 else "")
            text = "\n".join(lines[:_RESULT_LINES]) + f"\n… {more} (--full shows all)"
        return self.cut_lines(text)
