"""One worker process seen from the host: start it, send requests, read replies with a watchdog.

The worker answers a batch of lines with one reply per line, written in
groups of a few lines (:mod:`._wire`, :mod:`._pipe`). The watchdog is the
host's own clock, never what the worker says: a new worker has
:func:`start_timeout` seconds to say hello, and each group of replies must be
whole within the line limit (plus the quarter of it an honest worker may
hold finished replies back) of the previous group, however many bytes
trickle in meanwhile. Past that the worker is killed. A worker that dies (a
segfault, an ``os._exit``, the memory limit) or sends anything but
well-formed messages within their bounds is dead too. Before each line the
worker puts the line's number in a shared progress page: only to name the
line it died on (within the lines it had not answered yet), never to extend
its time. :class:`WorkerDied` comes after every reply that did arrive (those
written before a hang are read first), so the caller knows which line the
worker died on and loses no result before it.

Every live worker is closed when the host exits; on Linux the kernel kills
it too when the host dies of a signal (see :func:`._sandbox.bind_to_host`).
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
import weakref
from collections.abc import Iterator
from typing import Any, Final

from linewise.plugins.isolation import _wire
from linewise.plugins.isolation._pipe import PipeReader, write_all
from linewise.plugins.isolation._policy import IsolationPolicy
from linewise.plugins.isolation._polling import POLICY
from linewise.plugins.isolation._worker import PROGRESS
from linewise.plugins.relay import worker_output_fd

__all__ = ["WorkerDied", "WorkerProcess", "start_timeout", "worker_environment"]

_BOOT: Final = (
    "import sys, json; sys.path[:] = json.loads(sys.argv[1])['path']; "
    "from linewise.plugins.isolation._worker import main; main()"
)
#: glibc's malloc, told to keep freed memory: otherwise it gives the top of the heap
#: back after every batch and takes it again for the next (thousands of page faults).
_WORKER_ENVIRONMENT: Final = {
    "MALLOC_TOP_PAD_": str(8 * 1024 * 1024),
    "MALLOC_TRIM_THRESHOLD_": str(32 * 1024 * 1024),
}
#: The only variables of the host's environment a worker sees (API keys and the rest stay out).
_PASSED_VARIABLES: Final = ("LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TZ")
#: Seconds a new worker has at least to import its plugin and say hello.
_START_FLOOR: Final = 10.0
#: An honest worker sends what it holds once this share of the line limit has passed.
FLUSH_SHARE: Final = 0.25
_live: weakref.WeakSet[WorkerProcess] = weakref.WeakSet()


def start_timeout(policy: IsolationPolicy) -> float:
    """Seconds a new worker has to say hello (host's clock): twice the line limit, 10 at least."""
    return max(_START_FLOOR, 2 * policy.line_timeout)


def worker_environment(environ: dict[str, str] | os._Environ[str]) -> dict[str, str]:
    """A worker's whole environment: the locale and time zone, and malloc's tuning."""
    passed = {name: environ[name] for name in _PASSED_VARIABLES if name in environ}
    return passed | _WORKER_ENVIRONMENT


@atexit.register
def _close_all() -> None:
    for worker in list(_live):
        with contextlib.suppress(Exception):
            worker.close()


class WorkerDied(Exception):
    """The worker hung, crashed or broke the protocol (it is stopped).

    ``line`` is the number of the line it was on, as its progress page said
    (a hint the caller keeps within the lines not answered yet).
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
        #: Read with pread, never mapped: a worker that truncates the file cannot fault the host.
        self._progress = self._progress_file.fileno()
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
            "host": os.getpid(),
            "flush_after": policy.line_timeout * FLUSH_SHARE,
        }
        # The worker's stdout and stderr reach ours neutralised (linewise.plugins.relay).
        stderr = worker_output_fd() if sys.__stderr__ is not None else subprocess.DEVNULL
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", _BOOT, json.dumps(config)],
                stdin=subprocess.PIPE,
                stdout=stderr,
                stderr=stderr,
                env=worker_environment(os.environ),
                pass_fds=(write_end, self._progress_file.fileno()),
                start_new_session=True,  # the terminal's Ctrl-C is the host's alone
            )
        finally:
            os.close(write_end)
        _live.add(self)
        for pipe in (read_end, self._process.stdin):
            _widen(pipe)
        self._started = False
        reply = self._reply(start_timeout(policy), len(value))
        self._started = True
        self.hello: dict[str, Any] = reply

    @property
    def pid(self) -> int:
        """The worker's process id."""
        return self._process.pid

    def request(self, message: dict[str, Any], *, size: int = 0) -> dict[str, Any]:
        """Send one request and return its one reply (raises WorkerDied)."""
        self._send(message)
        return self._reply(self._line_allowance(), size)

    def parse(self, lines: list[str], ts: str) -> Iterator[Any]:
        """One reply per line, as they arrive (raises WorkerDied, whose ``line`` says where).

        A caller that stops early leaves replies in the pipe, so the worker is
        stopped.
        """
        first = self.next_line
        self.next_line += len(lines)
        spin = POLICY.spin()
        self._send({"op": "parse", "ts": ts, "first": first, "lines": lines, "poll": spin})
        return self._replies_for([len(line) for line in lines], self._line_allowance(), first)

    def _line_allowance(self) -> float:
        """Seconds from one group of replies to the next: the line limit, plus what an honest
        worker may hold back (see :data:`FLUSH_SHARE`)."""
        return self._policy.line_timeout * (1 + FLUSH_SHARE)

    def _replies_for(self, sizes: list[int], timeout: float, first: int = 0) -> Iterator[Any]:
        """One reply per size, read a group at a time (bounded by its lines' sizes).

        The group's body is read as it comes (the buffer grows with what
        arrived, not with what the header claims), and each whole group gives
        the next one ``timeout`` seconds on the host's clock.
        """
        wanted = len(sizes)
        given = 0
        head = _wire.GROUP.size
        pipe = self._pipe
        deadline = time.monotonic() + timeout
        try:
            while given < wanted:
                if pipe.unread < head:
                    self._receive(deadline, timeout)
                    continue
                length, count = _wire.GROUP.unpack_from(pipe.data, pipe.start)
                if not 0 < count <= wanted - given:
                    raise self._died(f"a group of {count} replies")
                if length > _wire.group_limit(sizes[given : given + count]):
                    # A long reply comes alone: the group's first line is the one.
                    raise self._died(f"a reply of {length:,} bytes", first + given)
                if pipe.unread < head + length:
                    self._receive(deadline, timeout)
                    continue
                start = pipe.start + head
                with memoryview(pipe.data) as view, view[start : start + length] as body:
                    replies = self._decode(body)
                pipe.consume(head + length)
                if type(replies) is not list or len(replies) != count:
                    raise self._died(f"a group that does not hold its {count} replies")
                deadline = time.monotonic() + timeout
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
        """The number of the line the worker says it is on (or was, when it died): a hint."""
        if self.dead:
            return 0
        try:
            data = os.pread(self._progress, PROGRESS.size, 0)
        except OSError:
            return 0
        return int(PROGRESS.unpack(data)[0]) if len(data) == PROGRESS.size else 0

    def _receive(self, deadline: float, timeout: float) -> None:
        """Read more of what the worker wrote: polled for (see :mod:`._pipe`), or slept for.

        Past ``deadline`` (the host's clock) the line hangs: the worker is
        stopped, and WorkerDied raised once the replies it wrote before are read.
        """
        if self._stopped is not None:
            raise self._stopped
        came = self._pipe.poll(POLICY.spin())
        if came is None:
            came = self._sleep(deadline, timeout)
        if not came:
            if self._stopped is not None:
                raise self._stopped
            raise self._died("the worker closed its pipe")

    def _sleep(self, deadline: float, timeout: float) -> int:
        """Sleep until the worker writes or ``deadline`` passes, whichever comes first."""
        pipe = self._pipe
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                if not self._started:
                    return self._stop(f"the worker did not start within {timeout:g} s (killed)")
                limit = self._policy.line_timeout
                return self._stop(f"line took longer than {limit:g} s (killed)")
            if select.select([pipe.fd], [], [], min(left, 0.5))[0]:
                came = pipe.read_now()
                if came is not None:
                    return came
                continue
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
        self._progress_file.close()
        _live.discard(self)

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
