"""A Gemini run's final text: its assistant messages joined, the latest of them kept.

The reference joins every assistant message of the run. On a long run (or
many runs in one log) that is the whole conversation, held in memory until
the run ends; this keeps the latest :data:`KEPT_CHARS` characters of it (whole
messages, and the end of one longer than that) and counts what it let go, so
a summary can say so. Streamed fragments are kept as pieces and joined once,
not copied each time one arrives.
"""

from __future__ import annotations

from collections import deque
from typing import Final

__all__ = ["KEPT_CHARS", "FinalText"]

#: Characters of the latest assistant text a summary keeps (1 MiB of text).
KEPT_CHARS: Final = 1 << 20


class FinalText:
    """The assistant's messages in order, the earliest let go beyond :data:`KEPT_CHARS`."""

    def __init__(self, kept_chars: int = KEPT_CHARS) -> None:
        self._kept_chars = kept_chars
        self._messages: deque[str] = deque()
        self._size = 0  # characters in _messages and _pieces
        self._pieces: list[str] = []  # the message being streamed, fragment by fragment
        #: Characters of earlier messages let go (stripped, as they would have been joined).
        self.omitted = 0

    def add(self, text: str) -> None:
        """A new message (it ends the one being streamed)."""
        self._close()
        self._pieces.append(text)
        self._size += len(text)
        self._trim()

    def extend(self, text: str) -> None:
        """More of the last message (a streamed fragment)."""
        if not self._pieces and self._messages:
            self._pieces.append(self._messages.pop())
        self._pieces.append(text)
        self._size += len(text)
        self._trim()

    @property
    def empty(self) -> bool:
        """True before the first message."""
        return not self._messages and not self._pieces

    def text(self) -> str:
        """The kept messages, each stripped, the empty ones left out, joined by blank lines."""
        self._close()
        return "\n\n".join(stripped for text in self._messages if (stripped := text.strip()))

    def _close(self) -> None:
        if self._pieces:
            self._messages.append("".join(self._pieces))
            self._pieces.clear()

    def _trim(self) -> None:
        if self._size <= self._kept_chars:
            return
        while self._size > self._kept_chars and self._messages:
            dropped = self._messages.popleft()
            self._size -= len(dropped)
            self.omitted += len(dropped.strip())
        if self._size > 2 * self._kept_chars:  # one message longer than all that is kept
            self._close()
            whole = self._messages.pop()
            self._pieces.append(whole[-self._kept_chars :])
            self._size = self._kept_chars
            self.omitted += len(whole) - self._kept_chars
