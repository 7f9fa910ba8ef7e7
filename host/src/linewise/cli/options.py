"""The drawing options ``render`` and ``run`` share, each defined once."""

from __future__ import annotations

import argparse

from linewise._defaults import MAX_LINE_CHARS
from linewise.cli.common import positive_int

__all__ = ["add_color", "add_full", "add_max_line_chars", "add_output"]


def add_output(parser: argparse.ArgumentParser) -> None:
    """``-o/--output PATH``: where the transcript goes instead of stdout."""
    parser.add_argument(
        "-o", "--output", metavar="PATH", help="write the transcript to PATH instead of stdout"
    )


def add_color(parser: argparse.ArgumentParser) -> None:
    """``--color auto|always|never``."""
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto")


def add_full(parser: argparse.ArgumentParser) -> None:
    """``--full``: tool inputs and results unshortened."""
    parser.add_argument(
        "--full", action="store_true", help="do not shorten tool inputs and results"
    )


def add_max_line_chars(parser: argparse.ArgumentParser) -> None:
    """``--max-line-chars N``: the line limit of the session."""
    parser.add_argument(
        "--max-line-chars",
        type=positive_int,
        default=MAX_LINE_CHARS,
        metavar="N",
        help=f"cut lines longer than N characters (default {MAX_LINE_CHARS})",
    )
