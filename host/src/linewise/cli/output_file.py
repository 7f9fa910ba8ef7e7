"""``-o FILE``: a transcript written beside FILE and renamed over it only when complete.

A kill, Ctrl-C or full disk mid-render leaves the earlier FILE as it was (and
no cut one); two renders to one FILE each put a whole transcript there, the
last to finish winning. A FILE that is not a regular file (``/dev/null``, a
pipe, a terminal) is written in place: there is nothing to rename over.

Write errors are raised as :class:`OutputError`, which names FILE, so no one
blames the input for a full disk.
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
from typing import Final, TextIO

from linewise.run.written import NamedRaw, OutputError

__all__ = ["OutputError", "OutputFile", "opened"]

_SUFFIX: Final = ".tmp"


def _regular_or_absent(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return True
    except OSError:
        return False


class OutputFile:
    """An output file being written: :attr:`stream`, then :meth:`commit` or :meth:`discard`.

    Raises :class:`OutputError` when the file cannot be created.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        # A link at PATH is followed, as writing to it would: the file it names is replaced.
        self.target = os.path.realpath(path)
        self.temporary: str | None = None
        self.committed = False
        flags = os.O_WRONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
        try:
            if _regular_or_absent(self.target):
                descriptor = self._create(flags)
            else:
                descriptor = os.open(self.target, flags)
        except OSError as error:
            raise OutputError(path, error) from None
        self.raw = NamedRaw(descriptor, path)
        # newline="" keeps "\n" on every platform; text from the agent is already neutralised.
        self.stream: TextIO = io.TextIOWrapper(
            io.BufferedWriter(self.raw), encoding="utf-8", errors="replace", newline=""
        )

    def _create(self, flags: int) -> int:
        folder = os.path.dirname(self.target)
        base = os.path.basename(self.target)
        flags |= os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        mode = 0o666
        with contextlib.suppress(OSError):
            mode = stat.S_IMODE(os.stat(self.target).st_mode)
        while True:
            temporary = os.path.join(
                folder, f".{base}.{os.getpid()}.{os.urandom(4).hex()}{_SUFFIX}"
            )
            try:
                descriptor = os.open(temporary, flags, mode)
            except FileExistsError:
                continue
            self.temporary = temporary
            return descriptor

    def commit(self) -> None:
        """Write out what is held and put the file in place (raises :class:`OutputError`)."""
        try:
            self.stream.flush()
        except OutputError:
            self.discard()
            raise
        except OSError as error:
            self.discard()
            raise OutputError(self.path, error) from None
        if self.raw.failed is not None:
            failed = self.raw.failed
            self.discard()
            raise failed
        try:
            if self.temporary is not None:
                os.fsync(self.raw.fileno())
            self.stream.close()
            if self.temporary is not None:
                os.replace(self.temporary, self.target)
        except OSError as error:
            self.discard()
            raise OutputError(self.path, error) from None
        self.committed = True

    def discard(self) -> None:
        """Close and remove the temporary file: the earlier file, if any, stays as it was."""
        if self.committed:
            return
        with contextlib.suppress(BaseException):
            self.raw.failed = self.raw.failed or OutputError(self.path, OSError("discarded"))
            self.stream.close()
        with contextlib.suppress(OSError):
            self.raw.close()
        if self.temporary is not None:
            with contextlib.suppress(OSError):
                os.remove(self.temporary)
            self.temporary = None


def opened(path: str, stack: contextlib.ExitStack) -> OutputFile:
    """A new :class:`OutputFile` at ``path`` whose :meth:`~OutputFile.discard` is on ``stack``.

    Both happen with signals held (:func:`linewise.settings.signals.held`): a SIGTERM
    or Ctrl-C landing between the temporary file's creation and the callback's
    would otherwise leave the temporary behind. Raises :class:`OutputError`.
    """
    from linewise.settings.signals import held

    with held():
        file = OutputFile(path)
        stack.callback(file.discard)  # anything but a commit leaves the earlier file as it was
    return file
