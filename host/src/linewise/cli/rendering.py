"""``linewise render``: an agent's stdout log as a readable transcript, JSON lines or HTML."""

from __future__ import annotations

import argparse
import os
import stat
import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from itertools import chain
from typing import IO, TYPE_CHECKING, Any, Final, TextIO

from linewise._registry import Registry
from linewise._sanitize import neutralize
from linewise.cli.common import (
    EXIT_FAILURE,
    EXIT_OK,
    EXIT_USAGE,
    READ_SIZE,
    fail,
    file_ts,
    logger,
    positive_int,
    read_chunks,
)
from linewise.errors import UnknownAdapterError

if TYPE_CHECKING:
    from linewise._render import Renderer, RenderPipeline
    from linewise._session import TranscriptSession

__all__ = [
    "FORMATS",
    "STYLES",
    "WholeLines",
    "build_renderer",
    "detect_from_stream",
    "follow_chunks",
    "register",
    "report",
]

FORMATS: Final = ("text", "jsonl", "html")
STYLES: Final = ("default", "compact")
#: Seconds between two looks at a followed file that has no new data.
FOLLOW_INTERVAL: Final = 0.25
EXIT_INTERRUPTED: Final = 130  # the shell's code for a run stopped by Ctrl-C

_PEEK_LIMIT = 1024 * 1024  # at most this much is read before detecting the format
_DEFAULT_MAX_LINE_CHARS = 8 * 1024 * 1024  # linewise._session.DEFAULT_MAX_LINE_CHARS


def register(commands: Any) -> None:
    """Add the ``render`` subcommand."""
    render = commands.add_parser(
        "render",
        help="render an agent's stdout log as a transcript",
        description="Render an agent's stdout log as a readable transcript, JSON lines or HTML. "
        "Entries go to stdout (or -o), warnings and the diagnostics summary to stderr.",
    )
    render.add_argument("path", metavar="PATH", help="log file to read, or - for stdin")
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
        choices=FORMATS,
        default="text",
        help="text (readable, the default), jsonl (the entries exactly) or html "
        "(one self-contained page, usually with -o run.html)",
    )
    render.add_argument(
        "-s",
        "--style",
        choices=STYLES,
        default="default",
        help="text style: default (tool calls grouped with their results, thinking folded) "
        "or compact (one line per event)",
    )
    render.add_argument(
        "-o", "--output", metavar="PATH", help="write the transcript to PATH instead of stdout"
    )
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
        help="keep reading the file as it grows, like tail -f; Ctrl-C stops "
        "(stdin and pipes are read to their end anyway)",
    )
    render.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    render.add_argument(
        "--full", action="store_true", help="do not shorten tool inputs and results"
    )
    render.add_argument(
        "--ts",
        metavar="TIMESTAMP",
        help="timestamp for every entry (default: the file's modification time; "
        "now for stdin and --follow)",
    )
    render.add_argument(
        "--max-line-chars",
        type=positive_int,
        default=_DEFAULT_MAX_LINE_CHARS,
        metavar="N",
        help=f"cut lines longer than N characters (default {_DEFAULT_MAX_LINE_CHARS})",
    )
    render.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no diagnostics summary and no progress bar on stderr",
    )
    render.set_defaults(handler=run)


# -- reading -------------------------------------------------------------------


def follow_chunks(
    source: IO[bytes], *, interval: float = FOLLOW_INTERVAL, sleep: Any = time.sleep
) -> Iterator[bytes]:
    """A growing file's bytes as they are written, for ever (like ``tail -f``).

    At the end of the file it waits ``interval`` seconds and looks again. A
    file that shrank was truncated or rewritten: it is read again from the
    start. Stop it by closing the generator or with Ctrl-C. A pipe is read
    to its end.
    """
    read = source.read1 if hasattr(source, "read1") else source.read
    regular = _regular_size(source) is not None
    while True:
        chunk = read(READ_SIZE)
        if chunk:
            yield chunk
            continue
        if not regular:
            return  # the end of a pipe is final: nothing more can be written to it
        if os.fstat(source.fileno()).st_size < source.tell():
            logger.warning("the followed file was truncated; reading it from the start")
            source.seek(0)
            continue
        sleep(interval)


