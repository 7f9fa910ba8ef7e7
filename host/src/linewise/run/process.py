"""A live run's child process: spawned in its own group, read with a selector, signalled on time."""

from __future__ import annotations

import contextlib
import errno
import os
import selectors
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final, Protocol

from linewise.run.child import (
    Action,
    ChildMachine,
    Event,
    Exited,
    Forward,
    Interrupt,
    Phase,
    PipesClosed,
    Say,
    Signal,
    StopReading,
)
from linewise.settings.defaults import EXIT_CANNOT_EXECUTE, EXIT_NOT_FOUND, READ_SIZE
from linewise.settings.errors import AgentStartError

__all__ = [
    "FORWARDED_SIGNALS",
    "Child",
    "ChildOutput",
    "SignalInbox",
    "forwarding_signals",
    "spawn",
]

#: What linewise receives and passes on to the child when asked to forward signals.
FORWARDED_SIGNALS: Final = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_TICK: Final = 0.5  # how often the child is polled when nothing else happens


class ChildOutput(Protocol):
    """Where a child's output goes, as it arrives (``now`` is ``time.monotonic()``)."""

    def stdout(self, chunk: bytes, now: float) -> None: ...
    def stderr(self, chunk: bytes, now: float) -> None: ...
    def closed(self, stream: str, now: float) -> None: ...
    def say(self, text: str) -> None: ...
    def wake_at(self) -> float | None:
        """The output's own next deadline (a detection wait, a partial stderr line)."""

    def tick(self, now: float) -> None:
        """Called after each round of reads: the moment to act on those deadlines."""


def spawn(
    argv: list[str], *, env: Mapping[str, str], cwd: str | None, shown: str
) -> subprocess.Popen[bytes]:
    """Start ``argv`` with piped stdout and stderr in its own session and process group.

    Raises :class:`AgentStartError` (exit 127 or 126, naming ``shown``) when it cannot start.
    """
    try:
        return subprocess.Popen(
            argv,
            stdin=None,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=dict(env),
            cwd=cwd,
            # Its own session and process group: a timeout or Ctrl-C reaches
            # every process the agent started, and never linewise itself.
            start_new_session=True,
            bufsize=0,
        )
    except FileNotFoundError as error:
        raise AgentStartError(shown, "command not found", EXIT_NOT_FOUND) from error
    except PermissionError as error:
        raise AgentStartError(shown, "permission denied", EXIT_CANNOT_EXECUTE) from error
    except OSError as error:
        if error.errno in (errno.ENOEXEC, errno.EISDIR, errno.ENOTDIR):
            raise AgentStartError(
                shown, f"cannot execute ({error.strerror})", EXIT_CANNOT_EXECUTE
            ) from error
        raise


