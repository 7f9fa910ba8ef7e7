"""The pipes between host and worker: read into one reused buffer, polled before sleeping.

Host and worker hand work to each other hundreds of times a second (a batch
of lines one way, groups of replies the other), each time after well under a
millisecond. Waking a process that sleeps on a pipe goes through the
scheduler, and on a virtual machine through the hypervisor to wake its core
too: tens of microseconds, and a core that slept starts with cold caches. So
where polling pays (:mod:`._polling`), each side first polls its pipe for a
moment, yielding the core to anything else that wants it, and sleeps only
after that (at once when its last wait was longer than the moment): host and
worker then stay awake on two cores, the host taking each group of replies as
it comes while the worker parses the next lines.

What is read stays in one buffer, reused for every message, so messages are
decoded where they landed (no copy, and no fresh memory for each batch).
"""

from __future__ import annotations

import os
import select
import time
from collections.abc import Callable
from typing import Final

__all__ = ["PipeReader", "write_all"]

_IOV_MAX: Final = 512
#: The buffer's size to begin with (it grows for a longer message, and shrinks back).
READ_SIZE: Final = 1 << 20


class PipeReader:
    """The reading end of a pipe (made non-blocking) and what was read from it.

    The unread bytes are ``data[start:end]``; a reader decodes a message in
    place (through a memoryview it releases at once) and :meth:`consume` s it.
    """

    def __init__(self, fd: int) -> None:
        self.fd = fd
        os.set_blocking(fd, False)
        self.data = bytearray(READ_SIZE)
        self.start = 0
        self.end = 0
        self._short = True
        self._since = 0.0
        self._spin = 0.0

    @property
    def unread(self) -> int:
        """How many bytes were read and not consumed yet."""
        return self.end - self.start

    def consume(self, size: int) -> None:
        """Mark ``size`` unread bytes as used."""
        self.start += size
        if self.start == self.end:
            self.start = self.end = 0
            if len(self.data) > READ_SIZE:
                self.data = bytearray(READ_SIZE)

    def reserve(self, size: int) -> None:
        """Make room for ``size`` unread bytes in all (a message that long)."""
        if len(self.data) - self.start >= size:
            return
        unread = self.data[self.start : self.end]
        self.data = bytearray(max(size, len(self.data)))
        self.data[: len(unread)] = unread
        self.start, self.end = 0, len(unread)

    def poll(self, spin: float) -> int | None:
        """:meth:`read_now`, trying for ``spin`` seconds when the last wait was shorter
        than that; None when nothing came (the caller then sleeps until there is
        something, and reads it)."""
        start = time.perf_counter()
        deadline = start + spin if self._short else start
        while True:
            count = self.read_now()
            if count is not None:
                self._short = True
                return count
            if time.perf_counter() >= deadline:
                self._since, self._spin = start, spin
                return None
            os.sched_yield()

    def read_now(self) -> int | None:
        """Read what the pipe holds: how many bytes (0 at end of file), None when nothing."""
        if self.end == len(self.data):
            # Doubling: a long message is copied a few times, not once per megabyte.
            self.reserve(max(self.unread + READ_SIZE, 2 * self.unread))
        try:
            with memoryview(self.data) as view, view[self.end :] as free:
                count = os.readv(self.fd, [free])
        except BlockingIOError:
            return None
        self.end += count
        if self._since:  # the end of a wait that :meth:`poll` gave up on
            self._short = time.perf_counter() - self._since < self._spin
            self._since = 0.0
        return count


def write_all(fd: int, parts: list[bytes], full: Callable[[], None] | None = None) -> None:
    """Write ``parts`` to ``fd`` one after the other, without joining them first.

    With ``full``, ``fd`` is non-blocking: ``full()`` is called each time the
    pipe is full, before waiting until it can take more.
    """
    try:
        written = os.writev(fd, parts)
    except BlockingIOError:
        written = 0
    if written == sum(map(len, parts)):
        return  # all at once, as almost always
    views = [memoryview(part) for part in parts if part]
    while True:
        while views and written >= len(views[0]):
            written -= len(views.pop(0))
        if not views:
            return
        views[0] = views[0][written:]
        try:
            written = os.writev(fd, views[:_IOV_MAX])
        except BlockingIOError:
            if full is None:
                raise
            full()
            select.select([], [fd], [])
            written = 0
