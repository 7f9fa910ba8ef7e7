"""``linewise render``: an agent's stdout log as a readable transcript, JSON lines or HTML."""

from __future__ import annotations

import argparse
import os
import stat
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from typing import IO, TYPE_CHECKING, Any, Final, TextIO

from linewise.cli.common import (
    EXIT_FAILURE,
    EXIT_OK,
    EXIT_USAGE,
    add_isolation_options,
    fail,
    file_ts,
    iso_timestamp,
    logger,
    read_chunks,
)
from linewise.cli.drawing import drawing_for, note_detection
from linewise.cli.entry_stream import entry_stream
from linewise.cli.hints import warn_if_unrecognised
from linewise.cli.inputs import refusing_binary, session_source
from linewise.cli.options import (
    add_color,
    add_full,
    add_max_line_chars,
    add_otlp_endpoint,
    add_output,
    add_redact,
    check_otlp,
    redactor_for,
)
from linewise.cli.render_pool import add_jobs, render_paths
from linewise.cli.story import KeptChunks, run_summary
from linewise.plugins.registry import Registry
from linewise.sessions.inputs import SessionInput
from linewise.settings import signals as _signals
from linewise.settings.defaults import EXIT_INTERRUPTED, READ_SIZE
from linewise.settings.sanitising import neutralize
from linewise.transcript.fold import RunFold, run_fold

if TYPE_CHECKING:
    from linewise_contracts.summary import RunSummary

    from linewise.cli.output_file import OutputFile
    from linewise.stream.detect import Detection
    from linewise.stream.pipeline import Pipeline
    from linewise.stream.session import TranscriptSession

__all__ = [
    "FORMATS",
    "STYLES",
    "add_arguments",
    "follow_chunks",
    "register",
    "report",
]

FORMATS: Final = ("text", "jsonl", "html", "markdown", "atif", "otlp", "agent-trace")
STYLES: Final = ("default", "compact")
#: Seconds between two looks at a followed file that has no new data.
FOLLOW_INTERVAL: Final = 0.25


def register(commands: Any) -> None:
    """Add the ``render`` subcommand."""
    render = commands.add_parser(
        "render",
        help="render an agent's stdout log as a transcript",
        description="Render an agent's stdout log as a readable transcript, JSON lines, HTML "
        "or Markdown. Entries go to stdout (or -o), warnings and the diagnostics summary to "
        "stderr.",
    )
    add_arguments(render, formats=FORMATS, default="text", redact=False)


def add_arguments(
    render: argparse.ArgumentParser, *, formats: tuple[str, ...], default: str, redact: bool
) -> None:
    """The options of ``render`` (and of ``linewise share``, with its sharing defaults)."""
    render.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="log file to read, or - for stdin (the default when a log is piped in); "
        "several logs are rendered in parallel "
        "(see --jobs) and written in the order given (text: each after a ==> PATH <== line)",
    )
    render.add_argument(
        "-a",
        "--adapter",
        default="auto",
        metavar="TYPE",
        help="adapter type of the CLI that wrote the log (see `linewise list`); "
        "auto (the default) detects it from the first lines; process = generic",
    )
    render.add_argument(
        "-f",
        "--format",
        choices=formats,
        default=default,
        help="text (readable, the default), jsonl (the entries exactly), html "
        "(one self-contained page, usually with -o run.html) or markdown (GitHub-flavoured, "
        "to paste into an issue or a gist) or atif (one Agent Trajectory Interchange Format "
        "v1.7 trajectory, subagents embedded) or otlp (OpenTelemetry GenAI spans as OTLP "
        "JSON; needs linewise[otel]) or agent-trace (an Agent Trace record of the files and "
        "lines the agent wrote)",
    )
    render.add_argument(
        "-s",
        "--style",
        choices=STYLES,
        default="default",
        help="text style: default (tool calls grouped with their results, thinking folded) "
        "or compact (one line per event)",
    )
    add_output(render)
    render.add_argument(
        "--censor-usernames",
        action="store_true",
        help="mask user names in home-directory paths (/Users/dotta -> /Users/d****), "
        "for transcripts you share",
    )
    render.add_argument(
        "--thinking",
        action="store_true",
        help="show the agent's thinking (dimmed) instead of a one-line marker; "
        "the compact style never shows it",
    )
    render.add_argument(
        "--follow",
        action="store_true",
        help="keep reading the file as it grows, like tail -f, or a stored session as its "
        "CLI writes it; Ctrl-C stops (stdin and pipes are read to their end anyway)",
    )
    add_color(render)
    add_full(render)
    render.add_argument(
        "--ts",
        type=iso_timestamp,
        metavar="TIMESTAMP",
        help="ISO 8601 timestamp for every entry, such as 2026-01-31T09:30:00Z "
        "(default: the file's modification time; now for stdin and --follow)",
    )
    add_max_line_chars(render)
    add_redact(render, default=redact)
    add_otlp_endpoint(render)
    render.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no diagnostics summary and no progress bar on stderr",
    )
    add_jobs(render)
    add_isolation_options(render)
    render.set_defaults(handler=render_paths, render_one=run)