class WholeLines:
    """Chunks cut after their last newline: a line still being written is held back.

    While following a file, the writer may be in the middle of a line; it is
    parsed once its newline arrives. :attr:`pending` is what was held when the
    chunks stopped (Ctrl-C): an unfinished line, never shown as if it were
    whole. A line that grows beyond ``limit`` bytes is passed on anyway (the
    session cuts overlong lines), so holding costs bounded memory.
    """

    def __init__(self, chunks: Iterable[bytes], limit: int = 16 * READ_SIZE) -> None:
        self._chunks = chunks
        self._limit = limit
        self.pending = b""

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self._chunks:
            data = self.pending + chunk if self.pending else chunk
            cut = data.rfind(b"\n") + 1
            if cut == 0 and len(data) <= self._limit:
                self.pending = data
                continue
            if cut == 0:
                cut = len(data)
            self.pending = data[cut:]
            yield data[:cut]


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


def detect_from_stream(
    source: IO[bytes], registry: Registry, *, quiet: bool = False
) -> tuple[str, list[bytes]]:
    """Detect the adapter type from the start of ``source``; returns it and the bytes read.

    Reads as little as it can: the first 40 lines, then 40 more at a time while
    no parser is sure (a log opening with a wrapper's own output), up to 600
    lines or 1 MiB. The bytes read are replayed into the session after.
    """
    import codecs

    from linewise._detect import (
        SNIFF_LINES,
        SNIFF_MAX_LINES,
        Detection,
        detect_adapter,
        first_lines,
    )

    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    chunks: list[bytes] = []
    parts: list[str] = []
    size = newlines = 0
    wanted = SNIFF_LINES
    detection: Detection | None = None
    for chunk in read_chunks(source):
        chunks.append(chunk)
        size += len(chunk)
        text = decoder.decode(chunk)
        parts.append(text)
        newlines += text.count("\n")
        if newlines < wanted and size < _PEEK_LIMIT:
            continue
        whole = "".join(parts)
        # More follows: a trailing partial line is not shown to the detectors.
        lines = first_lines(whole[: whole.rfind("\n") + 1])
        if len(lines) < wanted and size < _PEEK_LIMIT:
            wanted = newlines + SNIFF_LINES
            continue
        detection = detect_adapter(lines, registry=registry)
        settled = detection.detected or detection.reason.startswith("ambiguous")
        if settled or size >= _PEEK_LIMIT or len(lines) >= SNIFF_MAX_LINES:
            break
        wanted = newlines + SNIFF_LINES
        detection = None
    if detection is None:  # the log ended before detection settled
        detection = detect_adapter(first_lines("".join(parts)), registry=registry)
    if detection.detected:
        if not quiet:
            sys.stderr.write(
                f"linewise: detected {detection.adapter_type}: {neutralize(detection.reason)}\n"
            )
    else:
        logger.warning(
            "could not detect the log's format, using the generic parser: %s", detection.reason
        )
    return detection.adapter_type, chunks


def _wait_for_a_line(source: IO[bytes]) -> None:
    """Following a file that has no complete line yet: wait for one, so detection has input."""
    for chunk in follow_chunks(source):
        if b"\n" in chunk:
            break
    source.seek(0)


# -- drawing -------------------------------------------------------------------


def build_renderer(
    output: TextIO,
    *,
    format: str = "text",
    style: str = "default",
    adapter_type: str = "process",
    color: bool = False,
    full: bool = False,
    thinking: bool = False,
    title: str = "transcript",
) -> Renderer:
    """The renderer for a format and style, drawing on ``output`` (jsonl uses its buffer).

    ``--style compact`` of a ``claude_local`` log formats the raw stream-json
    lines exactly as the compact specification says (feed it through
    ``linewise._render.RenderPipeline``); other adapters get the same rules
    applied to their entries. Raises ImportError when the HTML renderer is absent.
    """
    if format == "jsonl":
        from linewise._render import JsonlRenderer

        return JsonlRenderer(output.buffer)
    if format == "html":
        from linewise._html import HtmlRenderer

        return HtmlRenderer(output, title=title)
    if style == "compact":
        from linewise._compact import ClaudeCompactRenderer, CompactRenderer

        if adapter_type == "claude_local":
            return ClaudeCompactRenderer(output, color=color)
        return CompactRenderer(output, color=color)
    from linewise._render import TextRenderer

    return TextRenderer(output, color=color, full=full, thinking=thinking)


def _open_output(args: argparse.Namespace, stack: ExitStack) -> TextIO:
    if args.output is None or args.output == "-":
        return sys.stdout
    if args.path != "-" and os.path.exists(args.output):
        try:
            same = os.path.samefile(args.path, args.output)
        except OSError:
            same = False
        if same:
            fail(f"the output {args.output} is the input log itself", EXIT_USAGE)
    try:
        # newline="" keeps "\n" on every platform; text from the agent is already neutralised.
        return stack.enter_context(
            open(args.output, "w", encoding="utf-8", errors="replace", newline="")
        )
    except OSError as error:
        fail(f"cannot write {args.output}: {error.strerror or error}", EXIT_FAILURE)


