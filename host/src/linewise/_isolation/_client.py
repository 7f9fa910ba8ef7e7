"""One worker process seen from the host: start it, send a request, wait with a watchdog.

The watchdog reads the worker's progress page (the number of the line being
parsed) while it waits: a line that keeps the same number past the time limit
is a hang, and the worker is killed. A worker that dies (a segfault, an
``os._exit``, the memory limit) or answers with anything but a well-formed
message is dead too; :class:`WorkerDied` says on which line.
"""

from __future__ import annotations

import contextlib
import json
import mmap
import os
import select
import signal
import struct
import subprocess
import sys
import tempfile
import time
from typing import Any, Final

from linewise._isolation import _wire
from linewise._isolation._policy import IsolationPolicy

__all__ = ["WorkerDied", "WorkerProcess"]

_PROGRESS: Final = struct.Struct("<Q")
_BOOT: Final = (
    "import sys, json; sys.path[:] = json.loads(sys.argv[1])['path']; "
    "from linewise._isolation._worker import main; main()"
)
#: Seconds a new worker has to import its plugin and say hello.
_START_TIMEOUT: Final = 60.0
#: A reply may hold this many bytes per request byte, plus a floor per line.
_REPLY_FACTOR: Final = 24
_REPLY_FLOOR: Final = 2 * 1024 * 1024


class WorkerDied(Exception):
    """The worker hung, crashed or broke the protocol; ``line`` is the line it was on."""

    def __init__(self, reason: str, line: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line


class WorkerProcess:
    """A worker serving one entry point (``module:attr``) under ``policy``'s limits."""

    def __init__(self, value: str, policy: IsolationPolicy, *, sandbox: bool = True) -> None:
        self._policy = policy
        self._progress_file = tempfile.TemporaryFile()  # noqa: SIM115 - lives with the worker
        self._progress_file.truncate(_PROGRESS.size)
        self._progress = mmap.mmap(self._progress_file.fileno(), _PROGRESS.size)
        read_end, write_end = os.pipe()
        self._replies = read_end
        config = {
            "path": [entry for entry in sys.path if isinstance(entry, str)],
            "value": value,
            "memory": policy.worker_memory,
            "reply_fd": write_end,
            "progress_fd": self._progress_file.fileno(),
            "sandbox": sandbox,
        }
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", _BOOT, json.dumps(config)],
                stdin=subprocess.PIPE,
                stdout=sys.__stderr__.fileno() if sys.__stderr__ else subprocess.DEVNULL,
                pass_fds=(write_end, self._progress_file.fileno()),
                start_new_session=True,  # the terminal's Ctrl-C is the host's alone
            )
        finally:
            os.close(write_end)
        self.sent_lines = 0
        #: True once the worker was stopped (it cannot be used again).
        self.dead = False
        self.hello: dict[str, Any] = self._wait(_START_TIMEOUT, len(value))

    @property
    def pid(self) -> int:
        """The worker's process id."""
        return self._process.pid

    def request(self, message: dict[str, Any], *, lines: int = 1) -> Any:
        """Send one request and wait for its reply (raises WorkerDied)."""
        data = _wire.encode(message)
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(data)
            stdin.flush()
        except (BrokenPipeError, OSError):
            self.close()
            raise WorkerDied(self._death("the worker was gone"), self._line()) from None
        return self._wait(self._policy.line_timeout, len(data) + lines)

    def _line(self) -> int:
        return int(_PROGRESS.unpack_from(self._progress, 0)[0])

    def _wait(self, timeout: float, size: int) -> Any:
        seen = self._line()
        since = time.monotonic()
        poll = min(timeout / 4, 0.25)
        while True:
            ready, _, _ = select.select([self._replies], [], [], poll)
            if ready:
                return self._read(size)
            now = time.monotonic()
            line = self._line()
            if line != seen:
                seen, since = line, now
            elif now - since > timeout:
                self.close()
                raise WorkerDied(f"no answer within {timeout:g} s (killed)", line)
            if self._process.poll() is not None:
                self.close()
                raise WorkerDied(self._death("the worker exited"), line)

    def _read(self, size: int) -> Any:
        limit = _REPLY_FACTOR * size + _REPLY_FLOOR
        try:
            header = _wire.read_exactly(self._replies, _wire.HEADER.size)
            (length,) = _wire.HEADER.unpack(header)
            if length > limit:
                raise _wire.ProtocolError(f"a reply of {length} bytes (at most {limit} allowed)")
            reply = _wire.decode(_wire.read_exactly(self._replies, length))
        except _wire.ProtocolError as error:
            line = self._line()
            self.close()
            raise WorkerDied(self._death(str(error)), line) from None
        if not isinstance(reply, dict):
            self.close()
            raise WorkerDied("the worker's reply is not an object", self._line())
        return reply

    def _death(self, fallback: str) -> str:
        try:
            code = self._process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return fallback
        if code < 0:
            try:
                return f"the worker died of {signal.Signals(-code).name}"
            except ValueError:
                return f"the worker died of signal {-code}"
        return f"the worker exited with status {code}"

    def close(self) -> None:
        """Stop the worker (closing its stdin first; killing it if it does not go)."""
        self.dead = True
        process = self._process
        if process.poll() is None:
            with contextlib.suppress(OSError):
                process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=5)
        for stream in (process.stdin,):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        if self._replies >= 0:
            os.close(self._replies)
            self._replies = -1
        self._progress.close()
        self._progress_file.close()

    def __del__(self) -> None:
        if getattr(self, "_replies", -1) >= 0:
            with contextlib.suppress(Exception):
                self.close()