# -- reading -------------------------------------------------------------------


def follow_chunks(
    source: IO[bytes],
    *,
    interval: float = FOLLOW_INTERVAL,
    sleep: Any = time.sleep,
    on_idle: Callable[[], None] | None = None,
    path: str | None = None,
) -> Iterator[bytes]:
    """A growing file's bytes as they are written, for ever (like ``tail -f``).

    At the end of the file it waits ``interval`` seconds and looks again. A
    file that was rewritten (shorter than what was read, or its first bytes
    changed) or, with ``path``, replaced by another file at that path is read
    again from its start, with a warning; a line the old file left unfinished
    is ended first, so nothing read is lost. Stop it by closing the generator
    or with Ctrl-C. A pipe is read to its end. ``on_idle`` is called each time
    the end of what was written is reached.
    """
    read = source.read1 if hasattr(source, "read1") else source.read
    regular = _regular_size(source) is not None
    watch = _Watch(source, path)
    ended_line = True
    while True:
        chunk = read(READ_SIZE)
        if chunk:
            watch.saw(chunk)
            ended_line = chunk.endswith(b"\n")
            yield chunk
            continue
        if not regular:
            return  # the end of a pipe is final: nothing more can be written to it
        if on_idle is not None:
            on_idle()
        sleep(interval)
        # Looked at before reading on: a file rewritten longer while we slept would
        # otherwise be read on from the old position, its first lines never shown.
        change = watch.changed()
        if change is not None:
            logger.warning("the followed file %s; reading it from the start", change)
            if not ended_line:
                yield b"\n"  # the old file's unfinished line, shown as it was
                ended_line = True
            source = watch.start_over()
            read = source.read1 if hasattr(source, "read1") else source.read


#: How many of a followed file's first bytes are compared to tell a rewrite.
_WATCHED_BYTES: Final = 4096


class _Watch:
    """What a followed file was: its inode, what was read of it, and its first bytes."""

    def __init__(self, source: IO[bytes], path: str | None) -> None:
        self.source = source
        self.path = path
        self.head = b""
        self.read = 0
        self.identity = self._identity(source)

    @staticmethod
    def _identity(source: IO[bytes]) -> tuple[int, int] | None:
        try:
            status = os.fstat(source.fileno())
        except (AttributeError, OSError, ValueError):
            return None
        return status.st_dev, status.st_ino

    def saw(self, chunk: bytes) -> None:
        self.read += len(chunk)
        if len(self.head) < _WATCHED_BYTES:
            self.head += chunk[: _WATCHED_BYTES - len(self.head)]

    def changed(self) -> str | None:
        """Why the file is not the one being read any more, or None."""
        if self.path is not None:
            try:
                status = os.stat(self.path)
            except OSError:
                status = None  # removed: keep reading what is open, as tail -f does
            if status is not None and (status.st_dev, status.st_ino) != self.identity:
                return "was replaced"
        try:
            size = os.fstat(self.source.fileno()).st_size
            if size < self.read:
                return "was truncated"
            if self.head and os.pread(self.source.fileno(), len(self.head), 0) != self.head:
                return "was rewritten"
        except (AttributeError, OSError, ValueError):
            return None
        return None

    def start_over(self) -> IO[bytes]:
        """The file to read now, at its start: the one at the path if it was replaced."""
        if self.path is not None:
            try:
                fresh = open(self.path, "rb")  # noqa: SIM115 - replaces the source it closes
            except OSError:
                fresh = None
            if fresh is not None and self._identity(fresh) != self.identity:
                self.source.close()
                self.source = fresh
            elif fresh is not None:
                fresh.close()
        self.source.seek(0)
        self.identity = self._identity(self.source)
        self.head = b""
        self.read = 0
        return self.source


