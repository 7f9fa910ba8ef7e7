"""Plugin output on its way to stderr, neutralised: what a plugin prints cannot drive the terminal.

The host sends what plugin code prints (``print``, ``os.write(1, ...)``, an
isolated worker's stdout and stderr) to stderr rather than into the
transcript. It goes through here: :class:`NeutralisedText` for Python-level
writes, and an :class:`OutputRelay` (a pipe whose write end stands for the
plugin's descriptors, drained by a thread) for writes below Python. Either
way an escape sequence arrives as visible text (``␛]0;title␇``), as agent
text does in the views.
"""

from __future__ import annotations

import atexit
import codecs
import io
import os
import threading
from typing import Final, TextIO

from linewise.settings.sanitising import neutralize

__all__ = ["NeutralisedText", "OutputRelay", "worker_output_fd"]

_READ_SIZE: Final = 64 * 1024
# A line this long is passed on in pieces rather than held for its newline.
_HOLD_CHARS: Final = 64 * 1024
# How long closing waits for the relay to pass on the last output: a plugin thread may
# still hold a copy of the write end, and an isolated worker alive at exit holds its own.
_JOIN_SECONDS: Final = 1.0
_EXIT_JOIN_SECONDS: Final = 0.2


class NeutralisedText(io.TextIOBase):
    """A text stream that writes what it is given, neutralised, to ``target`` (sys.stderr)."""

    def __init__(self, target: TextIO, fd: int | None = None) -> None:
        super().__init__()
        self._target = target
        self._fd = fd

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self._target, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return "replace"

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        if self._fd is None:
            raise io.UnsupportedOperation("fileno")
        return self._fd

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self._target.write(neutralize(text))
        return len(text)

    def flush(self) -> None:
        self._target.flush()


class OutputRelay:
    """A pipe for plugin output: :attr:`fd` is its write end; a thread neutralises what arrives.

    What a thread reads is cut at its last newline (a line longer than 64 KiB
    goes in pieces), so a sequence a write split in two is still seen whole,
    decoded as UTF-8 with replacement, neutralised and written to ``target``
    (descriptor 2). :meth:`close` closes the write end and waits for the rest.
    """

    def __init__(self, target: int = 2) -> None:
        self._target = target
        self._read, self.fd = os.pipe()
        self._thread = threading.Thread(
            target=self._drain, name="linewise-plugin-output", daemon=True
        )
        self._thread.start()

    def _drain(self) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        held = ""
        try:
            while chunk := os.read(self._read, _READ_SIZE):
                text = held + decoder.decode(chunk)
                end = text.rfind("\n") + 1
                if end == 0 and len(text) > _HOLD_CHARS:
                    end = len(text)
                held = text[end:]
                if end:
                    self._write(text[:end])
            self._write(held + decoder.decode(b"", final=True))
        except OSError:
            pass  # stderr gone: nothing to show it on
        finally:
            os.close(self._read)

    def _write(self, text: str) -> None:
        data = neutralize(text).encode("utf-8", "replace")
        while data:
            written = os.write(self._target, data)
            data = data[written:]

    def close(self, wait: float = _JOIN_SECONDS) -> None:
        """No more output from this end; wait (at most ``wait`` s) for what is still in the pipe."""
        os.close(self.fd)
        self._thread.join(wait)


_WORKERS: OutputRelay | None = None
_WORKERS_LOCK: Final = threading.Lock()


def worker_output_fd() -> int:
    """The descriptor an isolated worker's stdout and stderr go to (one relay per host)."""
    global _WORKERS
    with _WORKERS_LOCK:
        if _WORKERS is None:
            _WORKERS = OutputRelay()
            atexit.register(_WORKERS.close, _EXIT_JOIN_SECONDS)
        return _WORKERS.fd
