"""A log that is one JSON document over many lines (``claude -p --output-format json | jq .``).

Plugins read such a document when it is on one line (Claude's
``--output-format json`` result object, or its ``--verbose`` array of
messages); pretty-printed, each of its lines reaches the parser alone and the
run renders as lines of text. ``render FILE`` knows the whole input before it
starts, so a regular file that opens a JSON value on a first line that is not
JSON by itself, and that parses whole as one document, is given to the
pipeline as that document on one line.

Anything else is read line by line, as ever: a cut or invalid document shows
every one of its lines as they are, a JSON Lines log costs one parse of its
first line, and a live input (stdin, a pipe, ``--follow``) is never held back
waiting for a document's end: this is asked only of regular files.
"""

from __future__ import annotations

import os
import stat
from typing import IO, Final, NamedTuple

import orjson

__all__ = ["MOST_BYTES", "Document", "one_line_document"]

#: The largest file read whole to look for a document (as much as render keeps of a pipe).
MOST_BYTES: Final = 64 * 1024 * 1024
_PIECE: Final = 64 * 1024
_OPENERS: Final = (b"{", b"[")


class Document(NamedTuple):
    """A file's one JSON document on one line, and how many lines it was written over."""

    line: bytes  # compact JSON and a newline
    lines: int


def _read_at(descriptor: int, offset: int, size: int) -> bytes:
    pieces = []
    while size > 0:
        piece = os.pread(descriptor, min(size, _PIECE * 16), offset)
        if not piece:
            break
        pieces.append(piece)
        offset += len(piece)
        size -= len(piece)
    return b"".join(pieces)


def _first_line(descriptor: int, size: int) -> bytes:
    """The file's first line (without its newline): the whole file when it has no other."""
    found = b""
    while len(found) < size:
        piece = os.pread(descriptor, _PIECE, len(found))
        if not piece:
            break
        end = piece.find(b"\n")
        if end >= 0:
            return found + piece[:end]
        found += piece
    return found


def _parses(text: bytes) -> bool:
    try:
        orjson.loads(text)
    except orjson.JSONDecodeError:
        return False
    return True


def one_line_document(source: IO[bytes], *, most_chars: int) -> Document | None:
    """The file's one JSON document on one line, or None to read it line by line.

    None unless ``source`` is a regular file of at most :data:`MOST_BYTES`
    whose first line opens an object or an array without being JSON alone,
    the whole file is one JSON document, and that document written compactly
    is at most ``most_chars`` bytes (longer, the pipeline would not read it as
    one line). Reads by position: ``source`` is left where it was.
    """
    try:
        descriptor = source.fileno()
        status = os.fstat(descriptor)
    except (AttributeError, OSError, ValueError):
        return None
    if not stat.S_ISREG(status.st_mode) or not 0 < status.st_size <= MOST_BYTES:
        return None
    first = _first_line(descriptor, status.st_size)
    if not first.lstrip().startswith(_OPENERS) or len(first) >= status.st_size - 1:
        return None  # not JSON, or all on one line: the plugin reads it as it is
    if _parses(first):
        return None  # JSON Lines: one value a line
    data = _read_at(descriptor, 0, status.st_size)
    try:
        line = orjson.dumps(orjson.loads(data))
    except (orjson.JSONDecodeError, orjson.JSONEncodeError, TypeError):
        return None  # cut, invalid or more than one document: shown line by line
    if len(line) > most_chars:
        return None
    return Document(line + b"\n", data.count(b"\n") + (not data.endswith(b"\n")))
