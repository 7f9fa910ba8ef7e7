"""Files linewise writes: a write error names the file written (never the input it was reading)."""

from __future__ import annotations

import io
import os
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
    """

    def __init__(self, descriptor: int, shown: str, mode: str = "wb") -> None:
        super().__init__(descriptor, mode, closefd=True)
        self.shown = shown
        self.failed: OutputError | None = None

    def write(self, data: Any) -> int:
        if self.failed is not None:
            return len(memoryview(data))
        try:
            return super().write(data) or 0
        except OSError as error:
            self.failed = OutputError(self.shown, error)
            raise self.failed from None


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
