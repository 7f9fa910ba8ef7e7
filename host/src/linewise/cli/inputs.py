"""What ``render`` refuses to read: binary files, which would print as garbage."""

from __future__ import annotations

import codecs
from collections.abc import Iterable, Iterator
from typing import Final

from linewise.cli.common import fail
from linewise.settings.defaults import EXIT_FAILURE

__all__ = ["looks_binary", "refusing_binary"]

#: How much of the start of an input is looked at.
LOOKED_AT: Final = 1024
#: Share of characters that may be undecodable or control characters in text.
MOST_UNREADABLE: Final = 0.3
# Control characters an agent's output does carry: tab, newline, carriage return,
# form feed, backspace and escape (colours).
_TEXT_CONTROLS: Final = frozenset("\t\n\r\f\b\x1b")


def looks_binary(start: bytes) -> bool:
    """True when ``start`` (a stream's first bytes) is not text: it holds a NUL byte, or
    a large share of it is not UTF-8 or is control characters."""
    start = start[:LOOKED_AT]
    if b"\x00" in start:
        return True
    # Incremental: a character cut at the end of what is looked at is not held against it.
    text = codecs.getincrementaldecoder("utf-8")("replace").decode(start, final=False)
    if not text:
        return False
    unreadable = sum(
        1 for char in text if char == "\ufffd" or (char < " " and char not in _TEXT_CONTROLS)
    )
    return unreadable > MOST_UNREADABLE * len(text)


def refusing_binary(chunks: Iterable[bytes], path: str) -> Iterator[bytes]:
    """``chunks`` passed on, after checking that the first one is text (exits 1 if not)."""
    first = True
    for chunk in chunks:
        if first and chunk:
            first = False
            if looks_binary(chunk):
                fail(
                    f"{path} looks like a binary file, not an agent's output "
                    "(it holds NUL bytes or is mostly not UTF-8 text); nothing rendered",
                    EXIT_FAILURE,
                )
        yield chunk