def _open_source(args: argparse.Namespace) -> tuple[IO[bytes], str | None]:
    if args.path == "-":
        return sys.stdin.buffer, args.ts
    try:
        source = open(args.path, "rb")  # noqa: SIM115 - the caller closes it
        if args.follow:
            return source, args.ts  # entries are stamped when they are read
        return source, args.ts or file_ts(args.path)
    except OSError as error:
        fail(f"cannot read {args.path}: {error.strerror or error}", EXIT_FAILURE)


def _regular_size(source: IO[bytes]) -> int | None:
    """The size of a regular file; None for a pipe, a terminal or a socket."""
    try:
        status = os.fstat(source.fileno())
    except (AttributeError, OSError, ValueError):
        return None
    return status.st_size if stat.S_ISREG(status.st_mode) else None


# -- writing -------------------------------------------------------------------


def _open_output(args: argparse.Namespace, stack: ExitStack) -> tuple[TextIO, OutputFile | None]:
    """Where the transcript goes: stdout, or ``-o FILE`` (put in place by its commit)."""
    if args.output is None or args.output == "-":
        # What plugins print goes to stderr: stdout carries the transcript alone.
        return stack.enter_context(entry_stream()), None
    if os.path.exists(args.output) and _same_file(args.path, args.output):
        fail(f"the output {args.output} is the input log itself", EXIT_USAGE)
    from linewise.cli.output_file import OutputError, opened

    try:
        file = opened(args.output, stack)
    except OutputError as error:
        fail(str(error), EXIT_FAILURE)
    return file.stream, file


def _same_file(path: str, output: str) -> bool:
    """True when writing ``output`` would truncate the input (a path, or stdin redirected)."""
    try:
        if path != "-":
            return os.path.samefile(path, output)
        given, target = os.fstat(sys.stdin.fileno()), os.stat(output)
    except (OSError, ValueError, AttributeError):
        return False
    return stat.S_ISREG(given.st_mode) and (given.st_dev, given.st_ino) == (
        target.st_dev,
        target.st_ino,
    )


def _check_options(args: argparse.Namespace, registry: Registry) -> None:
    if args.adapter != "auto" and args.adapter not in registry.adapter_types:
        from linewise.plugins.suggest import unknown_adapter  # a mistyped name only

        fail(str(unknown_adapter(args.adapter, registry.adapter_types)), EXIT_USAGE)
    if args.style != "default" and args.format != "text":
        fail(f"--style {args.style} applies to --format text only", EXIT_USAGE)
    check_otlp(args)
    if args.format == "html":
        try:
            import linewise.render.html  # noqa: F401 - only checking that it is there
        except ModuleNotFoundError as error:
            if error.name != "linewise.render.html":
                raise
            fail(
                "--format html is not available: linewise.render.html is not installed",
                EXIT_USAGE,
            )


def run(args: argparse.Namespace, registry: Registry) -> int:
    """Render one log."""
    from linewise.stream.pipeline import Pipeline

    _check_options(args, registry)
    with ExitStack() as stack:
        stored = session_source(args, registry)
        if stored is not None:
            # A followed session's entries take their records' times, else the time read.
            source = stored.stream
            args.file_ts = args.ts if args.follow else args.ts or file_ts(str(stored.path))
        else:
            source, args.file_ts = _open_source(args)
        # A stored session's entries are masked as its lines are (secret-named variables).
        args.redactor = redactor_for(args, environment=stored is not None)
        if source is not sys.stdin.buffer:
            stack.callback(source.close)
        # Only a regular file can grow; stdin and pipes are read to their end anyway.
        if stored is not None:
            follow = bool(args.follow) and stored.listing is not None
        else:
            follow = args.follow and args.path != "-" and _regular_size(source) is not None
        output, output_file = _open_output(args, stack)
        title = os.path.basename(args.path) if args.path != "-" else "stdin"
        drawing = drawing_for(args, output, title=title, adapter_type=args.adapter)

        def detected(detection: Detection) -> None:
            note_detection(detection, quiet=args.quiet)
            drawing.detected(detection.adapter_type)

        # A renderer known from the start that draws entries (jsonl, text, html) gets them
        # straight from the pipeline: one call less per entry.
        direct = drawing.renderer
        if direct is not None and getattr(direct, "wants_lines", False):
            direct = None
        pipeline = Pipeline(
            args.adapter,
            registry=registry,
            on_entry=drawing.write if direct is None else direct.write,
            on_line=drawing.write_line if direct is None else None,
            on_detect=detected,
            max_line_chars=args.max_line_chars,
            fold=RunFold(),
        )
        kept: KeptChunks | None
        if stored is not None and follow:
            chunks, kept = _followed_session(stored, pipeline, output)
        elif stored is None and not follow and (whole := _whole_document(source, args, registry)):
            kept = KeptChunks([whole])  # what the run summary reads again, too
            chunks = iter(kept)
        else:
            chunks, kept = _chunks(source, args.path, pipeline, output, follow=follow)
        # A bar for a file of known size only: stdin, pipes and followed files have none.
        size = None if follow or args.path == "-" else _regular_size(source)
        interrupted = _pump(
            pipeline,
            chunks,
            output,
            args.file_ts,
            size=None if args.quiet else size,
            live=follow or size is None,
            path=args.path,
        )
        _end_of_input(pipeline, interrupted=interrupted, follow=follow)
        pipeline.close(args.file_ts)
        read_again = source if kept is None else kept
        draws = getattr(drawing.renderer, "draws_summary", True) is not False
        drawing.close(
            None if interrupted else _summary(args, registry, pipeline, read_again, draws=draws)
        )
        if not interrupted:
            # A stop signal swallowed on the way (inside a plugin's summary) still stops the
            # render, before a transcript that may lack its end replaces the earlier one.
            _signals.raise_swallowed()
        if output_file is not None and not (interrupted and not follow):
            output_file.commit()
    return _finish(args, pipeline, interrupted=interrupted and not follow, written=output_file)


