"""Files linewise writes: a write error names the file written (never the input it was reading)."""

from __future__ import annotations

import io
import os
from collections import deque
from typing import IO, Any

from linewise.settings.errors import LinewiseError

__all__ = ["NamedRaw", "OutputError", "open_named"]


class OutputError(LinewiseError):
    """Writing an output file failed (a full disk, a quota, an I/O error): it names the file."""

    def __init__(self, path: str, error: OSError) -> None:
        self.path = path
        self.error = error
        super().__init__(f"cannot write {path}: {error.strerror or error}")


class NamedRaw(io.FileIO):
    """The file's bytes: a failed write raises :class:`OutputError` once, later ones are dropped.

    Dropping after the first failure lets the buffers above close without a
    second, chained error; the file is discarded anyway.

    A Ctrl-C never writes the same bytes twice. It is raised at the first
    check after a call returns: here, after the bytes went out and before the
    buffer above learnt how many, so the buffer takes the write for a failed
    one and hands the same bytes again when it flushes or closes (the last
    line of a followed session was shown twice). So the count is kept by C
    code in the same call that writes (``deque.extend`` over ``map``), the
    bytes sent are remembered when a Ctrl-C lands, and the buffer's next
    write of them is answered without writing them again.
    """

    def __init__(self, descriptor: int, shown: str, mode: str = "wb") -> None:
        super().__init__(descriptor, mode, closefd=True)
        self.shown = shown
        self.failed: OutputError | None = None
        self._send = super().write  # FileIO's own write, called from C by map()
        self._count: deque[int | None] = deque(maxlen=1)
        #: What an interrupted write had sent already: the buffer will hand it again.
        self._sent: bytes | None = None

    def write(self, data: Any) -> int:
        if self.failed is not None:
            return len(memoryview(data))
        sent = self._sent
        if sent is not None:
            self._sent = None
            if memoryview(data)[: len(sent)] == sent:
                return len(sent)  # out already: the buffer moves past it
        count = self._count
        count.clear()
        try:
            count.extend(map(self._send, (data,)))  # writes and keeps the count in one call
        except KeyboardInterrupt:
            if count and count[0]:
                self._sent = bytes(memoryview(data)[: count[0]])
            raise
        except OSError as error:
            self.failed = OutputError(self.shown, error)
            raise self.failed from None
        return count[0] or 0  # no call after the write: nothing can interrupt here


def open_named(path: str | os.PathLike[str], mode: str = "wb") -> IO[bytes]:
    """``open(path, mode)`` for ``"wb"`` or ``"w+b"``, its write errors as :class:`OutputError`.

    Raises :class:`OutputError` when the file cannot be opened.
    """
    shown = os.fsdecode(path)
    flags = os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    flags |= os.O_RDWR if "+" in mode else os.O_WRONLY
    try:
        descriptor = os.open(path, flags, 0o666)
    except OSError as error:
        raise OutputError(shown, error) from None
    raw = NamedRaw(descriptor, shown, "w+b" if "+" in mode else "wb")
    if "+" in mode:
        return io.BufferedRandom(raw)
    return io.BufferedWriter(raw)
