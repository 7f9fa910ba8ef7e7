"""Text laid out for a terminal: a coloured label, a hanging indent, nesting bars, width cuts."""

from __future__ import annotations

import os
from typing import IO, Final

from linewise.render.colours import paint
from linewise.settings.sanitising import neutralize

__all__ = ["DEFAULT_WIDTH", "INDENT", "LABEL_WIDTH", "TextLayout"]

LABEL_WIDTH: Final = 12
INDENT: Final = " " * LABEL_WIDTH
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
    """Draws labelled blocks on a :class:`NestedStream`, cutting lines to the terminal's width."""

    def __init__(self, stream: IO[str], *, color: bool, full: bool, width: int | None) -> None:
        self.out = NestedStream(stream)
        self._color = color
        self._full = full
        self._width = max(width or _terminal_width(stream), 40)

    def paint(self, text: str, role: str | None) -> str:
        return paint(text, role, self._color)

    def label(self, label: str, role: str) -> str:
        return self.paint(label.ljust(LABEL_WIDTH), role)

    def body(self, text: str, role: str | None = None) -> str:
        return self.paint(neutralize(text).replace("\n", "\n" + INDENT), role)

    def block(self, label: str, role: str, text: str, body_role: str | None = None) -> None:
        self.out.write(self.label(label, role) + self.body(text, body_role) + "\n")

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
