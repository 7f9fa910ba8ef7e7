"""Live runs: spawn an agent CLI, parse its output as it arrives, with safety rails, redacted."""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import selectors
import signal
import stat
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any, Final

from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.summary import RunSummary

from linewise import _defaults
from linewise._detect import Detection
from linewise._lines import LineReader, read_lines
from linewise._pipeline import Pipeline
from linewise._redact import (
    MASK,
    SECRET_NAME,
    Redactor,
    redact_command,
    redact_env,
    secret_variables,
)
from linewise._registry import Registry, get_registry
from linewise._session import DEFAULT_MAX_LINE_CHARS, Diagnostics, TranscriptSession, utc_now
from linewise._summary import RunReport, plugin_summary
from linewise.errors import AgentStartError, LinewiseError, UnknownAdapterError

if TYPE_CHECKING:
    from linewise.renderers import JsonlRenderer

__all__ = [
    "DEFAULT_GRACE",
    "DETECT_WAIT",
    "EXIT_CANNOT_EXECUTE",
    "EXIT_HOST_FAILURE",
    "EXIT_NOT_FOUND",
    "EXIT_TIMEOUT",
    "MASK",
    "SECRET_NAME",
    "AgentStartError",
    "Redactor",
    "RunResult",
    "redact_command",
    "redact_env",
    "run_agent",
    "secret_variables",
]

EXIT_TIMEOUT: Final = _defaults.EXIT_TIMEOUT
EXIT_HOST_FAILURE: Final = _defaults.EXIT_HOST_FAILURE
EXIT_CANNOT_EXECUTE: Final = _defaults.EXIT_CANNOT_EXECUTE
EXIT_NOT_FOUND: Final = _defaults.EXIT_NOT_FOUND
DEFAULT_GRACE: Final = _defaults.GRACE
DETECT_WAIT: Final = _defaults.DETECT_WAIT

_READ_SIZE: Final = 64 * 1024
_STDERR_IDLE: Final = 0.2  # a partial stderr line is shown after this long without output
_STDERR_MAX: Final = 64 * 1024  # a stderr line is shown in pieces beyond this size
_TICK: Final = 0.5  # how often the child is polled when nothing else happens
_ABANDON_AFTER: Final = 2.0  # after SIGKILL: how long pipes held by escaped processes are read

logger = logging.getLogger("linewise")


# -- results -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RunResult:
    """How a live run ended.

    ``exit_code`` is what ``linewise run`` exits with: the child's own code,
    128 + N when a signal N killed it, :data:`EXIT_TIMEOUT` when the timeout
    stopped it. ``returncode`` is the raw status (negative for a signal).
    ``signal`` names the signal that ended the child, if one did.
    """

    exit_code: int
    returncode: int
    signal: str | None
    timed_out: bool
    interrupted: bool
    killed: bool
    duration: float
    report: RunReport
    session: TranscriptSession = field(repr=False, compare=False)
    detection: Detection | None = None

    @property
    def adapter_type(self) -> str:
        """The adapter type the output was parsed with."""
        return self.report.adapter_type

    @property
    def diagnostics(self) -> Diagnostics:
        """How the stdout lines were accounted for."""
        return self.report.diagnostics

    @property
    def summary(self) -> RunSummary:
        """The run summary: the plugin's, or the transcript's when it has no ``summarize_run``."""
        return self.report.summary


# -- the run -------------------------------------------------------------------


