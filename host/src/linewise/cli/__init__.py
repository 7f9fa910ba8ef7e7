"""The ``linewise`` command: one module per subcommand, registered here."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib import import_module

from linewise._registry import get_registry
from linewise._version import __version__
from linewise.cli.common import EXIT_FAILURE, EXIT_OK, configure_logging, fail
from linewise.errors import LinewiseError

__all__ = ["build_parser", "main"]

# Each module defines register(commands) adding its subparser, with a
# `handler(args, registry) -> int` default. Imported lazily by main().
COMMANDS = (
    "listing",
    "rendering",
    "checking",
    "scaffold",
    "running",
    "summarizing",
    "doctor",
    "exporting",
    "querying",
    "sessions",
    "js",
)


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
    for name in COMMANDS:
        import_module(f"linewise.cli.{name}").register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``linewise`` command; returns the exit code."""
    args = build_parser().parse_args(argv)
    configure_logging(args.verbose)
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="replace")
    try:
        return int(args.handler(args, get_registry()))
    except BrokenPipeError:
        # The reader went away (`linewise render x | head`): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except LinewiseError as error:
        fail(str(error), EXIT_FAILURE)