class Child:
    """Reads a spawned child's pipes until they end and it exits, carrying out its machine."""

    def __init__(
        self,
        process: subprocess.Popen[bytes],
        output: ChildOutput,
        *,
        timeout: float | None,
        grace: float,
        inbox: SignalInbox | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        assert process.stdout is not None and process.stderr is not None
        self.process = process
        self.output = output
        self.clock = clock
        self.started = clock()
        self.machine = ChildMachine(started=self.started, timeout=timeout, grace=grace)
        self.selector = selectors.DefaultSelector()
        self.selector.register(process.stdout, selectors.EVENT_READ, "stdout")
        self.selector.register(process.stderr, selectors.EVENT_READ, "stderr")
        self.streams = {"stdout", "stderr"}  # the pipes still being read
        self.inbox = inbox
        if inbox is not None:
            self.selector.register(inbox.read_fd, selectors.EVENT_READ, "signal")

    @property
    def returncode(self) -> int | None:
        return self.machine.returncode

    def run(self) -> None:
        """The loop: read as output arrives, act on deadlines and signals, until done."""
        machine = self.machine
        try:
            while machine.phase is not Phase.DONE:
                self.events(machine.due(self.clock()))
                ready = self.selector.select(self.wait(self.clock()))
                now = self.clock()
                for key, _ in ready:
                    self.ready(key, now)
                self.output.tick(now)
                if machine.returncode is None:
                    code = self.process.poll()
                    if code is not None:
                        self.events([Exited(code)])
        except BaseException:
            self.cleanup()
            raise
        finally:
            self.close()

    def events(self, events: list[Event]) -> None:
        """Hand events to the machine and carry out what it says."""
        for event in events:
            for action in self.machine.handle(event, self.clock()):
                self.act(action)

    def act(self, action: Action) -> None:
        match action:
            case Signal(signum):
                self.send(signum)
            case Say(text):
                self.output.say(text)
            case StopReading():
                for stream in sorted(self.streams, reverse=True):  # stdout first
                    self.end(stream, self.clock())

    def send(self, signum: int) -> bool:
        """Signal the child's whole process group; False when it is already gone."""
        try:
            os.killpg(self.process.pid, signum)
        except (ProcessLookupError, PermissionError):
            return False
        return True

    def wait(self, now: float) -> float:
        """How long select may block: until the next deadline, or a poll of the child."""
        deadlines = [now + _TICK]
        deadlines += [d for d in (self.machine.next_deadline(), self.output.wake_at()) if d]
        return max(min(deadlines) - now, 0.0)

    def ready(self, key: selectors.SelectorKey, now: float) -> None:
        """A pipe has data (or ended), or a signal arrived."""
        if key.data == "signal":
            assert self.inbox is not None
            received = self.inbox.take()
            self.events([Interrupt() if s == signal.SIGINT else Forward(s) for s in received])
            return
        if key.data not in self.streams:
            return  # stopped reading it earlier in this round
        chunk = os.read(key.fd, READ_SIZE)
        if not chunk:
            self.end(key.data, now)
        elif key.data == "stdout":
            self.output.stdout(chunk, now)
        else:
            self.output.stderr(chunk, now)

    def end(self, stream: str, now: float) -> None:
        """One pipe ended (or is no longer read): pass on what was held back."""
        pipe = self.process.stdout if stream == "stdout" else self.process.stderr
        assert pipe is not None
        self.selector.unregister(pipe)
        self.streams.discard(stream)
        self.output.closed(stream, now)
        if not self.streams and self.machine.pipes_open:
            self.events([PipesClosed()])

    def cleanup(self) -> None:
        """After an error in linewise or a callback: leave no agent process behind."""
        if self.machine.returncode is not None or self.process.poll() is not None:
            return
        try:
            self.send(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(self.machine.grace)
        finally:
            self.send(signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(5)

    def close(self) -> None:
        self.selector.close()
        for pipe in (self.process.stdout, self.process.stderr):
            if pipe is not None:
                pipe.close()


class SignalInbox:
    """Signals received by linewise, noted by a handler and woken on through a pipe."""

    def __init__(self) -> None:
        self.read_fd, self.write_fd = os.pipe()
        for fd in (self.read_fd, self.write_fd):
            os.set_blocking(fd, False)
        self.received: list[int] = []

    def note(self, signum: int, frame: object) -> None:
        """The signal handler: only note it; the loop acts on it, outside any half-done write."""
        self.received.append(signum)
        with contextlib.suppress(OSError):
            os.write(self.write_fd, b"\0")

    def take(self) -> list[int]:
        """The signals noted since the last call, oldest first."""
        with contextlib.suppress(BlockingIOError):
            os.read(self.read_fd, 512)
        received, self.received = self.received, []
        return received

    def close(self) -> None:
        os.close(self.read_fd)
        os.close(self.write_fd)


@contextlib.contextmanager
def forwarding_signals(enabled: bool) -> Iterator[SignalInbox | None]:
    """While inside, SIGINT, SIGTERM and SIGHUP to linewise are noted for the child instead
    of acting on linewise (main thread only; yields None when not enabled)."""
    if not enabled or threading.current_thread() is not threading.main_thread():
        yield None
        return
    inbox = SignalInbox()
    previous: dict[signal.Signals, Any] = {}
    try:
        for number in FORWARDED_SIGNALS:
            previous[number] = signal.signal(number, inbox.note)
        yield inbox
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        inbox.close()
