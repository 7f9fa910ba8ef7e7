"""The one line reader: stdout or stderr bytes cut anywhere in, whole lines out, bounded."""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from typing import IO, Final

from linewise.settings.defaults import MAX_LINE_CHARS, READ_SIZE

__all__ = ["LineReader", "read_lines", "text_lines"]

_BOM: Final = "\ufeff"


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

    Bytes are cut at their newlines before they are decoded, each line on its
    own: a newline byte is never part of a UTF-8 sequence, so the text is the
    same as the whole stream's, and no chunk-sized string is made (a chunk
    decoded whole is widened to 2 or 4 bytes a character by one emoji, and
    such strings, made and freed for every chunk, fragment the C heap).
    """

    __slots__ = (
        "_discarding",
        "_max",
        "_pending",
        "_pending_chars",
        "_started",
        "_undecoded",
        "raw",
        "skipped_chars",
    )

    def __init__(self, max_chars: int = MAX_LINE_CHARS, *, raw: bool = False) -> None:
        if max_chars < 1:
            raise ValueError("max_chars must be at least 1")
        self._max = max_chars
        self._pending: list[str] = []
        self._pending_chars = 0
        self._discarding = False
        self._started = False
        # The start of a UTF-8 sequence a chunk ended in, waiting for its next bytes.
        self._undecoded = b""
        self.raw = raw
        self.skipped_chars = 0

    def decode(self, chunk: str | bytes) -> str:
        """The text of ``chunk`` (a ``str`` ends any byte sequence left unfinished)."""
        if isinstance(chunk, str):
            # Only bytes can leave a sequence unfinished: flush it just then.
            text = self._flush() + chunk if self._undecoded else chunk
        else:
            text = self._decode_part(chunk)
        if not self._started and text:
            self._started = True
            if text[0] == _BOM:
                text = text[1:]
        return text

    def _decode_part(self, data: bytes) -> str:
        """The text of ``data`` after what was left undecoded; keeps an unfinished sequence."""
        if self._undecoded:
            data = self._undecoded + data
        text, used = codecs.utf_8_decode(data, "replace", False)
        self._undecoded = data[used:]
        return text

    def _flush(self) -> str:
        """The unfinished sequence held back, ended (a replacement character), or ""."""
        if not self._undecoded:
            return ""
        text: str = codecs.utf_8_decode(self._undecoded, "replace", True)[0]
        self._undecoded = b""
        return text

    def feed(self, chunk: str | bytes) -> list[str]:
        """The lines ``chunk`` completed, in order."""
        if isinstance(chunk, str):
            return self.split(self.decode(chunk))
        if not self._undecoded and chunk.isascii():
            # The common chunk: one character a byte whole, so decoded at once.
            self._started = self._started or bool(chunk)
            return self.split(chunk.decode("ascii"))
        pieces = chunk.split(b"\n")
        rest = pieces.pop()
        if not pieces:
            return self.split(self.decode(rest)) if rest else []
        lines = [piece.decode("utf-8", "replace") for piece in pieces]
        if self._undecoded or not self._started:
            # The newline ends the sequence a chunk before ended in; the stream may start here.
            head = self._flush_with(pieces[0])
            if not self._started:
                self._started = True
                if head and head[0] == _BOM:
                    head = head[1:]
            lines[0] = head
        return self._cut(lines, self._decode_part(rest) if rest else "")

    def _flush_with(self, data: bytes) -> str:
        if not self._undecoded:
            return data.decode("utf-8", "replace")
        text: str = codecs.utf_8_decode(self._undecoded + data, "replace", True)[0]
        self._undecoded = b""
        return text

    def split(self, text: str) -> list[str]:
        """The lines decoded ``text`` completed (see :meth:`decode`)."""
        if not text:
            return []
        # One C-level split per chunk; only the lines are looped over by the caller.
        pieces = text.split("\n")
        rest = pieces.pop()
        return self._cut(pieces, rest)

    def _cut(self, pieces: list[str], rest: str) -> list[str]:
        """``pieces``, the lines ended here, joined to what was held; ``rest`` held or cut."""
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
        return self._started and not (self._pending or self._undecoded or self._discarding)

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
        lines = self.split(self._flush())
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
        tail = self._flush() if final else ""
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
