"""The render pipeline (a session feeding a renderer); the renderers live in linewise.renderers.

The re-exports keep the old private import path working while callers move.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from linewise_contracts.entries import TranscriptEntry

from linewise.renderers import (
    JsonlRenderer,
    LineRenderer,
    Renderer,
    TextRenderer,
    entry_json,
    use_color,
)
from linewise.renderers.text import MAX_PENDING_CALLS

if TYPE_CHECKING:
    from linewise._session import TranscriptSession

__all__ = [
    "MAX_PENDING_CALLS",
    "JsonlRenderer",
    "LineRenderer",
    "RenderPipeline",
    "Renderer",
    "TextRenderer",
    "entry_json",
    "use_color",
]


class _LineSplitter:
    """Bytes or text to whole lines, as a session splits them, for renderers that want lines.

    Incremental UTF-8 decoding with replacement; a line longer than ``limit``
    is handed over cut (one character past the limit, so the session marks it)
    and the rest of it skipped, which bounds memory like the session does.
    """

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._pending: list[str] = []
        self._size = 0
        self._skipping = False
        self._started = False

    def feed(self, chunk: bytes | str) -> list[str]:
        text = chunk if isinstance(chunk, str) else self._decoder.decode(chunk)
        if not self._started and text:
            # A UTF-8 byte order mark can only open the stream; it is not content.
            self._started = True
            text = text.removeprefix("\ufeff")
        pieces = text.split("\n")
        rest = pieces.pop()
        lines: list[str] = []
        for piece in pieces:
            if self._skipping:  # the end of a line already handed over cut
                self._skipping = False
            elif self._pending:
                self._pending.append(piece)
                lines.append("".join(self._pending))
                self._pending.clear()
                self._size = 0
            else:
                lines.append(piece)
        if rest and not self._skipping:
            self._pending.append(rest)
            self._size += len(rest)
            if self._size > self._limit:
                lines.append("".join(self._pending)[: self._limit + 1])
                self._pending.clear()
                self._size = 0
                self._skipping = True
        return lines

    def close(self) -> list[str]:
        lines = self.feed(self._decoder.decode(b"", final=True))
        if self._pending and not self._skipping:
            lines.append("".join(self._pending))
        self._pending.clear()
        return lines


class RenderPipeline:
    """One session feeding one renderer: stdout and stderr chunks in, drawn entries out.

    What ``linewise render`` and ``linewise run`` both do. A renderer with
    ``wants_lines`` (:class:`LineRenderer`, the Claude compact style) gets each
    raw stdout line with the entries the session made of it; every other
    renderer gets the entries. The session's diagnostics are the same either way.
    """

    def __init__(
        self,
        session: TranscriptSession,
        renderer: Renderer,
        *,
        max_line_chars: int | None = None,
    ) -> None:
        from linewise._session import DEFAULT_MAX_LINE_CHARS

        self.session = session
        self.renderer = renderer
        self._limit = max_line_chars or DEFAULT_MAX_LINE_CHARS
        self._write_line: Callable[[str, Sequence[TranscriptEntry]], None] | None = None
        self._lines: _LineSplitter | None = None
        if getattr(renderer, "wants_lines", False):
            self._write_line = renderer.write_line  # type: ignore[attr-defined]
            self._lines = _LineSplitter(self._limit)

    def feed(self, chunk: bytes | str, ts: str | None = None) -> None:
        """A stdout chunk, cut anywhere."""
        if self._lines is None:
            write = self.renderer.write
            for entry in self.session.feed(chunk, ts):
                write(entry)
            return
        for line in self._lines.feed(chunk):
            self._line(line, ts)

    def _line(self, line: str, ts: str | None) -> None:
        entries = self.session.feed_line(line, ts)
        stripped = line.strip()
        if stripped and len(stripped) <= self._limit and self._write_line is not None:
            self._write_line(stripped, entries)
        else:  # blank, or cut for length: only the session's entries can show it
            for entry in entries:
                self.renderer.write(entry)

    def feed_stderr(self, chunk: bytes | str, ts: str | None = None) -> None:
        """A stderr chunk; it becomes one stderr entry."""
        for entry in self.session.feed_stderr(chunk, ts):
            self.renderer.write(entry)

    def close(self, ts: str | None = None) -> None:
        """End the stream: the trailing partial line, then the renderer."""
        if self._lines is not None:
            for line in self._lines.close():
                self._line(line, ts)
        for entry in self.session.close(ts):
            self.renderer.write(entry)
        self.renderer.close()
