"""The worker's two ways of talking to the parent: records of observations and the call slot.

Records travel over a pipe as ``length | JSON``. Nothing in the worker's
process is secret and nothing there is trusted: plugin code runs in it and
can write into the pipe as well as the worker can, so a record is only an
observation, which the parent judges (see ``_judge`` and ``_runner``); no
record is a verdict. The parent reads what arrives with bounds (a record over
:data:`_MAX_RECORD` is refused before it is read) and decodes it as JSON only,
never with ``marshal`` or ``pickle``, so nothing the worker sends can crash
the parent or become code. Python's containers are tagged so that the parent
sees exactly the types the plugin returned: a dict is ``{"d": [[key,
value], ...]}``, a tuple ``{"t": [...]}``, anything else ``{"o": type name}``
(a stand-in of that class name, which validation refuses); lists, strings,
numbers (``NaN`` included), booleans and ``null`` are themselves.

The call slot is a small shared file the worker updates around every call
into plugin code (a counter, whether a call is running, the line it is on and
its time limit), so the parent can see a call overrun on its own clock and
kill the worker's process group: no exception the plugin could catch. (A
plugin can scribble on the slot too; the whole run's timeout still holds.)
"""

from __future__ import annotations

import json
import mmap
import os
import struct
import sys
from collections.abc import Callable, Iterator
from typing import Any, Final

__all__ = ["SLOT_BYTES", "ChannelError", "Receiver", "Sender", "Slot", "SlotReader", "encode"]

_HEADER: Final = struct.Struct("<I")
#: Largest record the parent accepts (a plugin's sample run with big entries fits).
_MAX_RECORD: Final = 512 * 1024 * 1024
#: Containers deeper than this are not sent (the value is described as too deep instead):
#: above the contract's MAX_JSON_DEPTH (512), so every valid entry travels whole.
MAX_DEPTH: Final = 600
#: JSON levels a record of MAX_DEPTH containers takes at most (a tagged dict is three:
#: ``{"d": [[key, value]]}``), with room for the record around it: what decode() reads.
_JSON_LEVELS: Final = 3 * MAX_DEPTH + 200

_SLOT: Final = struct.Struct("<QQqd")  # counter, running (0/1), line index, limit in seconds
SLOT_BYTES: Final = _SLOT.size


class ChannelError(Exception):
    """The results channel carried bytes that are not a well-formed record."""


class TooDeep(ValueError):
    """A value nested deeper than :data:`MAX_DEPTH`."""


class _Punctuation(str):
    """A piece of JSON syntax on the encoder's stack (a plain str there is a value)."""


_OPEN_LIST: Final = _Punctuation("[")
_CLOSE_LIST: Final = _Punctuation("]")
_COMMA: Final = _Punctuation(",")
_CLOSE_TAG: Final = _Punctuation("]}")
_PAIR_OPEN: Final = _Punctuation("[")


def encode(value: object) -> str:
    """The tagged JSON of ``value`` (iterative: a deep value raises TooDeep, not RecursionError)."""
    scalar = json.dumps
    parts: list[str] = []
    work: list[tuple[object, int]] = [(value, 0)]
    while work:
        item, depth = work.pop()
        kind = type(item)
        if kind is _Punctuation:
            parts.append(item)  # type: ignore[arg-type]
        elif kind is str or kind is bool or item is None or kind is int or kind is float:
            parts.append(scalar(item))
        elif depth >= MAX_DEPTH:
            raise TooDeep(f"nested deeper than {MAX_DEPTH} levels")
        elif kind is list or kind is tuple:
            children: list[Any] = list(item)  # type: ignore[call-overload]
            parts.append("[" if kind is list else '{"t":[')
            work.append((_CLOSE_LIST if kind is list else _CLOSE_TAG, 0))
            for index in range(len(children) - 1, -1, -1):
                work.append((children[index], depth + 1))
                if index:
                    work.append((_COMMA, 0))
        elif kind is dict:
            pairs = list(item.items())  # type: ignore[attr-defined]
            parts.append('{"d":[')
            work.append((_CLOSE_TAG, 0))
            for index in range(len(pairs) - 1, -1, -1):
                key, child = pairs[index]
                work.extend(
                    [
                        (_CLOSE_LIST, 0),
                        (child, depth + 1),
                        (_COMMA, 0),
                        (key, depth + 1),
                        (_PAIR_OPEN, 0),
                    ]
                )
                if index:
                    work.append((_COMMA, 0))
        else:
            parts.append('{"o":' + scalar(kind.__name__) + "}")
    return "".join(parts)