class _Run:
    """One child process and everything that happens to its output."""

    def __init__(
        self,
        argv: list[str],
        adapter_type: str,
        *,
        registry: Registry,
        env: dict[str, str],
        cwd: str | None,
        timeout: float | None,
        grace: float,
        on_entry: Callable[[TranscriptEntry], None] | None,
        on_line: Callable[[str, Sequence[TranscriptEntry]], None] | None,
        on_batch: Callable[[], None] | None,
        on_detect: Callable[[Detection], None] | None,
        log: IO[bytes] | None,
        transcript: IO[bytes] | None,
        max_line_chars: int,
        detect_wait: float,
    ) -> None:
        self.argv = argv
        self.registry = registry
        self.env = env
        self.cwd = cwd
        self.timeout = timeout
        self.grace = grace
        self.on_entry = on_entry
        self.on_batch = on_batch
        self.batch_open = False
        self.on_detect = on_detect
        self.log = log
        self.max_line_chars = max_line_chars
        self.detect_wait = detect_wait
        self.out_redactor = Redactor.for_environment(env)
        self.err_redactor = Redactor.for_environment(env)
        self.shown = redact_command(argv, self.out_redactor)
        self.stderr = LineReader(_STDERR_MAX)
        self.transcript_writer: JsonlRenderer | None = None
        if transcript is not None:
            from linewise.renderers import JsonlRenderer

            self.transcript_writer = JsonlRenderer(transcript)
        self.on_line = on_line
        # bytes → lines → sniffer (output waits while detecting) → session → these callbacks.
        self.pipeline = Pipeline(
            adapter_type,
            registry=registry,
            on_entry=self.entry,
            on_line=self.line if on_line is not None else None,
            on_detect=on_detect,
            eager=True,
            max_line_chars=max_line_chars,
        )
        self.detect_by: float | None = None
        # Where stdout goes for the plugin's summarize_run once the run is over.
        self.spool: IO[bytes] | None = None
        if not self._log_is_rereadable():
            self.spool = tempfile.TemporaryFile()  # noqa: SIM115 - closed by run_agent()
        # The process and what happened to it.
        self.process: subprocess.Popen[bytes] | None = None
        self.returncode: int | None = None
        self.started = 0.0
        self.timed_out = False
        self.interrupted = False
        self.killed = False
        self.interrupts = 0
        self.streams = {"stdout", "stderr"}  # the child's pipes still being read
        self.timeout_at: float | None = None
        self.kill_at: float | None = None
        self.drain_until: float | None = None
        self.abandon_at: float | None = None
        self.signals: list[int] = []
        self.wake_r = self.wake_w = -1
        self.selector = selectors.DefaultSelector()
        self.last_output = 0.0

    # -- entries ---------------------------------------------------------------

    def entry(self, entry: TranscriptEntry) -> None:
        """One entry out of the pipeline: saved, then handed to the host app."""
        self.batch_open = True
        if self.transcript_writer is not None:
            self.transcript_writer.write(entry)
        if self.on_entry is not None:
            self.on_entry(entry)

    def line(self, line: str, entries: Sequence[TranscriptEntry]) -> None:
        """One stdout line and its entries, for a host app that draws from lines."""
        self.batch_open = True
        if self.transcript_writer is not None:
            for entry in entries:
                self.transcript_writer.write(entry)
        assert self.on_line is not None
        self.on_line(line, entries)

    def end_batch(self) -> None:
        """Entries were handed out since the last call: tell the host app (to flush, say)."""
        if self.batch_open:
            self.batch_open = False
            if self.on_batch is not None:
                self.on_batch()

    def system(self, text: str) -> None:
        """A message from linewise itself, as a system entry in the transcript."""
        self.pipeline.feed_system(f"linewise: {text}", utc_now())

    def flush_stderr(self, final: bool = False) -> None:
        text = self.stderr.flush_block(final)
        if text:
            self.pipeline.feed_stderr(text, utc_now())

    def _log_is_rereadable(self) -> bool:
        if self.log is None:
            return False
        try:
            return stat.S_ISREG(os.fstat(self.log.fileno()).st_mode)
        except (OSError, AttributeError, ValueError):
            return False

    def decide_now(self) -> None:
        """Stop waiting for detection: settle it on the stdout lines that came."""
        if self.pipeline.detecting:
            self.pipeline.decide()

    # -- output ----------------------------------------------------------------

    def on_stdout(self, chunk: bytes, now: float) -> None:
        data = self.out_redactor.feed(chunk)
        self.take_stdout(data, now)

    def take_stdout(self, data: bytes, now: float) -> None:
        if not data:
            return
        if self.log is not None:
            self.log.write(data)
        if self.spool is not None:
            self.spool.write(data)
        if self.stderr.pending:
            self.flush_stderr()  # it came first
        if self.detect_by is None and self.pipeline.detecting:
            self.detect_by = now + self.detect_wait
        self.pipeline.feed(data, utc_now())

    def on_stderr(self, chunk: bytes) -> None:
        text = self.stderr.feed_block(self.err_redactor.feed(chunk))
        if text:
            self.pipeline.feed_stderr(text, utc_now())

    def closed(self, stream: str, now: float) -> None:
        """One of the child's pipes ended: pass on what was held back."""
        if stream == "stdout":
            self.take_stdout(self.out_redactor.flush(), now)
            return
        text = self.stderr.feed_block(self.err_redactor.flush())
        if text:
            self.pipeline.feed_stderr(text, utc_now())
        self.flush_stderr(final=True)

    # -- signals ---------------------------------------------------------------

    def send(self, sig: signal.Signals) -> bool:
        """Signal the child's whole process group; False when it is already gone."""
        assert self.process is not None
        try:
            os.killpg(self.process.pid, sig)
        except (ProcessLookupError, PermissionError):
            return False
        return True

    def terminate(self, now: float, why: str) -> None:
        """SIGTERM to the process group now, SIGKILL after the grace period."""
        if self.kill_at is not None:
            return
        self.send(signal.SIGTERM)
        self.kill_at = now + self.grace
        self.system(
            f"{why}: sent SIGTERM to the agent's process group; "
            f"SIGKILL in {_seconds(self.grace)} if it is still running"
        )

    def kill(self, why: str) -> None:
        self.send(signal.SIGKILL)
        self.killed = True
        self.kill_at = None
        self.abandon_at = time.monotonic() + _ABANDON_AFTER
        self.system(f"{why}: sent SIGKILL to the agent's process group")

    def on_signal(self, signum: int, now: float) -> None:
        """What linewise received is forwarded: Ctrl-C once asks, twice terminates, thrice kills."""
        self.interrupted = True
        if self.returncode is not None:
            # The agent is gone; only processes it left behind hold its output: stop waiting.
            self.drain_until = now
            return
        if signum != signal.SIGINT:
            name = signal.Signals(signum).name
            self.send(signal.Signals(signum))
            self.system(f"received {name}: forwarded it to the agent")
            if self.kill_at is None and self.returncode is None:
                self.kill_at = now + self.grace
            return
        self.interrupts += 1
        if self.interrupts == 1:
            self.send(signal.SIGINT)
            self.system("Ctrl-C: sent SIGINT to the agent (Ctrl-C again stops it)")
        elif self.interrupts == 2:
            self.terminate(now, "Ctrl-C again")
        else:
            self.kill("Ctrl-C a third time")

    def _handler(self, signum: int, frame: object) -> None:
        # Only note it: the loop acts on it, outside any half-done write.
        self.signals.append(signum)
        with contextlib.suppress(OSError):
            os.write(self.wake_w, b"\0")

    # -- the loop --------------------------------------------------------------

    def spawn(self) -> None:
        try:
            self.process = subprocess.Popen(
                self.argv,
                stdin=None,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=self.env,
                cwd=self.cwd,
                # Its own session and process group: a timeout or Ctrl-C reaches
                # every process the agent started, and never linewise itself.
                start_new_session=True,
                bufsize=0,
            )
        except FileNotFoundError as error:
            raise AgentStartError(self.shown[0], "command not found", EXIT_NOT_FOUND) from error
        except PermissionError as error:
            raise AgentStartError(
                self.shown[0], "permission denied", EXIT_CANNOT_EXECUTE
            ) from error
        except OSError as error:
            if error.errno in (errno.ENOEXEC, errno.EISDIR, errno.ENOTDIR):
                raise AgentStartError(
                    self.shown[0], f"cannot execute ({error.strerror})", EXIT_CANNOT_EXECUTE
                ) from error
            raise
        self.started = time.monotonic()
        masked = sorted(secret_variables(self.env))
        logger.info(
            "running %s (pid %d); values of %s masked in output",
            " ".join(self.shown),
            self.process.pid,
            ", ".join(masked) or "no variables",
        )

    def loop(self) -> None:
        """Read both pipes as output arrives until they end and the child has exited."""
        process = self.process
        assert process is not None and process.stdout is not None and process.stderr is not None
        self.selector.register(process.stdout, selectors.EVENT_READ, "stdout")
        self.selector.register(process.stderr, selectors.EVENT_READ, "stderr")
        if self.wake_r >= 0:
            self.selector.register(self.wake_r, selectors.EVENT_READ, "wake")
        self.timeout_at = self.started + self.timeout if self.timeout else None
        while self.streams or self.returncode is None:
            self.enforce_deadlines(time.monotonic())
            events = self.selector.select(self.wait(time.monotonic()))
            now = time.monotonic()
            for key, _ in events:
                self.on_event(key, now)
            if self.stderr.pending and now - self.last_output >= _STDERR_IDLE:
                self.flush_stderr()
            self.end_batch()
            if self.returncode is None:
                self.returncode = process.poll()
                if self.returncode is not None and self.streams and self.drain_until is None:
                    # Give processes the agent left behind a moment to finish writing,
                    # but never past the run's timeout.
                    drain = max(self.grace, 1.0)
                    if self.timeout_at is not None:
                        drain = min(drain, max(self.timeout_at - now, 0.0))
                    self.drain_until = now + drain

    def enforce_deadlines(self, now: float) -> None:
        """The timeout, the grace period, the detection wait, and when to stop reading."""
        if self.timeout_at is not None and now >= self.timeout_at and self.returncode is None:
            self.timeout_at = None
            self.timed_out = True
            self.terminate(now, f"timed out after {_seconds(self.timeout or 0)}")
        if self.kill_at is not None and now >= self.kill_at:
            if self.returncode is None or self.streams:
                self.kill(f"still running {_seconds(self.grace)} after SIGTERM")
            else:
                self.kill_at = None
        if self.detect_by is not None and now >= self.detect_by:
            self.detect_by = None
            self.decide_now()
        stop = [d for d in (self.drain_until, self.abandon_at) if d is not None and now >= d]
        if self.streams and stop:
            if self.killed:
                self.system(
                    "processes outside the agent's process group still hold its output open; "
                    "stopped reading it"
                )
            else:
                # What the agent left in its group is stopped, as a timeout would stop it.
                self.send(signal.SIGTERM)
                self.system(
                    "the agent exited, but processes it left running still hold its output "
                    "open; stopped reading it and sent SIGTERM to its process group"
                )
            for key in list(self.selector.get_map().values()):
                if key.data in self.streams:
                    self.selector.unregister(key.fileobj)
                    self.streams.discard(key.data)
                    self.closed(key.data, now)
            self.drain_until = self.abandon_at = None

    def wait(self, now: float) -> float:
        """How long select may block: until the next deadline, or a poll of the child."""
        deadlines = [now + _TICK]
        deadlines += [
            d
            for d in (self.timeout_at, self.kill_at, self.drain_until, self.abandon_at)
            if d is not None
        ]
        if self.detect_by is not None and self.pipeline.detecting:
            deadlines.append(self.detect_by)
        if self.stderr.pending:
            deadlines.append(self.last_output + _STDERR_IDLE)
        return max(min(deadlines) - now, 0.0)

    def on_event(self, key: selectors.SelectorKey, now: float) -> None:
        """A pipe has data (or ended), or a signal arrived."""
        if key.data == "wake":
            with contextlib.suppress(BlockingIOError):
                os.read(self.wake_r, 512)
            signals, self.signals = self.signals, []
            for signum in signals:
                self.on_signal(signum, now)
            return
        chunk = os.read(key.fd, _READ_SIZE)
        if not chunk:
            self.selector.unregister(key.fileobj)
            self.streams.discard(key.data)
            self.closed(key.data, now)
            return
        self.last_output = now
        if key.data == "stdout":
            self.on_stdout(chunk, now)
        else:
            self.on_stderr(chunk)

    def cleanup(self) -> None:
        """After an error in linewise or a callback: leave no agent process behind."""
        process = self.process
        if process is None or self.returncode is not None:
            return
        try:
            self.send(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(self.grace)
        finally:
            self.send(signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(5)

    def finish(self) -> RunResult:
        assert self.process is not None and self.returncode is not None
        pipeline = self.pipeline
        pipeline.close()
        self.end_batch()
        if self.transcript_writer is not None:
            self.transcript_writer.close()
        duration = time.monotonic() - self.started
        session = pipeline.session
        parser = self.registry.load(session.adapter_type)
        summary = problem = None
        if parser.summarize_run is not None:
            # The stdout written to disk as it came is read back, so memory stays flat.
            source = self.spool if self.spool is not None else self.log
            if source is not None:
                source.flush()
                source.seek(0)
                lines = read_lines(source, max_chars=self.max_line_chars)
                summary, problem = plugin_summary(parser, lines, strict=self.registry.strict)
        detection = session.detection
        report = RunReport(
            source=" ".join(self.shown),
            adapter_type=session.adapter_type,
            summary=summary or pipeline.stats.to_summary(),
            stats=pipeline.stats,
            diagnostics=session.diagnostics,
            summary_source="plugin" if summary is not None else "transcript",
            summary_problem=problem,
            detection=detection.reason if detection is not None else None,
        )
        code = self.returncode
        name = None
        if code < 0:
            with contextlib.suppress(ValueError):
                name = signal.Signals(-code).name
        if self.timed_out:
            exit_code = EXIT_TIMEOUT
        elif code < 0:
            exit_code = 128 - code
        else:
            exit_code = code
        return RunResult(
            exit_code=exit_code,
            returncode=code,
            signal=name,
            timed_out=self.timed_out,
            interrupted=self.interrupted,
            killed=self.killed,
            duration=duration,
            report=report,
            detection=session.detection,
            session=session,
        )


def _seconds(value: float) -> str:
    return f"{value:g}s"


_SIGNALS: Final = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def run_agent(
    command: Sequence[str | os.PathLike[str]],
    adapter_type: str = "auto",
    *,
    on_entry: Callable[[TranscriptEntry], None] | None = None,
    on_batch: Callable[[], None] | None = None,
    on_detect: Callable[[Detection], None] | None = None,
    on_line: Callable[[str, Sequence[TranscriptEntry]], None] | None = None,
    timeout: float | None = None,
    grace: float = DEFAULT_GRACE,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    save_log: str | os.PathLike[str] | None = None,
    save_transcript: str | os.PathLike[str] | None = None,
    registry: Registry | None = None,
    forward_signals: bool = False,
    max_line_chars: int = DEFAULT_MAX_LINE_CHARS,
    detect_wait: float = DETECT_WAIT,
) -> RunResult:
    """Run an agent CLI and parse its output live; returns how it ended.

    ``command`` is an argv list (no shell). The child gets ``env`` (default:
    this process's environment) unchanged, and its own process group.
    Stdout is parsed as it arrives and every entry handed to ``on_entry``;
    stderr becomes stderr entries, in arrival order. ``on_batch`` is called
    after the entries of one read of the child's output (the moment to flush
    or repaint). With ``on_line``, each whole stdout line is handed to it with
    its entries instead (a renderer drawing from the CLI's own lines); the
    entries from no whole line (stderr, host messages) still go to ``on_entry``. The values of
    secret-named variables of ``env`` are masked (``***``) in everything
    linewise produces: entries, the saved log and transcript, the summary.

    ``timeout`` (seconds; None or 0 for none) sends SIGTERM to the process
    group, then SIGKILL ``grace`` seconds later; both are reported as system
    entries. ``save_log`` receives the child's stdout bytes (secrets masked),
    ``save_transcript`` the entries as JSON lines. ``adapter_type="auto"``
    holds output back until the first stdout lines identify the format, with
    the policy of every entry point (windows of 40 lines up to 600, or 1 MiB),
    at most ``detect_wait`` seconds after stdout starts.
    ``forward_signals`` (main thread only) forwards SIGINT, SIGTERM and SIGHUP
    received by this process to the child: Ctrl-C once is passed on, twice
    terminates, three times kills.

    Raises :class:`AgentStartError` when the command cannot be started,
    :class:`~linewise.UnknownAdapterError` for an unknown adapter type, and
    :class:`OSError` when a file to save cannot be opened. If a callback
    raises, the child's process group is terminated before the error
    propagates.
    """
    if os.name != "posix":
        raise LinewiseError("live runs need a POSIX system (process groups and signals)")
    argv = [os.fspath(part) for part in command]
    if not argv:
        raise ValueError("no command to run")
    if grace < 0 or (timeout is not None and timeout < 0):
        raise ValueError("timeout and grace must not be negative")
    registry = registry or get_registry()
    if adapter_type != "auto" and adapter_type not in registry.adapter_types:
        raise UnknownAdapterError(adapter_type, registry.adapter_types)
    directory = os.fspath(cwd) if cwd is not None else None
    if directory is not None and not os.path.isdir(directory):
        raise LinewiseError(f"working directory does not exist: {directory}")
    with contextlib.ExitStack() as stack:
        # Opened for reading too: summarize_run reads the saved log back at the end.
        log = stack.enter_context(open(save_log, "w+b")) if save_log is not None else None
        transcript = (
            stack.enter_context(open(save_transcript, "wb"))
            if save_transcript is not None
            else None
        )
        run = _Run(
            argv,
            adapter_type,
            registry=registry,
            env=dict(os.environ if env is None else env),
            cwd=directory,
            timeout=timeout or None,
            grace=grace,
            on_entry=on_entry,
            on_line=on_line,
            on_batch=on_batch,
            on_detect=on_detect,
            log=log,
            transcript=transcript,
            max_line_chars=max_line_chars,
            detect_wait=detect_wait,
        )
        if adapter_type == "auto":
            # Import the plugins' detectors now, not while the agent's first output waits:
            # a slow first read would lose the order of stdout and stderr.
            from linewise._detect import register_sniffers

            register_sniffers(registry)
        previous: dict[int, Any] = {}
        if forward_signals and threading.current_thread() is threading.main_thread():
            run.wake_r, run.wake_w = os.pipe()
            os.set_blocking(run.wake_w, False)
            os.set_blocking(run.wake_r, False)
            stack.callback(os.close, run.wake_r)
            stack.callback(os.close, run.wake_w)
            for sig in _SIGNALS:
                previous[sig] = signal.signal(sig, run._handler)
        try:
            run.spawn()
            try:
                run.loop()
            except BaseException:
                run.cleanup()
                raise
            finally:
                run.selector.close()
                assert run.process is not None
                for pipe in (run.process.stdout, run.process.stderr):
                    if pipe is not None:
                        pipe.close()
            return run.finish()
        finally:
            for number, handler in previous.items():
                signal.signal(number, handler)
            if run.spool is not None:
                run.spool.close()
