"""Files linewise writes: a write error names the file written (never the input it was reading)."""

from __future__ import annotations

import io
import os
from typing import IO, TYPE_CHECKING, Any

from linewise.settings.errors import LinewiseError

__all__ = ["NamedRandom", "NamedWriter", "OutputError", "open_named"]


class OutputError(LinewiseError):
    """Writing an output file failed (a full disk, a quota, an I/O error): it names the file."""

    def __init__(self, path: str, error: OSError) -> None:
        self.path = path
        self.error = error
        super().__init__(f"cannot write {path}: {error.strerror or error}")


if TYPE_CHECKING:
    _Buffered = io.BufferedIOBase
else:
    _Buffered = object  # the mixin's methods call the buffer class named beside it


class _Named(_Buffered):
    """Write errors named after the file, raised once; what comes after a failure is dropped.

    This sits above the buffer, never below it: a Ctrl-C lands at the first Python
    instruction after a call returns, and in a raw write below the buffer that is
    after the bytes went out and before the buffer counted them, so the buffer
    took the write for a failed one and wrote the same bytes again when it
    closed (the last line of a followed session shown twice). Here the bytes are
    in the buffer, or out, once. Dropping after the first failure lets the
    streams above close without a second, chained error.
    """

    shown: str
    failed: OutputError | None
    _file: io.FileIO

    def write(self, data: Any) -> int:
        if self.failed is not None:
            return len(memoryview(data))
        try:
            return super().write(data)
        except OSError as error:
            raise self._failure(error) from None

    def flush(self) -> None:
        if self.failed is not None:
            return
        try:
            super().flush()
        except OSError as error:
            raise self._failure(error) from None

    def close(self) -> None:
        if self.failed is not None:
            self._file.close()  # what the buffer still holds is not written: the file failed
            return
        super().close()

    def _failure(self, error: OSError) -> OutputError:
        self.failed = OutputError(self.shown, error)
        return self.failed


class NamedWriter(_Named, io.BufferedWriter):
    """A file's buffered bytes (``wb``), its write errors as :class:`OutputError`."""

    def __init__(self, descriptor: int, shown: str) -> None:
        self._file = io.FileIO(descriptor, "wb", closefd=True)
        super().__init__(self._file)
        self.shown = shown
        self.failed = None


class NamedRandom(_Named, io.BufferedRandom):
    """A file's buffered bytes, read back too (``w+b``), its write errors as OutputError."""

    def __init__(self, descriptor: int, shown: str) -> None:
        self._file = io.FileIO(descriptor, "w+b", closefd=True)
        super().__init__(self._file)
        self.shown = shown
        self.failed = None


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
    if "+" in mode:
        return NamedRandom(descriptor, shown)
    return NamedWriter(descriptor, shown)
