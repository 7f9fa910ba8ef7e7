"""The one line reader: stdout or stderr bytes cut anywhere in, whole lines out, bounded."""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from typing import IO

from linewise._defaults import MAX_LINE_CHARS, READ_SIZE

__all__ = ["LineReader", "read_lines", "text_lines"]

_BOM = "\ufeff"


class LineReader:
    """Decodes chunks incrementally (UTF-8, with replacement) and cuts them into lines.

    :meth:`feed` returns the lines a chunk completed, without their ``\\n``
    (a ``\\r`` before it stays: sessions strip it, raw-line parsers keep it).
    With ``raw`` set, each line keeps its ``\\n`` as printed. A UTF-8 byte
    order mark is dropped only at the very start of the stream. A line still
    being written is held back (:attr:`pending`) until its newline arrives;
    one that grows beyond ``max_chars`` is passed on at once (the consumer
    cuts it) and the rest of it, up to the next newline, is skipped and
    counted in :attr:`skipped_chars`, so memory stays bounded.
    """

    __slots__ = (
        "_bytes",
        "_decoder",
        "_discarding",
        "_max",
        "_pending",
        "_pending_chars",
        "_started",
        "raw",
        "skipped_chars",
    )

    def __init__(self, max_chars: int = MAX_LINE_CHARS, *, raw: bool = False) -> None:
        if max_chars < 1:
            raise ValueError("max_chars must be at least 1")
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._max = max_chars
        self._pending: list[str] = []
        self._pending_chars = 0
        self._discarding = False
        self._started = False
        self._bytes = False
        self.raw = raw
        self.skipped_chars = 0

    def decode(self, chunk: str | bytes) -> str:
        """The text of ``chunk`` (a ``str`` ends any byte sequence left unfinished)."""
        if isinstance(chunk, str):
            # Only bytes can leave a sequence unfinished: flush the decoder just then.
            text = self._decoder.decode(b"", final=True) + chunk if self._bytes else chunk
            self._bytes = False
        else:
            text = self._decoder.decode(chunk)
            self._bytes = True
        if not self._started and text:
            self._started = True
            if text[0] == _BOM:
                text = text[1:]
        return text

    def feed(self, chunk: str | bytes) -> list[str]:
        """The lines ``chunk`` completed, in order."""
        return self.split(self.decode(chunk))

    def split(self, text: str) -> list[str]:
        """The lines decoded ``text`` completed (see :meth:`decode`)."""
        if not text:
            return []
        # One C-level split per chunk; only the lines are looped over by the caller.
        pieces = text.split("\n")
        rest = pieces.pop()
        if pieces:
            if self._discarding:
                # The end of a line already cut and passed on: not a line of its own.
                self.skipped_chars += len(pieces[0])
                self._discarding = False
                del pieces[0]
            elif self._pending:
                self._pending.append(pieces[0])
                pieces[0] = "".join(self._pending)
                self._pending.clear()
                self._pending_chars = 0
            if self.raw:
                pieces = [piece + "\n" for piece in pieces]
        if rest:
            if self._discarding:
                self.skipped_chars += len(rest)
            else:
                self._pending.append(rest)
                self._pending_chars += len(rest)
                if self._pending_chars > self._max:
                    # Passed on now rather than after a newline that may never come.
                    pieces.append(self.take_pending())
                    self._discarding = True
        return pieces

    @property
    def idle(self) -> bool:
        """True when nothing is held: a whole line may bypass the reader (see feed_line)."""
        return self._started and not (self._pending or self._bytes or self._discarding)

    @property
    def pending(self) -> bool:
        """True while part of a line waits for its end."""
        return bool(self._pending)

    def take_pending(self) -> str:
        """The unfinished line held back so far (removed from the reader)."""
        whole = "".join(self._pending)
        self._pending.clear()
        self._pending_chars = 0
        return whole

    def close(self) -> tuple[list[str], str]:
        """End of stream: the lines still completed, and the unfinished last line ("" if none)."""
        lines = self.split(self._decoder.decode(b"", final=True))
        self._discarding = False
        return lines, self.take_pending()

    def feed_block(self, chunk: str | bytes) -> str:
        """Stderr mode: the text of the whole lines ``chunk`` completed, as one block.

        An unfinished line is held back; one beyond ``max_chars`` is passed on in pieces.
        """
        text = self.decode(chunk)
        end = text.rfind("\n") + 1
        if end == 0:
            if self._pending_chars + len(text) <= self._max:
                if text:
                    self._pending.append(text)
                    self._pending_chars += len(text)
                return ""
            end = len(text)
        head = self.take_pending() + text[:end]
        if end < len(text):
            self._pending.append(text[end:])
            self._pending_chars = len(text) - end
        return head

    def flush_block(self, final: bool = False) -> str:
        """Stderr mode: the unfinished line held back (and, when ``final``, the decoder's rest)."""
        tail = self._decoder.decode(b"", final=True) if final else ""
        return self.take_pending() + tail


def text_lines(text: str, limit: int | None = None) -> list[str]:
    """The non-blank lines of ``text`` as sessions see them: stripped, at most ``limit``."""
    reader = LineReader()
    pieces = reader.feed(text)
    last, partial = reader.close()
    pieces += last
    if partial:
        pieces.append(partial)
    lines: list[str] = []
    for piece in pieces:
        line = stripped(piece)
        if line:
            lines.append(line)
            if limit is not None and len(lines) >= limit:
                break
    return lines


def stripped(line: str) -> str:
    """A line as a parser sees it: surrounding whitespace and a stray byte order mark removed."""
    line = line.strip()
    if line and line[0] == _BOM:
        line = line.lstrip(_BOM).strip()
    return line


def read_lines(
    stream: IO[bytes], *, max_chars: int = MAX_LINE_CHARS, read_size: int = READ_SIZE
) -> Iterator[str]:
    """The non-blank lines of a byte stream as sessions see them, each at most ``max_chars``.

    Memory stays bounded: an overlong line is cut and the rest of it skipped.
    """
    reader = LineReader(max_chars)
    read = stream.read1 if hasattr(stream, "read1") else stream.read
    while chunk := read(read_size):
        for piece in reader.feed(chunk):
            line = stripped(piece)
            if line:
                yield line[:max_chars]
    pieces, partial = reader.close()
    for piece in [*pieces, partial]:
        line = stripped(piece)
        if line:
            yield line[:max_chars]