def _end_of_input(pipeline: Pipeline, *, interrupted: bool, follow: bool) -> None:
    """Parsing stopped by Ctrl-C, or a followed log's unfinished last line said and dropped."""
    if interrupted:
        _stop_parsing(pipeline)
    if follow and (unfinished := pipeline.discard_partial()).strip():
        logger.warning(
            "stopped following; an unfinished last line (%d bytes) is not shown",
            len(unfinished.encode("utf-8", "surrogatepass")),
        )


def _finish(
    args: argparse.Namespace, pipeline: Pipeline, *, interrupted: bool, written: object
) -> int:
    """The render's last words on stderr, and its exit status."""
    if args.redactor is not None:
        pipeline.session.diagnostics.count_redactions(args.redactor.counts)
    _warn_fallback(pipeline.session)
    if not args.quiet:
        report(pipeline.session)
    if interrupted:
        if written is not None:
            logger.warning("interrupted: %s not written (an earlier one is unchanged)", args.output)
        else:
            sys.stderr.write("linewise: interrupted\n")
        return EXIT_INTERRUPTED
    return EXIT_OK


def _stop_parsing(pipeline: Pipeline) -> None:
    """Ctrl-C came inside the parser: the lines it had not parsed are not parsed again."""
    _, skipped = pipeline.session.stop_parsing()
    if skipped:
        logger.warning(
            "interrupted while the parser read a line: it and the %d line(s) after it "
            "that were read are not shown",
            skipped - 1,
        )


def _chunks(
    source: IO[bytes], path: str, pipeline: Pipeline, output: TextIO, *, follow: bool
) -> tuple[Iterator[bytes], KeptChunks | None]:
    """The log's bytes as render reads them, and what is kept of them to read again.

    A followed file is read as it grows; binary input is refused. The run
    summary reads the log again: a regular file from disk, a pipe from memory.
    """
    chunks: Iterable[bytes] = read_chunks(source)
    kept = None if _regular_size(source) is not None else KeptChunks(chunks)
    if kept is not None:
        chunks = kept
    if follow:
        # Caught up with the writer: detect from the lines there are, if any, and show them.
        def caught_up() -> None:
            if pipeline.session.sniffed_lines:
                pipeline.decide()
                output.flush()

        chunks = follow_chunks(source, on_idle=caught_up, path=path)
    return refusing_binary(chunks, "stdin" if path == "-" else path), kept


def _whole_document(source: IO[bytes], args: argparse.Namespace, registry: Registry) -> bytes:
    """A log file that is one pretty-printed JSON document, on one line, when a parser reads it
    (b"" otherwise: the file is read line by line); see :mod:`linewise.cli.json_document`."""
    from linewise.cli.json_document import one_line_document
    from linewise.plugins.generic import GENERIC_ADAPTER_TYPE

    if args.adapter == GENERIC_ADAPTER_TYPE:
        return b""
    document = one_line_document(source, most_chars=args.max_line_chars)
    if document is None:
        return b""
    if args.adapter == "auto":
        from linewise.stream.detect import detect_adapter

        if not detect_adapter([document.line.decode()], registry=registry).detected:
            return b""  # no parser claims it whole: its lines, as they were written
    if not args.quiet:
        sys.stderr.write(
            f"linewise: {neutralize(args.path)}: one JSON document over "
            f"{document.lines} lines, read whole\n"
        )
    return document.line