_stand_ins: dict[str, type] = {}


def _stand_in(name: object) -> object:
    """An object whose class has the plugin value's type name (validation names it)."""
    text = name if type(name) is str and name.isidentifier() and len(name) <= 64 else "object"
    kind = _stand_ins.get(text)
    if kind is None:
        kind = _stand_ins[text] = type(text, (), {"__repr__": lambda self: f"<{text}>"})
    return kind()


def _untag(tagged: dict[str, Any]) -> object:
    if len(tagged) == 1:
        if type(tagged.get("d")) is list:
            return {key: value for key, value in tagged["d"]}  # noqa: C416 - pairs are lists
        if type(tagged.get("t")) is list:
            return tuple(tagged["t"])
        if "o" in tagged:
            return _stand_in(tagged["o"])
    raise ValueError("an object that is no tagged value")


def decode(text: bytes) -> object:
    """The value :func:`encode` wrote; ValueError for anything else."""
    # json's decoder counts each level against the recursion limit (1000 by default): a
    # record encode() accepted may be deeper, so the limit covers what it can send.
    limit = sys.getrecursionlimit()
    if limit < _JSON_LEVELS:
        sys.setrecursionlimit(_JSON_LEVELS)
    try:
        return json.loads(text, object_hook=_untag)
    except (ValueError, TypeError, RecursionError) as error:  # TypeError: an unhashable key
        raise ValueError(str(error)[:200]) from None
    finally:
        if limit < _JSON_LEVELS:
            sys.setrecursionlimit(limit)


class Sender:
    """The worker's end: every record written whole, in order."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._encode: Callable[[object], str] = encode
        self._write = os.write
        self._pack_header = _HEADER.pack

    def send(self, record: tuple[object, ...]) -> None:
        """Write one record (plain Python values)."""
        payload = self._encode(record).encode("utf-8", "surrogatepass")
        data = memoryview(self._pack_header(len(payload)) + payload)
        while data:
            written = self._write(self._fd, data)
            data = data[written:]


class Receiver:
    """The parent's end: turns bytes into records, in order, within bounds."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> Iterator[tuple[object, ...]]:
        """The records completed by ``data``; raises ChannelError on anything that is not a
        record (the rest of the channel is then not read)."""
        self._buffer += data
        while len(self._buffer) >= _HEADER.size:
            (length,) = _HEADER.unpack_from(self._buffer)
            if length > _MAX_RECORD:
                raise ChannelError(f"a record announces {length:,} bytes")
            end = _HEADER.size + length
            if len(self._buffer) < end:
                return
            payload = bytes(self._buffer[_HEADER.size : end])
            del self._buffer[:end]
            try:
                record = decode(payload)
            except ValueError as error:
                raise ChannelError(f"a record that is not one: {error}") from None
            if type(record) is not tuple or not record or type(record[0]) is not str:
                raise ChannelError("a record that has not the shape of a record")
            yield record

    @property
    def pending(self) -> int:
        """Bytes of an unfinished record (a record cut short when the worker died)."""
        return len(self._buffer)


class Slot:
    """The worker's end of the call slot."""

    def __init__(self, path: str) -> None:
        with open(path, "r+b") as file:
            self._map = mmap.mmap(file.fileno(), SLOT_BYTES)
        self._pack = _SLOT.pack_into
        self._counter = 0

    def enter(self, index: int, limit: float) -> None:
        """A call into plugin code starts (``index``: the line, -1 when none)."""
        self._counter += 1
        self._pack(self._map, 0, self._counter, 1, index, limit)

    def leave(self) -> None:
        """The call returned or raised."""
        self._pack(self._map, 0, self._counter, 0, -1, 0.0)


class SlotReader:
    """The parent's end: tells when one call has run past its limit plus a grace."""

    def __init__(self, path: str) -> None:
        self._path = path
        self._seen: tuple[int, float] | None = None

    def overrun(self, now: float) -> tuple[int, float] | None:
        """``(line index, limit)`` of a call running past its hard limit, else None."""
        try:
            with open(self._path, "rb") as file:
                counter, running, index, limit = _SLOT.unpack(file.read(SLOT_BYTES))
        except (OSError, struct.error):
            return None
        if not running or not 0 < limit < 1e9:
            self._seen = None
            return None
        if self._seen is None or self._seen[0] != counter:
            self._seen = (counter, now)
            return None
        # The worker's own alarm fires at the limit; past twice the limit (at least
        # one more second) the call ignored it: a swallowed alarm or a hang in C code.
        if now - self._seen[1] > limit + max(limit, 1.0):
            return index, limit
        return None
