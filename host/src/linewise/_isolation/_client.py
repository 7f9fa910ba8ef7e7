"""One worker process seen from the host: start it, send requests, read replies with a watchdog.

The worker answers a batch of lines with one reply per line, each written as
soon as its line is parsed, so a line's time is the time between two replies:
when none comes within the time limit, the line hangs and the worker is
killed. A worker that dies (a segfault, an ``os._exit``, the memory limit) or
sends anything but well-formed messages is dead too. :class:`WorkerDied`
carries the replies that did arrive, so the caller knows exactly which line
the worker died on and loses no result before it.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import mmap
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import Any, Final

from linewise._isolation import _wire
from linewise._isolation._policy import IsolationPolicy
from linewise._isolation._worker import PROGRESS

__all__ = ["WorkerDied", "WorkerProcess"]

_BOOT: Final = (
    "import sys, json; sys.path[:] = json.loads(sys.argv[1])['path']; "
    "from linewise._isolation._worker import main; main()"
)
#: Seconds a new worker has to import its plugin and say hello.
_START_TIMEOUT: Final = 60.0
#: One reply may hold this many bytes per character of its line, plus a floor.
_REPLY_FACTOR: Final = 24
_REPLY_FLOOR: Final = 2 * 1024 * 1024
_READ_SIZE: Final = 1 << 20


class WorkerDied(Exception):
    """The worker hung, crashed or broke the protocol (it is stopped).

    ``line`` is the number of the line it was on, as its progress page said.
    """

    def __init__(self, reason: str, line: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line


class WorkerProcess:
    """A worker serving one entry point (``module:attr``) under ``policy``'s limits."""

    def __init__(self, value: str, policy: IsolationPolicy, *, sandbox: bool = True) -> None:
        self._policy = policy
        self.dead = False
        self._progress_file = tempfile.TemporaryFile()  # noqa: SIM115 - lives with the worker
        self._progress_file.truncate(PROGRESS.size)
        self._progress = mmap.mmap(self._progress_file.fileno(), PROGRESS.size)
        #: The number the next line sent gets (the worker reports lines by these numbers).
        self.next_line = 1
        read_end, write_end = os.pipe()
        self._replies = read_end
        self._buffer = bytearray()
        config = {
            "path": [entry for entry in sys.path if isinstance(entry, str)],
            "value": value,
            "memory": policy.worker_memory,
            "reply_fd": write_end,
            "progress_fd": self._progress_file.fileno(),
            "sandbox": sandbox,
        }
        stderr = sys.__stderr__.fileno() if sys.__stderr__ is not None else subprocess.DEVNULL
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", _BOOT, json.dumps(config)],
                stdin=subprocess.PIPE,
                stdout=stderr,
                pass_fds=(write_end, self._progress_file.fileno()),
                start_new_session=True,  # the terminal's Ctrl-C is the host's alone
            )
        finally:
            os.close(write_end)
        for pipe in (read_end, self._process.stdin):
            _widen(pipe)
        reply = self._reply(_START_TIMEOUT, len(value))
        self.hello: dict[str, Any] = reply

    @property
    def pid(self) -> int:
        """The worker's process id."""
        return self._process.pid

    def request(self, message: dict[str, Any], *, size: int = 0) -> dict[str, Any]:
        """Send one request and return its one reply (raises WorkerDied)."""
        self._send(message)
        return self._reply(self._policy.line_timeout, size)

    def parse(self, lines: list[str], ts: str) -> Iterator[Any]:
        """One reply per line, as they arrive (raises WorkerDied, whose ``line`` says where).

        The caller works on the entries of the first lines while the worker
        parses the next ones: the two processes work side by side. A caller
        that stops early leaves replies in the pipe, so the worker is stopped.
        """
        first = self.next_line
        self.next_line += len(lines)
        meta, frame = _wire.pack_lines(lines)
        self._send({"op": "parse", "ts": ts, "first": first, **meta}, frame)
        return self._replies_for([len(line) for line in lines], self._policy.line_timeout)

    def _replies_for(self, sizes: list[int], timeout: float) -> Iterator[Any]:
        """One reply per size (a reply may be ``_REPLY_FACTOR`` times it, plus a floor)."""
        wanted = len(sizes)
        given = 0
        header = _wire.HEADER
        unpack = header.unpack_from
        buffer = bytes(self._buffer)
        at = 0
        try:
            while True:
                # Every complete reply in the buffer, without copying the buffer around.
                size = len(buffer)
                while size - at >= header.size and given < wanted:
                    (length,) = unpack(buffer, at)
                    end = at + header.size + length
                    if length > _REPLY_FACTOR * sizes[given] + _REPLY_FLOOR:
                        raise self._died(f"a reply of {length} bytes")
                    if end > size:
                        break
                    try:
                        reply = _wire.decode(buffer[at + header.size : end])
                    except _wire.ProtocolError as error:
                        raise self._died(str(error)) from None
                    at = end
                    given += 1
                    yield reply
                if given == wanted:
                    self._buffer = bytearray(buffer[at:])
                    return
                buffer = buffer[at:] + self._read(timeout)
                at = 0
        finally:
            if given < wanted:
                self.close()

    def _died(self, reason: str) -> WorkerDied:
        line = self.line
        return WorkerDied(self._death(reason), line)

    @property
    def line(self) -> int:
        """The number of the line the worker is on (or was, when it died)."""
        if self._progress.closed:
            return 0
        return int(PROGRESS.unpack_from(self._progress, 0)[0])

    def _read(self, timeout: float) -> bytes:
        """What the worker has written; a line that shows no progress within ``timeout`` hangs."""
        poll = min(timeout / 4, 0.5)
        seen = self.line
        since = time.monotonic()
        while not select.select([self._replies], [], [], poll)[0]:
            now = time.monotonic()
            line = self.line
            if line != seen:
                seen, since = line, now
            elif now - since > timeout:
                raise self._died(f"line took longer than {timeout:g} s (killed)")
            if self._process.poll() is not None:
                raise self._died("the worker exited")
        chunk = os.read(self._replies, _READ_SIZE)
        if not chunk:
            raise self._died("the worker closed its pipe")
        return chunk

    def _send(self, message: dict[str, Any], frame: bytes = b"") -> None:
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(_wire.encode(message))
            if frame:
                stdin.write(frame)
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise WorkerDied(self._death("the worker was gone")) from None

    def _reply(self, timeout: float, size: int) -> dict[str, Any]:
        [reply] = self._replies_for([size], timeout)
        if not isinstance(reply, dict):
            raise WorkerDied(self._death("the worker's reply is not an object"))
        return reply

    def _death(self, reason: str) -> str:
        """Stop the worker; why it is dead (its signal or exit status when it died by itself)."""
        process = self._process
        died_alone = process.poll() is not None
        if not died_alone:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=0.05)
                died_alone = True
        self.close()
        if not died_alone:
            return reason
        code = process.returncode
        if code is not None and code < 0:
            try:
                return f"the worker died of {signal.Signals(-code).name}"
            except ValueError:
                return f"the worker died of signal {-code}"
        return f"the worker exited with status {code}"

    def close(self) -> None:
        """Stop the worker (it holds no state worth a graceful end)."""
        if self.dead:
            return
        self.dead = True
        process = self._process
        if process.poll() is None:
            with contextlib.suppress(OSError):
                process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=5)
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()
        os.close(self._replies)
        self._progress.close()
        self._progress_file.close()

    def __del__(self) -> None:
        if not getattr(self, "dead", True):
            with contextlib.suppress(Exception):
                self.close()


#: Pipe capacity asked for (Linux): a batch's request and replies fit without blocking.
_PIPE_SIZE: Final = 1 << 20


def _widen(pipe: object) -> None:
    """Ask the kernel for a bigger pipe, where it can (F_SETPIPE_SZ); fine if it cannot."""
    set_size = getattr(fcntl, "F_SETPIPE_SZ", None)
    fd = pipe if isinstance(pipe, int) else getattr(pipe, "fileno", lambda: -1)()
    if set_size is None or fd < 0:
        return
    with contextlib.suppress(OSError):
        fcntl.fcntl(fd, set_size, _PIPE_SIZE)