def _caught_up(pipeline: Pipeline, output: TextIO) -> Callable[[], None]:
    """Called when a followed input has no more for now: detect from what there is, show it."""

    def caught_up() -> None:
        if pipeline.session.sniffed_lines:
            pipeline.decide()
        output.flush()

    return caught_up


def _followed_session(
    stored: SessionInput, pipeline: Pipeline, output: TextIO
) -> tuple[Iterator[bytes], KeptChunks]:
    """A stored session's record lines now and as its CLI writes more, kept for the summary."""
    from linewise.sessions.follow import follow_records

    assert stored.listing is not None  # the caller checked
    kept = KeptChunks(
        follow_records(stored.listing, stored.path, on_idle=_caught_up(pipeline, output))
    )
    return iter(kept), kept


def _summary(
    args: argparse.Namespace,
    registry: Registry,
    pipeline: Pipeline,
    read: IO[bytes] | KeptChunks,
    *,
    draws: bool,
) -> RunSummary | None:
    """The run summary of the log read to its end, and a hint when the adapter read little.

    ``read``: the log file, read again from disk, or what was kept of a pipe.
    Reading the whole log again for a summary the renderer does not draw
    (``draws`` False: jsonl) would only cost time.
    """
    log = read.data if isinstance(read, KeptChunks) else read
    summary = None
    if draws:
        summary = run_summary(
            registry,
            pipeline.session.adapter_type,
            log,
            run_fold(pipeline),
            max_line_chars=args.max_line_chars,
        )
    if args.adapter != "auto":
        warn_if_unrecognised(
            args.adapter,
            pipeline.session.diagnostics,
            run_fold(pipeline),
            log,
            registry,
            max_line_chars=args.max_line_chars,
        )
    return summary


def _warn_fallback(session: TranscriptSession) -> None:
    """A plugin that could not be loaded: say the generic parser stood in."""
    reason = session.diagnostics.fallback_reason
    if reason and session.adapter_type not in ("process", "auto"):
        logger.warning("rendering %s with the generic parser: %s", session.adapter_type, reason)


def _pump(
    pipeline: Pipeline,
    chunks: Iterator[bytes],
    output: TextIO,
    ts: str | None,
    *,
    size: int | None,
    live: bool,
    path: str,
) -> bool:
    """Feed every chunk through the pipeline; True when Ctrl-C stopped it."""
    from linewise.render.progress import ProgressBar

    bar = ProgressBar(sys.stderr, size) if size and ProgressBar.wanted(sys.stderr) else None
    # On a terminal the transcript also goes to, the bar is erased before each
    # piece of output and drawn again below it, so it never lands between lines.
    shared = bar if bar is not None and ProgressBar.wanted(output) else None
    done = 0
    upcoming = iter(chunks)
    try:
        while True:
            try:
                chunk = next(upcoming)
            except StopIteration:
                break
            except OSError as error:
                if isinstance(error, BrokenPipeError):
                    raise
                fail(f"cannot read {path}: {error.strerror or error}", EXIT_FAILURE)
            if shared is not None:
                shared.hide()
            pipeline.receive("stdout", chunk, ts)
            done += len(chunk)
            if live:
                output.flush()  # someone is watching: show each piece as it arrives
            elif bar is not None:
                if shared is not None:
                    output.flush()
                bar.update(done)
    except KeyboardInterrupt:
        return True
    finally:
        if bar is not None:
            bar.close()
    return False


def report(session: TranscriptSession) -> None:
    """The diagnostics summary of a session, on stderr."""
    diagnostics = session.diagnostics
    err = sys.stderr
    err.write(f"linewise: {neutralize(diagnostics.summary())}\n")
    if diagnostics.fallback_reason:
        err.write(f"linewise: generic parser used: {neutralize(diagnostics.fallback_reason)}\n")
    for error in diagnostics.first_errors:
        err.write(
            f"linewise: line {error.line_number}: parser raised {error.error_type}: "
            f"{neutralize(error.message)}\n"
        )
    for reason, count in sorted(diagnostics.drop_reasons.items(), key=lambda item: -item[1]):
        err.write(f"linewise: dropped {count} entries: {neutralize(reason)}\n")
