"""Live runs: run_agent wires an agent's child process through redaction into the pipeline."""

from __future__ import annotations

import contextlib
import io
import os
import signal
import stat
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Final

from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.summary import RunSummary

from linewise.plugins.registry import Registry, get_registry
from linewise.render.redaction.entries import EntryRedactor, LineMasker
from linewise.render.redaction.redactor import (
    MASK,
    SECRET_NAME,
    Redactor,
    redact_command,
    redact_env,
    secret_variables,
)
from linewise.run.child import exit_code
from linewise.run.process import Child, SignalInbox, forwarding_signals, spawn
from linewise.run.written import NamedRaw, open_named
from linewise.settings import defaults as _defaults
from linewise.settings.clock import utc_now
from linewise.settings.errors import AgentStartError, LinewiseError
from linewise.settings.logs import logger
from linewise.stream.detect import Detection
from linewise.stream.lines import LineReader, read_lines
from linewise.stream.pipeline import Pipeline
from linewise.stream.session import DEFAULT_MAX_LINE_CHARS, Diagnostics, TranscriptSession
from linewise.transcript.fold import RunFold
from linewise.transcript.run_report import RunReport, folded_report
from linewise.transcript.summary import plugin_summary

if TYPE_CHECKING:
    from linewise.render import JsonlRenderer

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

_STDERR_IDLE: Final = 0.2  # a partial stderr line is shown after this long without output
_STDERR_MAX: Final = 64 * 1024  # a stderr line is shown in pieces beyond this size


_Path = str | os.PathLike[str]


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


# -- the wiring: child → redaction → log → pipeline ------------------------------------


def _spool() -> IO[bytes]:
    """A nameless temporary file for the agent's output; its write errors say what it is."""
    with tempfile.TemporaryFile() as anonymous:
        descriptor = os.dup(anonymous.fileno())
    where = f"a temporary copy of the agent's output in {tempfile.gettempdir()}"
    return io.BufferedRandom(NamedRaw(descriptor, where, "w+b"))


@dataclass(frozen=True, slots=True)
class _Files:
    """The files of a run: the saved log and transcript, if asked for, and the spool."""

    log: IO[bytes] | None
    transcript: IO[bytes] | None
    #: Where stdout goes for the plugin's summarize_run when the log is not a file to reread.
    spool: IO[bytes] | None

    @staticmethod
    @contextlib.contextmanager
    def opened(save_log: _Path | None, save_transcript: _Path | None) -> Iterator[_Files]:
        """The files of a run, open while it lasts."""
        with contextlib.ExitStack() as stack:
            # Opened for reading too: summarize_run reads the saved log back at the end.
            # Their write errors name them (a full disk is not the agent's fault).
            log = stack.enter_context(open_named(save_log, "w+b")) if save_log is not None else None
            transcript = (
                stack.enter_context(open_named(save_transcript, "wb"))
                if save_transcript is not None
                else None
            )
            spool = None if _rereadable(log) else stack.enter_context(_spool())
            yield _Files(log, transcript, spool)


