"""Live runs: spawn an agent CLI, parse its output as it arrives, with safety rails, redacted."""

from __future__ import annotations

import codecs
import contextlib
import errno
import json
import logging
import os
import re
import selectors
import signal
import stat
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any, Final, Literal, TypeAlias

from linewise_contracts.entries import StderrEntry, SystemEntry, TranscriptEntry
from linewise_contracts.summary import RunSummary

from linewise._detect import SNIFF_LINES, Detection, detect_adapter, first_lines
from linewise._registry import LoadedParser, Registry, get_registry
from linewise._session import DEFAULT_MAX_LINE_CHARS, Diagnostics, TranscriptSession, utc_now
from linewise._summary import RunReport, TranscriptStats, log_lines, plugin_summary
from linewise.errors import LinewiseError, UnknownAdapterError

if TYPE_CHECKING:
    from linewise._render import JsonlRenderer

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

#: Exit code of a run stopped by its timeout (as GNU ``timeout`` reports it).
EXIT_TIMEOUT: Final = 124
#: Exit code when linewise itself failed (a file to save could not be opened, say).
EXIT_HOST_FAILURE: Final = 125
#: Exit code when the command exists but cannot be executed (as a shell reports it).
EXIT_CANNOT_EXECUTE: Final = 126
#: Exit code when the command does not exist (as a shell reports it).
EXIT_NOT_FOUND: Final = 127
#: Seconds between SIGTERM and SIGKILL by default (the reference's ``graceSec``).
DEFAULT_GRACE: Final = 15.0
#: With ``adapter_type="auto"``: longest wait, from the first stdout byte, for a sure detection.
DETECT_WAIT: Final = 5.0

#: Environment variable names whose values are secrets (the reference's ``redactEnvForLogs``).
SECRET_NAME: Final = re.compile(r"key|token|secret|password|authorization|cookie", re.IGNORECASE)
#: What a secret value is replaced by.
MASK: Final = "***"
# Shorter values are not masked in output: "1" or "true" would mangle every line.
_MIN_SECRET: Final = 6

_READ_SIZE: Final = 64 * 1024
_PEEK_LIMIT: Final = 1024 * 1024  # most stdout held back while the format is being detected
_PENDING_LIMIT: Final = 4 * 1024 * 1024  # most output of both streams held back meanwhile
_STDERR_IDLE: Final = 0.2  # a partial stderr line is shown after this long without output
_STDERR_MAX: Final = 64 * 1024  # a stderr line is shown in pieces beyond this size
_TICK: Final = 0.5  # how often the child is polled when nothing else happens
_ABANDON_AFTER: Final = 2.0  # after SIGKILL: how long pipes held by escaped processes are read

Stream: TypeAlias = Literal["stdout", "stderr", "system"]

logger = logging.getLogger("linewise")


# -- redaction -----------------------------------------------------------------