def _check_options(args: argparse.Namespace, registry: Registry) -> None:
    if args.adapter != "auto" and args.adapter not in registry.adapter_types:
        fail(str(UnknownAdapterError(args.adapter, registry.adapter_types)), EXIT_USAGE)
    if args.style != "default" and args.format != "text":
        fail(f"--style {args.style} applies to --format text only", EXIT_USAGE)
    if args.format == "html":
        try:
            import linewise._html  # noqa: F401 - only checking that it is there
        except ModuleNotFoundError as error:
            if error.name != "linewise._html":
                raise
            fail("--format html is not available: linewise._html is not installed", EXIT_USAGE)


def run(args: argparse.Namespace, registry: Registry) -> int:
    """Render one log."""
    from linewise._render import RenderPipeline, use_color
    from linewise._session import TranscriptSession

    _check_options(args, registry)
    with ExitStack() as stack:
        source, fixed_ts = _open_source(args)
        if source is not sys.stdin.buffer:
            stack.callback(source.close)
        # Only a regular file can grow; stdin and pipes are read to their end anyway.
        follow = args.follow and args.path != "-" and _regular_size(source) is not None
        output = _open_output(args, stack)
        adapter = args.adapter
        replay: list[bytes] = []
        try:
            if adapter == "auto":
                if follow:
                    _wait_for_a_line(source)
                adapter, replay = detect_from_stream(source, registry, quiet=args.quiet)
        except KeyboardInterrupt:
            return EXIT_OK if follow else EXIT_INTERRUPTED
        except OSError as error:
            fail(f"cannot read {args.path}: {error.strerror or error}", EXIT_FAILURE)
        parser = registry.load(adapter)
        if parser.is_fallback and adapter != "process":
            logger.warning(
                "rendering %s with the generic parser: %s", adapter, parser.fallback_reason
            )
        session = TranscriptSession(
            parser,
            strict=registry.strict,
            hooks=registry.hooks,
            max_line_chars=args.max_line_chars,
        )
        renderer = build_renderer(
            output,
            format=args.format,
            style=args.style,
            adapter_type=adapter,
            color=args.format == "text" and use_color(output, args.color),
            full=args.full,
            thinking=args.thinking,
            title=os.path.basename(args.path) if args.path != "-" else "stdin",
        )
        if args.censor_usernames:
            from linewise._privacy import CensoringRenderer

            renderer = CensoringRenderer(renderer)
        pipeline = RenderPipeline(session, renderer, max_line_chars=args.max_line_chars)
        chunks: Iterable[bytes] = read_chunks(source)
        held = None
        if follow:
            chunks = held = WholeLines(follow_chunks(source))
        # A bar for a file of known size only: stdin, pipes and followed files have none.
        size = None if follow or args.path == "-" else _regular_size(source)
        interrupted = _pump(
            pipeline,
            chain(replay, chunks),
            output,
            fixed_ts,
            size=None if args.quiet else size,
            live=follow or size is None,
            path=args.path,
        )
        if held is not None and held.pending.strip():
            logger.warning(
                "stopped following; an unfinished last line (%d bytes) is not shown",
                len(held.pending),
            )
        pipeline.close(fixed_ts)
    if not args.quiet:
        report(session)
    if interrupted and not follow:
        return EXIT_INTERRUPTED
    return EXIT_OK


def _pump(
    pipeline: RenderPipeline,
    chunks: Iterator[bytes],
    output: TextIO,
    ts: str | None,
    *,
    size: int | None,
    live: bool,
    path: str,
) -> bool:
    """Feed every chunk through the pipeline; True when Ctrl-C stopped it."""
    from linewise._progress import ProgressBar

    bar = ProgressBar(sys.stderr, size) if size and ProgressBar.wanted(sys.stderr) else None
    # On a terminal the transcript also goes to, the bar is erased before each
    # piece of output and drawn again below it, so it never lands between lines.
    shared = bar if bar is not None and ProgressBar.wanted(output) else None
    done = 0
    try:
        for chunk in chunks:
            if shared is not None:
                shared.hide()
            pipeline.feed(chunk, ts)
            done += len(chunk)
            if live:
                output.flush()  # someone is watching: show each piece as it arrives
            elif bar is not None:
                if shared is not None:
                    output.flush()
                bar.update(done)
    except KeyboardInterrupt:
        return True
    except OSError as error:
        if isinstance(error, BrokenPipeError):
            raise
        fail(f"cannot read {path}: {error.strerror or error}", EXIT_FAILURE)
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