class _Output:
    """A child's output on its way in: secrets masked, stdout saved, everything parsed.

    The :class:`~linewise.run.process.ChildOutput` of one run.
    """

    def __init__(
        self,
        adapter_type: str,
        *,
        registry: Registry,
        on_detect: Callable[[Detection], None] | None,
        max_line_chars: int,
        env: Mapping[str, str],
        on_entry: Callable[[TranscriptEntry], None] | None,
        on_line: Callable[[str, Sequence[TranscriptEntry]], None] | None,
        on_batch: Callable[[], None] | None,
        detect_wait: float,
        files: _Files,
        redactor: EntryRedactor,
    ) -> None:
        self.log = files.log
        # With content redaction, the saved log is masked line by line too.
        self.log_masker = (
            LineMasker(EntryRedactor(patterns=True, allow=redactor.allow), max_line_chars * 4)
            if redactor.patterns and files.log is not None
            else None
        )
        # Where stdout goes for the plugin's summarize_run once the run is over.
        self.spool = files.spool
        self.on_entry, self.on_line, self.on_batch = on_entry, on_line, on_batch
        self.batch_open = False
        self.detect_wait = detect_wait
        self.detect_by: float | None = None
        self.last_output = 0.0
        self.out_redactor = Redactor.for_environment(env)
        self.err_redactor = Redactor.for_environment(env)
        # Entries are masked again once parsed: streamed fragments merged, escapes decoded.
        self.entry_redactor = redactor if redactor.active else None
        self.stderr_lines = LineReader(_STDERR_MAX)
        self.transcript_writer: JsonlRenderer | None = None
        if files.transcript is not None:
            from linewise.render import JsonlRenderer

            self.transcript_writer = JsonlRenderer(files.transcript)
        # bytes → lines → sniffer (output waits while detecting) → session → these callbacks.
        self.pipeline = Pipeline(
            adapter_type,
            registry=registry,
            on_entry=self.entry,
            on_line=self.line if on_line is not None else None,
            on_detect=on_detect,
            eager=True,
            max_line_chars=max_line_chars,
            fold=RunFold(),
        )
        if adapter_type == "auto":
            # Import the plugins' detectors now, not while the agent's first output waits:
            # a slow first read would lose the order of stdout and stderr.
            from linewise.stream.detect import register_sniffers

            register_sniffers(registry)

    # -- entries out -----------------------------------------------------------

    def entry(self, entry: TranscriptEntry) -> None:
        """One entry out of the pipeline: masked, saved, then handed to the host app."""
        if self.entry_redactor is None:
            self.pass_on(entry)
        else:
            for masked in self.entry_redactor.entry(entry):
                self.pass_on(masked)

    def pass_on(self, entry: TranscriptEntry) -> None:
        """One masked entry: saved, then handed to the host app."""
        self.batch_open = True
        if self.transcript_writer is not None:
            self.transcript_writer.write(entry)
        if self.on_entry is not None:
            self.on_entry(entry)

    def line(self, line: str, entries: Sequence[TranscriptEntry]) -> None:
        """One stdout line and its entries, for a host app that draws from lines."""
        self.batch_open = True
        redactor = self.entry_redactor
        if redactor is not None:
            entries = [masked for entry in entries for masked in redactor.entry(entry)]
            entries += redactor.flush()  # a line's fragments go with their line
            line = redactor.text(line)
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

    # -- output in (the ChildOutput side) --------------------------------------

    def stdout(self, chunk: bytes, now: float) -> None:
        self.last_output = now
        self.take_stdout(self.out_redactor.feed(chunk), now)

    def take_stdout(self, data: bytes, now: float) -> None:
        if not data:
            return
        if self.log is not None:
            self.log.write(data if self.log_masker is None else self.log_masker.feed(data))
        if self.spool is not None:
            self.spool.write(data)
        if self.stderr_lines.pending:
            self.flush_stderr()  # it came first
        if self.detect_by is None and self.pipeline.detecting:
            self.detect_by = now + self.detect_wait
        self.pipeline.receive("stdout", data, utc_now())

    def stderr(self, chunk: bytes, now: float) -> None:
        self.last_output = now
        self.take_stderr(self.err_redactor.feed(chunk))

    def take_stderr(self, data: bytes) -> None:
        text = self.stderr_lines.feed_block(data)
        if text:
            self.pipeline.receive("stderr", text, utc_now())

    def flush_stderr(self, final: bool = False) -> None:
        text = self.stderr_lines.flush_block(final)
        if text:
            self.pipeline.receive("stderr", text, utc_now())

    def closed(self, stream: str, now: float) -> None:
        """One of the child's pipes ended: pass on what was held back."""
        if stream == "stdout":
            self.take_stdout(self.out_redactor.flush(), now)
            if self.log is not None and self.log_masker is not None:
                self.log.write(self.log_masker.flush())
        else:
            self.take_stderr(self.err_redactor.flush())
            self.flush_stderr(final=True)

    def say(self, text: str) -> None:
        """A message from linewise itself, as a system entry in the transcript."""
        self.pipeline.receive("system", f"linewise: {text}", utc_now())

    def wake_at(self) -> float | None:
        deadlines = []
        if self.detect_by is not None and self.pipeline.detecting:
            deadlines.append(self.detect_by)
        if self.stderr_lines.pending:
            deadlines.append(self.last_output + _STDERR_IDLE)
        return min(deadlines, default=None)

    def tick(self, now: float) -> None:
        if self.detect_by is not None and now >= self.detect_by:
            self.detect_by = None
            if self.pipeline.detecting:
                self.pipeline.decide()  # settle it on the stdout lines that came
        if self.stderr_lines.pending and now - self.last_output >= _STDERR_IDLE:
            self.flush_stderr()
        self.end_batch()

    # -- the end ---------------------------------------------------------------

    def close(self) -> None:
        """The stream is over: what the parser held, then the transcript file."""
        self.pipeline.close()
        raw = self.out_redactor.masked + self.err_redactor.masked
        if raw:  # masked in the bytes, before parsing
            self.pipeline.session.diagnostics.count_redactions({"environment": raw})
        if self.entry_redactor is not None:
            for masked in self.entry_redactor.flush():
                self.pass_on(masked)
            self.pipeline.session.diagnostics.count_redactions(self.entry_redactor.counts)
        self.end_batch()
        if self.transcript_writer is not None:
            self.transcript_writer.close()

    def saved_stdout(self) -> IO[bytes] | None:
        """The run's stdout as written to disk, rewound (for the plugin's summarize_run)."""
        source = self.spool if self.spool is not None else self.log
        if source is not None:
            source.flush()
            source.seek(0)
        return source


