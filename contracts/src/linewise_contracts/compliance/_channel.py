"""The worker's two ways of talking to the parent: signed records and the call slot.

Records travel over a pipe as ``length | MAC | marshal payload``. The MAC is an
HMAC-SHA256 of a sequence number and the payload under a per-run key the
parent sends on the worker's stdin before any plugin code is imported; the
worker binds ``marshal.dumps``, the digest function and ``os.write`` at that
moment too, so a plugin that patches ``json``, ``marshal`` or ``hmac`` later
changes nothing the parent reads. The parent reads only records whose MAC
checks, in order; anything else ends the channel with a failure, never a crash.

The call slot is a small shared file the worker updates around every call
into plugin code (a counter, whether a call is running, the line it is on and
its time limit), so the parent can see a call overrun on its own clock and
kill the worker's process group: no exception the plugin could catch.
"""

from __future__ import annotations

import hmac
import marshal
import mmap
import os
import struct
from collections.abc import Callable, Iterator
from typing import Final

__all__ = ["KEY_BYTES", "SLOT_BYTES", "ChannelError", "Receiver", "Sender", "Slot", "SlotReader"]

KEY_BYTES: Final = 32
_HEADER: Final = struct.Struct("<I32s")
_SEQUENCE: Final = struct.Struct("<Q")
#: Largest record the parent accepts (a plugin's sample run with big entries fits).
_MAX_RECORD: Final = 512 * 1024 * 1024

_SLOT: Final = struct.Struct("<QQqd")  # counter, running (0/1), line index, limit in seconds
SLOT_BYTES: Final = _SLOT.size


class ChannelError(Exception):
    """The results channel carried bytes the worker did not sign, or a record cut short."""


def _digest(key: bytes) -> Callable[[bytes], bytes]:
    make = hmac.digest  # C-implemented HMAC; bound once, here

    def sign(data: bytes) -> bytes:
        return make(key, data, "sha256")

    return sign


class Sender:
    """The worker's end: every record signed, written whole, in order."""

    def __init__(self, fd: int, key: bytes) -> None:
        self._fd = fd
        self._sign = _digest(key)
        self._dumps: Callable[[object], bytes] = marshal.dumps  # type: ignore[assignment]
        self._write = os.write
        self._pack_header = _HEADER.pack
        self._pack_sequence = _SEQUENCE.pack
        self._sequence = 0

    def send(self, record: tuple[object, ...]) -> None:
        """Sign and write one record (plain Python values: what marshal accepts)."""
        payload = self._dumps(record)
        mac = self._sign(self._pack_sequence(self._sequence) + payload)
        self._sequence += 1
        data = memoryview(self._pack_header(len(payload), mac) + payload)
        while data:
            written = self._write(self._fd, data)
            data = data[written:]


class Receiver:
    """The parent's end: turns bytes into the records whose MAC checks, in order."""

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._buffer = bytearray()
        self._sequence = 0

    def feed(self, data: bytes) -> Iterator[tuple[object, ...]]:
        """The records completed by ``data``; raises ChannelError on a record the worker
        did not sign (the rest of the channel is then untrusted)."""
        self._buffer += data
        while len(self._buffer) >= _HEADER.size:
            length, mac = _HEADER.unpack_from(self._buffer)
            if length > _MAX_RECORD:
                raise ChannelError(f"a record announces {length:,} bytes")
            end = _HEADER.size + length
            if len(self._buffer) < end:
                return
            payload = bytes(self._buffer[_HEADER.size : end])
            del self._buffer[:end]
            expected = hmac.digest(self._key, _SEQUENCE.pack(self._sequence) + payload, "sha256")
            if not hmac.compare_digest(mac, expected):
                raise ChannelError("a record is not signed by the worker (forged or garbled)")
            self._sequence += 1
            try:
                record = marshal.loads(payload)
            except Exception as error:  # signed but unreadable: still never a crash
                raise ChannelError(f"a signed record cannot be read: {error}") from None
            if type(record) is not tuple or not record or type(record[0]) is not str:
                raise ChannelError("a signed record has not the shape of a record")
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