def redact_env(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` with the value of every secret-named variable replaced by :data:`MASK`."""
    return {name: MASK if SECRET_NAME.search(name) else value for name, value in env.items()}


def redact_command(command: Sequence[str], redactor: Redactor | None = None) -> list[str]:
    """``command`` fit to print: the value of a secret-named option (``--api-key X``,
    ``--token=X``) masked, and any secret value from the environment too."""
    shown: list[str] = []
    hide_next = False
    for argument in command:
        if hide_next:
            shown.append(MASK)
            hide_next = False
            continue
        name, equals, _ = argument.partition("=")
        if argument.startswith("-") and SECRET_NAME.search(name):
            if equals:
                shown.append(f"{name}={MASK}")
                continue
            hide_next = True
        shown.append(redactor.text(argument) if redactor else argument)
    return shown


def secret_variables(env: Mapping[str, str]) -> dict[str, str]:
    """The variables of ``env`` whose values are masked in output: secret-named, long enough."""
    return {
        name: value
        for name, value in env.items()
        if SECRET_NAME.search(name) and len(value.strip()) >= _MIN_SECRET
    }


def _spellings(value: str) -> set[str]:
    # The value as it may appear in output: raw, or escaped inside a JSON string.
    return {
        value,
        json.dumps(value, ensure_ascii=False)[1:-1],
        json.dumps(value, ensure_ascii=True)[1:-1],
    }


class Redactor:
    """Masks known secret values in a stream of bytes (or in text), wherever chunks are cut.

    Only an end of a chunk that could be the start of a secret is held back
    until the next chunk (or :meth:`flush`), so a secret split across two
    reads is still found and ordinary output is never delayed.
    """

    def __init__(self, secrets: Iterable[str]) -> None:
        values = sorted({s for secret in secrets for s in _spellings(secret) if s}, key=len)
        values.reverse()  # the longest first, so a secret containing another wins
        self.active = bool(values)
        self._text = re.compile("|".join(map(re.escape, values))) if values else None
        encoded = [value.encode("utf-8", errors="surrogateescape") for value in values]
        self._bytes = re.compile(b"|".join(map(re.escape, encoded))) if encoded else None
        self._prefixes = {value[:end] for value in encoded for end in range(1, len(value))}
        self._longest = max(map(len, encoded), default=0)
        self._tail = b""
        self.masked = 0

    @classmethod
    def for_environment(cls, env: Mapping[str, str]) -> Redactor:
        """A redactor for the values of ``env``'s secret-named variables (long enough to matter)."""
        return cls(secret_variables(env).values())

    def text(self, text: str) -> str:
        """``text`` with every secret value masked."""
        if self._text is None:
            return text
        return self._text.sub(MASK, text)

    def feed(self, chunk: bytes) -> bytes:
        """The bytes of the stream that are safe to pass on, secrets masked."""
        if self._bytes is None:
            return chunk
        data = self._tail + chunk
        # Matching is leftmost-first: from the first place where the rest of the
        # data could still begin a secret, nothing is final until more arrives.
        hold = self._hold_from(data, 0)
        out: list[bytes] = []
        start = 0
        for match in self._bytes.finditer(data):
            if match.start() >= hold:
                break
            out.append(data[start : match.start()])
            out.append(MASK.encode())
            self.masked += 1
            start = match.end()
            if start > hold:
                hold = self._hold_from(data, start)
        out.append(data[start:hold])
        self._tail = data[hold:]
        return b"".join(out)

    def _hold_from(self, data: bytes, start: int) -> int:
        """The first position from ``start`` where the rest of ``data`` begins a secret."""
        for position in range(max(start, len(data) - self._longest + 1), len(data)):
            if data[position:] in self._prefixes:
                return position
        return len(data)

    def flush(self) -> bytes:
        """The held-back bytes at the end of the stream, secrets masked."""
        data, self._tail = self._tail, b""
        if self._bytes is None or not data:
            return data
        masked, count = self._bytes.subn(MASK.encode(), data)
        self.masked += count
        return masked


# -- results -------------------------------------------------------------------


class AgentStartError(LinewiseError):
    """The agent CLI could not be started; ``exit_code`` is what a shell would return."""

    def __init__(self, command: str, reason: str, exit_code: int) -> None:
        self.command = command
        self.reason = reason
        self.exit_code = exit_code
        super().__init__(f"{reason}: {command}")


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


class _StderrLines:
    """Stderr decoded and cut at line ends, so an entry never splits a line (unless huge)."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._partial = ""

    @property
    def pending(self) -> bool:
        return bool(self._partial)

    def feed(self, chunk: bytes) -> str:
        text = self._partial + self._decoder.decode(chunk)
        end = text.rfind("\n") + 1
        if end == 0 and len(text) < _STDERR_MAX:
            self._partial = text
            return ""
        if end == 0:
            end = len(text)
        self._partial = text[end:]
        return text[:end]

    def flush(self, final: bool = False) -> str:
        text = self._partial + (self._decoder.decode(b"", final=True) if final else "")
        self._partial = ""
        return text


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
        self.stats = TranscriptStats()
        self.stderr = _StderrLines()
        self.transcript_writer: JsonlRenderer | None = None
        if transcript is not None:
            from linewise._render import JsonlRenderer

            self.transcript_writer = JsonlRenderer(transcript)
        # Parsing: fixed now, or decided from the first stdout lines.
        self.adapter_type = adapter_type
        self.parser: LoadedParser | None = None
        self.session: TranscriptSession | None = None
        self.detection: Detection | None = None
        self.pending: list[tuple[Stream, str, bytes | str]] = []
        self.pending_stdout = False
        self.pending_size = 0
        self.sniff_decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.sniff_text = ""
        self.sniff_lines = 0
        self.detect_by: float | None = None
        self.early_stderr = 0
        self.early_system = 0
        # Where stdout goes for the plugin's summarize_run once the run is over.
        self.spool: IO[bytes] | None = None
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

    def emit(self, entries: Iterable[TranscriptEntry]) -> None:
        for entry in entries:
            self.batch_open = True
            self.stats.add(entry)
            if self.transcript_writer is not None:
                self.transcript_writer.write(entry)
            if self.on_entry is not None:
                self.on_entry(entry)

    def dispatch(self, stream: Stream, ts: str, payload: bytes | str) -> None:
        """Route output in arrival order: to the session, or held while detecting."""
        session = self.session
        if session is None:
            if stream == "stdout" or self.pending_stdout:
                self.pending_stdout = True
                self.pending.append((stream, ts, payload))
                self.pending_size += len(payload)
                if self.pending_size >= _PENDING_LIMIT:
                    self.decide_now()
                return
            # Nothing from stdout is waiting: stderr and host messages need not wait.
            text = payload if isinstance(payload, str) else payload.decode("utf-8", "replace")
            if not text.strip():
                return
            entry: StderrEntry | SystemEntry
            if stream == "stderr":
                self.early_stderr += 1
                entry = {"kind": "stderr", "ts": ts, "text": text}
            else:
                self.early_system += 1
                entry = {"kind": "system", "ts": ts, "text": text}
            self.emit([entry])
            return
        if stream == "stdout":
            self.emit(session.feed(payload, ts))
        elif stream == "stderr":
            self.emit(session.feed_stderr(payload, ts))
        else:
            self.emit(session.feed_system(str(payload), ts))

    def end_batch(self) -> None:
        """Entries were handed out since the last call: tell the host app (to flush, say)."""
        if self.batch_open:
            self.batch_open = False
            if self.on_batch is not None:
                self.on_batch()

    def system(self, text: str) -> None:
        """A message from linewise itself, as a system entry in the transcript."""
        self.dispatch("system", utc_now(), f"linewise: {text}")

    def flush_stderr(self, final: bool = False) -> None:
        text = self.stderr.flush(final)
        if text:
            self.dispatch("stderr", utc_now(), text)

    # -- detection -------------------------------------------------------------

    def decide(self, detection: Detection | None) -> None:
        """Fix the parser; replay what was held back."""
        self.detection = detection
        if detection is not None:
            self.adapter_type = detection.adapter_type
            if self.on_detect is not None:
                self.on_detect(detection)
        self.parser = self.registry.load(self.adapter_type)
        session = TranscriptSession(
            self.parser,
            strict=self.registry.strict,
            hooks=self.registry.hooks,
            max_line_chars=self.max_line_chars,
        )
        session.diagnostics.stderr_chunks += self.early_stderr
        session.diagnostics.system_messages += self.early_system
        session.diagnostics.entries += self.early_stderr + self.early_system
        if self.parser.summarize_run is not None and not self._log_is_rereadable():
            self.spool = tempfile.TemporaryFile()  # noqa: SIM115 - closed by run_agent()
            for stream, _, payload in self.pending:
                if stream == "stdout":
                    self.spool.write(payload)  # type: ignore[arg-type]
        self.session = session
        pending, self.pending = self.pending, []
        self.pending_stdout = False
        self.pending_size = 0
        self.sniff_text = ""
        for stream, ts, payload in pending:
            self.dispatch(stream, ts, payload)

    def _log_is_rereadable(self) -> bool:
        if self.log is None:
            return False
        try:
            return stat.S_ISREG(os.fstat(self.log.fileno()).st_mode)
        except (OSError, AttributeError, ValueError):
            return False

    def sniff(self, data: bytes, now: float) -> None:
        """Try to detect the format from the stdout held back so far."""
        if self.session is not None:
            return
        if self.detect_by is None:
            self.detect_by = now + self.detect_wait
        text = self.sniff_decoder.decode(data)
        self.sniff_text += text
        if "\n" not in text and len(self.sniff_text) < _PEEK_LIMIT:
            return
        complete = self.sniff_text[: self.sniff_text.rfind("\n") + 1]
        lines = first_lines(complete)
        if len(lines) == self.sniff_lines and len(self.sniff_text) < _PEEK_LIMIT:
            return
        self.sniff_lines = len(lines)
        detection = detect_adapter(lines, registry=self.registry)
        enough = len(lines) >= SNIFF_LINES or len(self.sniff_text) >= _PEEK_LIMIT
        if detection.detected or enough:
            self.decide(detection)

    def decide_now(self) -> None:
        """Detect from whatever stdout arrived (the end of output, or waiting is over)."""
        if self.session is None:
            text = self.sniff_text + self.sniff_decoder.decode(b"", final=True)
            self.decide(detect_adapter(first_lines(text), registry=self.registry))

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
        detecting = self.session is None
        self.dispatch("stdout", utc_now(), data)
        if detecting:
            self.sniff(data, now)

    def on_stderr(self, chunk: bytes) -> None:
        text = self.stderr.feed(self.err_redactor.feed(chunk))
        if text:
            self.dispatch("stderr", utc_now(), text)

    def closed(self, stream: str, now: float) -> None:
        """One of the child's pipes ended: pass on what was held back."""
        if stream == "stdout":
            self.take_stdout(self.out_redactor.flush(), now)
            self.decide_now()
            return
        text = self.stderr.feed(self.err_redactor.flush())
        if text:
            self.dispatch("stderr", utc_now(), text)
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
                    # Give processes the agent left behind a moment to finish writing.
                    self.drain_until = now + max(self.grace, 1.0)

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
        if self.session is None and self.detect_by is not None and now >= self.detect_by:
            self.decide_now()
        stop = [d for d in (self.drain_until, self.abandon_at) if d is not None and now >= d]
        if self.streams and stop:
            self.system(
                "processes outside the agent's process group still hold its output open; "
                "stopped reading it"
                if self.killed
                else "the agent exited, but processes it left running still hold its output "
                "open; stopped reading it"
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
        if self.session is None and self.detect_by is not None:
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
        self.decide_now()
        session = self.session
        assert session is not None and self.parser is not None
        self.emit(session.close())
        self.end_batch()
        if self.transcript_writer is not None:
            self.transcript_writer.close()
        duration = time.monotonic() - self.started
        summary = problem = None
        if self.parser.summarize_run is not None:
            # The stdout written to disk as it came is read back, so memory stays flat.
            source = self.spool if self.spool is not None else self.log
            if source is not None:
                source.flush()
                source.seek(0)
                lines = log_lines(source, max_line_chars=self.max_line_chars)
                summary, problem = plugin_summary(self.parser, lines, strict=self.registry.strict)
        report = RunReport(
            source=" ".join(self.shown),
            adapter_type=self.adapter_type,
            summary=summary or self.stats.to_summary(),
            stats=self.stats,
            diagnostics=session.diagnostics,
            summary_source="plugin" if summary is not None else "transcript",
            summary_problem=problem,
            detection=self.detection.reason if self.detection is not None else None,
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
            detection=self.detection,
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
    or repaint). The values of
    secret-named variables of ``env`` are masked (``***``) in everything
    linewise produces: entries, the saved log and transcript, the summary.

    ``timeout`` (seconds; None or 0 for none) sends SIGTERM to the process
    group, then SIGKILL ``grace`` seconds later; both are reported as system
    entries. ``save_log`` receives the child's stdout bytes (secrets masked),
    ``save_transcript`` the entries as JSON lines. ``adapter_type="auto"``
    holds output back until the first stdout lines identify the format (at
    most ``detect_wait`` seconds after stdout starts, 40 lines or 1 MiB).
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
            on_batch=on_batch,
            on_detect=on_detect,
            log=log,
            transcript=transcript,
            max_line_chars=max_line_chars,
            detect_wait=detect_wait,
        )
        if adapter_type != "auto":
            run.decide(None)
        else:
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