def _rereadable(log: IO[bytes] | None) -> bool:
    if log is None:
        return False
    try:
        return stat.S_ISREG(os.fstat(log.fileno()).st_mode)
    except (OSError, AttributeError, ValueError):
        return False


def _result(
    child: Child, output: _Output, registry: Registry, shown: list[str], max_line_chars: int
) -> RunResult:
    """How the run ended, with its report (the plugin's summary when it has one)."""
    machine = child.machine
    assert machine.returncode is not None
    output.close()
    duration = time.monotonic() - child.started
    pipeline = output.pipeline
    session = pipeline.session
    parser = registry.load(session.adapter_type)
    summary = problem = None
    source = output.saved_stdout() if parser.summarize_run is not None else None
    if parser.summarize_run is not None and source is not None:
        # The stdout written to disk as it came is read back, so memory stays flat.
        lines = read_lines(source, max_chars=max_line_chars)
        summary, problem = plugin_summary(parser, lines, strict=registry.strict)
    report = folded_report(pipeline, summary, problem, source=" ".join(shown))
    detection = session.detection
    code = machine.returncode
    name = None
    if code < 0:
        with contextlib.suppress(ValueError):
            name = signal.Signals(-code).name
    return RunResult(
        exit_code=exit_code(code, timed_out=machine.timed_out),
        returncode=code,
        signal=name,
        timed_out=machine.timed_out,
        interrupted=machine.interrupted,
        killed=machine.killed,
        duration=duration,
        report=report,
        detection=detection,
        session=session,
    )


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
    redact: bool = False,
    redact_allow: Sequence[str] = (),
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
    linewise produces: entries, the saved log and transcript, the summary;
    in entries, after parsing too (a secret split across two streamed
    fragments, or with escaped characters, is still masked). With ``redact``,
    secrets found by their content are masked in the entries as well
    (``[redacted: KIND]``), except the values in ``redact_allow``; the
    counts are in the diagnostics (``redactions``).

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
    launch = _launch(command, env, cwd, timeout, grace)
    registry = _registry_for(adapter_type, registry)
    with contextlib.ExitStack() as stack:
        output = _Output(
            adapter_type,
            registry=registry,
            on_detect=on_detect,
            max_line_chars=max_line_chars,
            env=launch.env,
            on_entry=on_entry,
            on_line=on_line,
            on_batch=on_batch,
            detect_wait=detect_wait,
            files=stack.enter_context(_Files.opened(save_log, save_transcript)),
            redactor=EntryRedactor.for_environment(launch.env, patterns=redact, allow=redact_allow),
        )
        inbox = stack.enter_context(forwarding_signals(forward_signals))
        child = _started(launch, output, timeout, grace, inbox)
        child.run()
        return _result(child, output, registry, launch.shown, max_line_chars)


@dataclass(frozen=True, slots=True)
class _Launch:
    """What a run starts: the argv, as run and as shown (secrets masked), where and with what."""

    argv: list[str]
    shown: list[str]
    env: dict[str, str]
    cwd: str | None


def _started(
    launch: _Launch,
    output: _Output,
    timeout: float | None,
    grace: float,
    inbox: SignalInbox | None,
) -> Child:
    """The agent's process, started in its own group, with its output going to ``output``."""
    process = spawn(launch.argv, env=launch.env, cwd=launch.cwd, shown=launch.shown[0])
    child = Child(process, output, timeout=timeout or None, grace=grace, inbox=inbox)
    logger.info(
        "running %s (pid %d); values of %s masked in output",
        " ".join(launch.shown),
        process.pid,
        ", ".join(sorted(secret_variables(launch.env))) or "no variables",
    )
    return child


def _registry_for(adapter_type: str, registry: Registry | None) -> Registry:
    """The registry of a run (the process's own by default); it must know ``adapter_type``."""
    registry = registry or get_registry()
    if adapter_type != "auto" and adapter_type not in registry.adapter_types:
        from linewise.plugins.suggest import unknown_adapter  # a mistyped name only

        raise unknown_adapter(adapter_type, registry.adapter_types)
    return registry


def _launch(
    command: Sequence[_Path],
    env: Mapping[str, str] | None,
    cwd: _Path | None,
    timeout: float | None,
    grace: float,
) -> _Launch:
    """What a run starts (``env`` defaults to this process's), or the error for a bad argument."""
    if os.name != "posix":
        raise LinewiseError("live runs need a POSIX system (process groups and signals)")
    argv = [os.fspath(part) for part in command]
    if not argv:
        raise ValueError("no command to run")
    if grace < 0 or (timeout is not None and timeout < 0):
        raise ValueError("timeout and grace must not be negative")
    directory = os.fspath(cwd) if cwd is not None else None
    if directory is not None and not os.path.isdir(directory):
        raise LinewiseError(f"working directory does not exist: {directory}")
    environment = dict(os.environ if env is None else env)
    shown = redact_command(argv, Redactor.for_environment(environment))
    return _Launch(argv, shown, environment, directory)
