"""The ``linewise`` command: list installed parsers, render agent logs as transcripts."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from typing import IO, TYPE_CHECKING, Any, NoReturn

from linewise_contracts._version import CONTRACT_VERSION

from linewise._registry import ParserInfo, ParserStatus, Registry, get_registry
from linewise._sanitize import neutralize
from linewise._version import __version__
from linewise.errors import LinewiseError, UnknownAdapterError

if TYPE_CHECKING:
    from linewise._render import Renderer
    from linewise._session import TranscriptSession

__all__ = ["main"]

EXIT_OK = 0
EXIT_FAILURE = 1  # the input could not be read
EXIT_USAGE = 2  # bad options or an unknown adapter type

_READ_SIZE = 64 * 1024
_PEEK_LIMIT = 1024 * 1024  # at most this much is read before detecting the format
_DEFAULT_MAX_LINE_CHARS = 8 * 1024 * 1024  # linewise._session.DEFAULT_MAX_LINE_CHARS
logger = logging.getLogger("linewise")


class _Formatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return f"linewise: {record.levelname.lower()}: {neutralize(record.getMessage())}"


def _configure_logging(verbose: bool) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_Formatter())
    logger.handlers[:] = [handler]
    logger.setLevel(logging.INFO if verbose else logging.WARNING)
    logger.propagate = False


def _fail(message: str, code: int) -> NoReturn:
    sys.stderr.write(f"linewise: error: {neutralize(message)}\n")
    raise SystemExit(code)


# -- list ----------------------------------------------------------------------


def _use_color(stream: IO[str], choice: str) -> bool:
    from linewise._render import use_color

    return use_color(stream, choice)


def _contract_cell(info: ParserInfo) -> str:
    if info.builtin:
        return "built in"
    if info.contract_verdict == "undeclared":
        return "none (grace period)"
    return info.contract or "?"


def _cmd_list(args: argparse.Namespace, registry: Registry) -> int:
    if args.load:
        for adapter_type in registry.adapter_types:
            registry.load(adapter_type)
    infos = registry.parsers()
    out = sys.stdout
    if args.json:
        payload = {
            "linewise": __version__,
            "contract": CONTRACT_VERSION,
            "parsers": [info.to_json() for info in infos],
        }
        out.write(json.dumps(payload, ensure_ascii=False) + "\n")
        return EXIT_OK
    color = _use_color(out, args.color)
    rows = [("ADAPTER TYPE", "STATUS", "DISTRIBUTION", "CONTRACT", "LABEL / REASON")]
    for info in infos:
        dist = f"{info.distribution} {info.version}" if info.distribution else "-"
        note = info.label or ""
        if info.status not in (ParserStatus.AVAILABLE, ParserStatus.LOADED) or not note:
            note = info.reason or note
        rows.append((info.adapter_type, info.status.value, dist, _contract_cell(info), note))
    widths = [max(len(neutralize(row[i])) for row in rows) for i in range(4)]
    palette = {
        "loaded": "32",
        "available": "32",
        "incompatible": "33",
        "failed": "31",
        "disabled": "90",
        "shadowed": "90",
    }
    out.write(f"linewise {__version__} · contract {CONTRACT_VERSION}\n")
    for index, row in enumerate(rows):
        cells = [neutralize(cell) for cell in row]
        padded = [cells[i].ljust(widths[i]) for i in range(4)]
        if color and index:
            padded[1] = f"\x1b[{palette[row[1]]}m{padded[1]}\x1b[0m"
        out.write("  ".join([*padded, cells[4]]).rstrip() + "\n")
        shown = infos[index - 1] if index else None
        if shown is not None and shown.hint and shown.status is not ParserStatus.AVAILABLE:
            out.write(" " * (sum(widths) + 8) + f"hint: {neutralize(shown.hint)}\n")
    return EXIT_OK


# -- render --------------------------------------------------------------------


def _chunks(stream: IO[bytes]) -> Iterator[bytes]:
    while (
        chunk := stream.read1(_READ_SIZE) if hasattr(stream, "read1") else stream.read(_READ_SIZE)
    ):
        yield chunk


def _file_ts(path: str) -> str:
    stamp = datetime.fromtimestamp(os.stat(path).st_mtime, UTC)
    return stamp.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _open_source(args: argparse.Namespace) -> tuple[IO[bytes], str | None]:
    if args.path == "-":
        return sys.stdin.buffer, args.ts
    try:
        source = open(args.path, "rb")  # noqa: SIM115 - the caller closes it
        return source, args.ts or _file_ts(args.path)
    except OSError as error:
        _fail(f"cannot read {args.path}: {error.strerror or error}", EXIT_FAILURE)


def _peek(source: IO[bytes]) -> tuple[list[bytes], list[str]]:
    """Read just enough of the log to detect its format; the bytes are replayed after."""
    import codecs

    from linewise._detect import SNIFF_LINES, first_lines

    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    chunks: list[bytes] = []
    text = ""
    size = 0
    ended = True
    for chunk in _chunks(source):
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


def _detect(
    args: argparse.Namespace, registry: Registry, source: IO[bytes]
) -> tuple[str, list[bytes]]:
    from linewise._detect import detect_adapter

    chunks, lines = _peek(source)
    detection = detect_adapter(lines, registry=registry)
    if detection.detected:
        if not args.quiet:
            sys.stderr.write(
                f"linewise: detected {detection.adapter_type}: {neutralize(detection.reason)}\n"
            )
    else:
        logger.warning(
            "could not detect the log's format, using the generic parser: %s", detection.reason
        )
    return detection.adapter_type, chunks


def _cmd_render(args: argparse.Namespace, registry: Registry) -> int:
    from itertools import chain

    from linewise._render import JsonlRenderer, TextRenderer, use_color
    from linewise._session import TranscriptSession

    adapter = args.adapter
    if adapter != "auto" and adapter not in registry.adapter_types:
        _fail(str(UnknownAdapterError(adapter, registry.adapter_types)), EXIT_USAGE)
    source, fixed_ts = _open_source(args)
    replay: list[bytes] = []
    if adapter == "auto":
        try:
            adapter, replay = _detect(args, registry, source)
        except OSError as error:
            _fail(f"cannot read {args.path}: {error.strerror or error}", EXIT_FAILURE)
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
        for chunk in chain(replay, _chunks(source)):
            for entry in session.feed(chunk, fixed_ts):
                renderer.write(entry)
        for entry in session.close(fixed_ts):
            renderer.write(entry)
        renderer.close()
    except OSError as error:
        if isinstance(error, BrokenPipeError):
            raise
        _fail(f"cannot read {args.path}: {error.strerror or error}", EXIT_FAILURE)
    finally:
        if source is not sys.stdin.buffer:
            source.close()
    if not args.quiet:
        _report(session)
    return EXIT_OK


def _report(session: TranscriptSession) -> None:
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


# -- entry point ---------------------------------------------------------------


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``linewise`` command."""
    parser = argparse.ArgumentParser(
        prog="linewise",
        description="Structured transcripts from AI coding-agent CLI output.",
    )
    parser.add_argument("--version", action="version", version=f"linewise {__version__}")
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="also log informational messages"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    listing = commands.add_parser("list", help="list the installed parser plugins and their status")
    listing.add_argument("--json", action="store_true", help="print JSON instead of a table")
    listing.add_argument(
        "--load", action="store_true", help="import every plugin to report load failures too"
    )
    listing.add_argument("--color", choices=("auto", "always", "never"), default="auto")

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
        type=_positive,
        default=_DEFAULT_MAX_LINE_CHARS,
        metavar="N",
        help=f"cut lines longer than N characters (default {_DEFAULT_MAX_LINE_CHARS})",
    )
    render.add_argument(
        "-q", "--quiet", action="store_true", help="no diagnostics summary on stderr"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``linewise`` command; returns the exit code."""
    args = build_parser().parse_args(argv)
    _configure_logging(args.verbose)
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="replace")
    registry = get_registry()
    commands: dict[str, Any] = {"list": _cmd_list, "render": _cmd_render}
    try:
        return int(commands[args.command](args, registry))
    except BrokenPipeError:
        # The reader went away (`linewise render x | head`): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except LinewiseError as error:
        _fail(str(error), EXIT_FAILURE)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
