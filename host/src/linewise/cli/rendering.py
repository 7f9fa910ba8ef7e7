"""``linewise render``: an agent's stdout log as a readable transcript or as JSON lines."""

from __future__ import annotations

import argparse
import sys
from itertools import chain
from typing import IO, TYPE_CHECKING, Any

from linewise._registry import Registry
from linewise._sanitize import neutralize
from linewise.cli.common import (
    EXIT_FAILURE,
    EXIT_OK,
    EXIT_USAGE,
    fail,
    file_ts,
    logger,
    positive_int,
    read_chunks,
)
from linewise.errors import UnknownAdapterError

if TYPE_CHECKING:
    from linewise._render import Renderer
    from linewise._session import TranscriptSession

__all__ = ["detect_from_stream", "register", "report"]

_PEEK_LIMIT = 1024 * 1024  # at most this much is read before detecting the format
_DEFAULT_MAX_LINE_CHARS = 8 * 1024 * 1024  # linewise._session.DEFAULT_MAX_LINE_CHARS


def register(commands: Any) -> None:
    """Add the ``render`` subcommand."""
    render = commands.add_parser("render", help="render an agent's stdout log as a transcript")
    render.add_argument("path", metavar="PATH", help="log file to read, or - for stdin")
    render.add_argument(
        "-a",
        "--adapter",
        default="auto",
        metavar="TYPE",
        help="adapter type of the CLI that wrote the log (see `linewise list`); "
        "auto (the default) detects it from the first lines; process = generic",
    )
    render.add_argument("-f", "--format", choices=("text", "jsonl"), default="text")
    render.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    render.add_argument(
        "--full", action="store_true", help="do not shorten tool inputs and results"
    )
    render.add_argument(
        "--ts",
        metavar="TIMESTAMP",
        help="timestamp for every entry (default: the file's modification time; now for stdin)",
    )
    render.add_argument(
        "--max-line-chars",
        type=positive_int,
        default=_DEFAULT_MAX_LINE_CHARS,
        metavar="N",
        help=f"cut lines longer than N characters (default {_DEFAULT_MAX_LINE_CHARS})",
    )
    render.add_argument(
        "-q", "--quiet", action="store_true", help="no diagnostics summary on stderr"
    )
    render.set_defaults(handler=run)


def _open_source(args: argparse.Namespace) -> tuple[IO[bytes], str | None]:
    if args.path == "-":
        return sys.stdin.buffer, args.ts
    try:
        source = open(args.path, "rb")  # noqa: SIM115 - the caller closes it
        return source, args.ts or file_ts(args.path)
    except OSError as error:
        fail(f"cannot read {args.path}: {error.strerror or error}", EXIT_FAILURE)


def _peek(source: IO[bytes]) -> tuple[list[bytes], list[str]]:
    """Read just enough of the log to detect its format; the bytes are replayed after."""
    import codecs

    from linewise._detect import SNIFF_LINES, first_lines

    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    chunks: list[bytes] = []
    text = ""
    size = 0
    ended = True
    for chunk in read_chunks(source):
        chunks.append(chunk)
        size += len(chunk)
        text += decoder.decode(chunk)
        if text.count("\n") > SNIFF_LINES * 2 or size >= _PEEK_LIMIT:
            ended = False
            break
    if not ended:
        # More follows: a trailing partial line is not shown to the detectors.
        text = text[: text.rfind("\n") + 1]
    return chunks, first_lines(text)


def detect_from_stream(
    source: IO[bytes], registry: Registry, *, quiet: bool = False
) -> tuple[str, list[bytes]]:
    """Detect the adapter type from the start of ``source``; returns it and the bytes read."""
    from linewise._detect import detect_adapter

    chunks, lines = _peek(source)
    detection = detect_adapter(lines, registry=registry)
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


def run(args: argparse.Namespace, registry: Registry) -> int:
    """Render one log."""
    from linewise._render import JsonlRenderer, TextRenderer, use_color
    from linewise._session import TranscriptSession

    adapter = args.adapter
    if adapter != "auto" and adapter not in registry.adapter_types:
        fail(str(UnknownAdapterError(adapter, registry.adapter_types)), EXIT_USAGE)
    source, fixed_ts = _open_source(args)
    replay: list[bytes] = []
    if adapter == "auto":
        try:
            adapter, replay = detect_from_stream(source, registry, quiet=args.quiet)
        except OSError as error:
            fail(f"cannot read {args.path}: {error.strerror or error}", EXIT_FAILURE)
    parser = registry.load(adapter)
    if parser.is_fallback and adapter != "process":
        logger.warning("rendering %s with the generic parser: %s", adapter, parser.fallback_reason)
    session = TranscriptSession(
        parser,
        strict=registry.strict,
        hooks=registry.hooks,
        max_line_chars=args.max_line_chars,
    )
    renderer: Renderer
    if args.format == "jsonl":
        renderer = JsonlRenderer(sys.stdout.buffer)
    else:
        renderer = TextRenderer(sys.stdout, color=use_color(sys.stdout, args.color), full=args.full)
    try:
        for chunk in chain(replay, read_chunks(source)):
            for entry in session.feed(chunk, fixed_ts):
                renderer.write(entry)
        for entry in session.close(fixed_ts):
            renderer.write(entry)
        renderer.close()
    except OSError as error:
        if isinstance(error, BrokenPipeError):
            raise
        fail(f"cannot read {args.path}: {error.strerror or error}", EXIT_FAILURE)
    finally:
        if source is not sys.stdin.buffer:
            source.close()
    if not args.quiet:
        report(session)
    return EXIT_OK


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
