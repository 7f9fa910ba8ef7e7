"""What every subcommand shares: exit codes, logging to stderr, errors, reading input."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import IO, TYPE_CHECKING, NoReturn

from linewise.settings.defaults import EXIT_FAILURE, EXIT_OK, EXIT_USAGE, READ_SIZE
from linewise.settings.logs import logger
from linewise.settings.sanitising import neutralize

if TYPE_CHECKING:
    from linewise.plugins.registry import Registry

__all__ = [
    "EXIT_FAILURE",
    "EXIT_OK",
    "EXIT_USAGE",
    "configure_logging",
    "fail",
    "file_ts",
    "logger",
    "positive_int",
    "read_chunks",
]


def configure_logging(verbose: bool) -> None:
    """Warnings (and with -v, information) to stderr, neutralised, prefixed ``linewise:``."""
    logger.configure(verbose=verbose)


def fail(message: str, code: int) -> NoReturn:
    """Print an error to stderr and exit with ``code``."""
    sys.stderr.write(f"linewise: error: {neutralize(message)}\n")
    raise SystemExit(code)


def read_chunks(stream: IO[bytes]) -> Iterator[bytes]:
    """The stream's bytes as they arrive (``read1``: no waiting for a full buffer)."""
    read = stream.read1 if hasattr(stream, "read1") else stream.read
    while chunk := read(READ_SIZE):
        yield chunk


def file_ts(path: str) -> str:
    """A file's modification time as the contract's ``ts``."""
    stamp = datetime.fromtimestamp(os.stat(path).st_mtime, UTC)
    return stamp.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def positive_int(text: str) -> int:
    """argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def iso_timestamp(text: str) -> str:
    """argparse type: an ISO 8601 date and time, such as ``2026-01-31T09:30:00Z``.

    It is kept as written (entries carry it verbatim); a value without a time
    zone is read as UTC by whoever reads it, as the contract's ``ts`` is.
    """
    try:
        datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"not an ISO 8601 timestamp: {text!r} (for example 2026-01-31T09:30:00Z)"
        ) from None
    if "T" not in text and " " not in text:
        raise argparse.ArgumentTypeError(
            f"a date needs a time too: {text!r} (for example {text}T00:00:00Z)"
        )
    return text


def add_isolation_options(parser: argparse.ArgumentParser) -> None:
    """``--isolate [TYPES]``, ``--line-timeout`` and ``--worker-memory`` (isolation mode)."""
    group = parser.add_argument_group("isolation (untrusted parsers in worker processes)")
    group.add_argument(
        "--isolate",
        nargs="?",
        const="all",
        metavar="TYPES",
        help="run parsers in worker processes: all of them, or these comma-separated adapter "
        "types or distributions (like LINEWISE_ISOLATE)",
    )
    group.add_argument(
        "--line-timeout",
        type=positive_float,
        metavar="SECONDS",
        help="with --isolate: seconds one line may take (default LINEWISE_LINE_TIMEOUT or 5)",
    )
    group.add_argument(
        "--worker-memory",
        type=positive_int,
        metavar="MIB",
        help="with --isolate: a worker's memory limit (default LINEWISE_WORKER_MEMORY or 1024)",
    )


def apply_isolation(args: argparse.Namespace, registry: Registry) -> None:
    """Put the command's isolation options into effect on ``registry``."""
    isolate = getattr(args, "isolate", None)
    timeout = getattr(args, "line_timeout", None)
    memory = getattr(args, "worker_memory", None)
    if isolate is None and timeout is None and memory is None:
        return
    names = isolate if isolate is not None else registry.isolation.names
    registry.isolate(names, line_timeout=timeout, worker_memory=memory)


def positive_float(text: str) -> float:
    """argparse type: a number above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError("must be a number above 0")
    return value
