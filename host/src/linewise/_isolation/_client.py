"""One worker process seen from the host: start it, send requests, read replies with a watchdog.

The worker answers a batch of lines with one reply per line, written in
groups of a few lines (:mod:`._wire`, :mod:`._pipe`). Before each line it puts
the line's number in a shared progress page: when that number stands still
longer than the time limit, the line hangs and the worker is killed. A worker
that dies (a segfault, an ``os._exit``, the memory limit) or sends anything
but well-formed messages is dead too. :class:`WorkerDied` comes after every
reply that did arrive (those written before a hang are read first), so the
caller knows exactly which line the worker died on and loses no result
before it.
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
from linewise._isolation._pipe import PipeReader, write_all
from linewise._isolation._policy import IsolationPolicy
from linewise._isolation._polling import POLICY
from linewise._isolation._worker import PROGRESS
from linewise._relay import worker_output_fd

__all__ = ["WorkerDied", "WorkerProcess"]

_BOOT: Final = (
    "import sys, json; sys.path[:] = json.loads(sys.argv[1])['path']; "
    "from linewise._isolation._worker import main; main()"
)
#: glibc's malloc, told to keep freed memory: otherwise it gives the top of the heap
#: back after every batch and takes it again for the next (thousands of page faults).
_WORKER_ENVIRONMENT: Final = {
    "MALLOC_TOP_PAD_": str(8 * 1024 * 1024),
    "MALLOC_TRIM_THRESHOLD_": str(32 * 1024 * 1024),
}
#: Seconds a new worker has to import its plugin and say hello.
_START_TIMEOUT: Final = 60.0


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
        self._pipe = PipeReader(read_end)
        #: Set when the worker was stopped with replies left to read: raised after them.
        self._stopped: WorkerDied | None = None
        config = {
            "path": [entry for entry in sys.path if isinstance(entry, str)],
            "value": value,
            "memory": policy.worker_memory,
            "reply_fd": write_end,
            "progress_fd": self._progress_file.fileno(),
            "sandbox": sandbox,
        }
        # The worker's stdout and stderr reach ours neutralised (linewise._relay).
        stderr = worker_output_fd() if sys.__stderr__ is not None else subprocess.DEVNULL
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", _BOOT, json.dumps(config)],
                stdin=subprocess.PIPE,
                stdout=stderr,
                stderr=stderr,
                env=_WORKER_ENVIRONMENT | os.environ,
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

        A caller that stops early leaves replies in the pipe, so the worker is
        stopped.
        """
        first = self.next_line
        self.next_line += len(lines)
        spin = POLICY.spin()
        self._send({"op": "parse", "ts": ts, "first": first, "lines": lines, "poll": spin})
        return self._replies_for([len(line) for line in lines], self._policy.line_timeout, first)

    def _replies_for(self, sizes: list[int], timeout: float, first: int = 0) -> Iterator[Any]:
        """One reply per size, read a group at a time (bounded by its lines' sizes)."""
        wanted = len(sizes)
        given = 0
        head = _wire.GROUP.size
        pipe = self._pipe
        try:
            while given < wanted:
                if pipe.unread < head:
                    self._receive(timeout)
                    continue
                length, count = _wire.GROUP.unpack_from(pipe.data, pipe.start)
                if not 0 < count <= wanted - given:
                    raise self._died(f"a group of {count} replies")
                if length > _wire.group_limit(sizes[given : given + count]):
                    # A long reply comes alone: the group's first line is the one.
                    raise self._died(f"a reply of {length} bytes", first + given)
                if pipe.unread < head + length:
                    pipe.reserve(head + length)
                    self._receive(timeout)
                    continue
                start = pipe.start + head
                with memoryview(pipe.data) as view, view[start : start + length] as body:
                    replies = self._decode(body)
                pipe.consume(head + length)
                if type(replies) is not list or len(replies) != count:
                    raise self._died(f"a group that does not hold its {count} replies")
                for reply in replies:
                    given += 1
                    yield reply
        finally:
            if given < wanted:
                self.close()

    def _decode(self, body: memoryview) -> Any:
        try:
            return _wire.decode(body)
        except _wire.ProtocolError as error:
            raise self._died(str(error)) from None

    def _died(self, reason: str, line: int | None = None) -> WorkerDied:
        where = self.line if line is None else line
        return WorkerDied(self._death(reason), where)

    @property
    def line(self) -> int:
        """The number of the line the worker is on (or was, when it died)."""
        if self._progress.closed:
            return 0
        return int(PROGRESS.unpack_from(self._progress, 0)[0])

    def _receive(self, timeout: float) -> None:
        """Read more of what the worker wrote: polled for (see :mod:`._pipe`), or slept for.

        A line that shows no progress within ``timeout`` hangs: the worker is
        stopped, and WorkerDied raised once the replies it wrote before are read.
        """
        if self._stopped is not None:
            raise self._stopped
        came = self._pipe.poll(POLICY.spin())
        if came is None:
            came = self._sleep(timeout)
        if not came:
            if self._stopped is not None:
                raise self._stopped
            raise self._died("the worker closed its pipe")

    def _sleep(self, timeout: float) -> int:
        """Sleep until the worker writes, keeping an eye on its progress page."""
        pipe = self._pipe
        poll = min(timeout / 4, 0.5)
        seen = self.line
        since = time.monotonic()
        while True:
            if select.select([pipe.fd], [], [], poll)[0]:
                came = pipe.read_now()
                if came is not None:
                    return came
                continue
            now = time.monotonic()
            line = self.line
            if line != seen:
                seen, since = line, now
            elif now - since > timeout:
                return self._stop(f"line took longer than {timeout:g} s (killed)")
            if self._process.poll() is not None:
                return self._stop("the worker exited")

    def _stop(self, reason: str) -> int:
        """Stop the worker, read what it wrote before, and keep its death to raise after that."""
        line = self.line
        why = self._cause(reason)
        self._kill()
        drained = 0
        while came := self._pipe.read_now():
            drained += came
        self._stopped = WorkerDied(why, line)
        self.close()
        return drained

    def _send(self, message: dict[str, Any]) -> None:
        stdin = self._process.stdin
        assert stdin is not None
        try:
            write_all(stdin.fileno(), _wire.request(message))
        except (BrokenPipeError, OSError, ValueError):
            raise WorkerDied(self._death("the worker was gone")) from None

    def _reply(self, timeout: float, size: int) -> dict[str, Any]:
        [reply] = self._replies_for([size], timeout)
        if not isinstance(reply, dict):
            raise WorkerDied(self._death("the worker's reply is not an object"))
        return reply

    def _death(self, reason: str) -> str:
        """Stop the worker; why it is dead (see :meth:`_cause`)."""
        why = self._cause(reason)
        self.close()
        return why

    def _cause(self, reason: str) -> str:
        """``reason``, or the worker's signal or exit status when it died by itself."""
        process = self._process
        died_alone = process.poll() is not None
        if not died_alone:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=0.05)
                died_alone = True
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
        self._kill()
        process = self._process
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()
        os.close(self._pipe.fd)
        self._progress.close()
        self._progress_file.close()

    def _kill(self) -> None:
        process = self._process
        if process.poll() is None:
            with contextlib.suppress(OSError):
                process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=5)

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
