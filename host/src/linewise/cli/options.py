"""The drawing options ``render`` and ``run`` share, each defined once."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from linewise.cli.common import positive_int
from linewise.settings.defaults import MAX_LINE_CHARS

if TYPE_CHECKING:
    from linewise.render.redaction.entries import EntryRedactor

__all__ = [
    "add_color",
    "add_full",
    "add_max_line_chars",
    "add_output",
    "add_redact",
    "redactor_for",
]


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


def add_redact(parser: argparse.ArgumentParser, *, default: bool = False) -> None:
    """``--redact`` / ``--no-redact`` and ``--redact-allow VALUE``: secrets found by content."""
    parser.add_argument(
        "--redact",
        action=argparse.BooleanOptionalAction,
        default=default,
        help="mask secrets found by their content (cloud keys, provider tokens, private "
        "keys, JWTs, passwords in URLs and connection strings, secret-named assignments) "
        "in everything written, each shown as [redacted: KIND] and counted on stderr"
        + (" (the default here)" if default else ""),
    )
    parser.add_argument(
        "--redact-allow",
        action="append",
        default=[],
        metavar="VALUE",
        help="never mask VALUE (a false positive of --redact); repeatable",
    )


def redactor_for(args: argparse.Namespace, *, environment: bool) -> EntryRedactor | None:
    """The entry redactor ``args`` ask for: secrets by content with ``--redact``, and the
    values of secret-named environment variables where ``environment`` (or ``--redact``)."""
    patterns = bool(getattr(args, "redact", False))
    if not (patterns or environment):
        return None
    # Imported only for a redactor: its patterns cost 1.5% of a plain render's start-up.
    from linewise.render.redaction.entries import EntryRedactor

    redactor = EntryRedactor.for_environment(
        os.environ, patterns=patterns, allow=getattr(args, "redact_allow", ())
    )
    return redactor if redactor.active else None


def add_otlp_endpoint(parser: argparse.ArgumentParser) -> None:
    """``--otlp-endpoint URL``: where ``-f otlp`` also sends its spans."""
    parser.add_argument(
        "--otlp-endpoint",
        metavar="URL",
        help="with -f otlp, also send the spans to this OTLP/HTTP traces endpoint "
        "(such as http://localhost:4318/v1/traces)",
    )


def check_otlp(args: argparse.Namespace) -> None:
    """Exit with a clear message when ``-f otlp`` cannot run, or the endpoint has no use."""
    from linewise.cli.common import EXIT_USAGE, fail

    if getattr(args, "otlp_endpoint", None) and args.format != "otlp":
        fail("--otlp-endpoint sends spans: use it with -f otlp", EXIT_USAGE)
    if args.format == "otlp":
        try:
            import opentelemetry.sdk.trace  # noqa: F401 - only checking that it is there
        except ModuleNotFoundError:
            fail("-f otlp needs the OpenTelemetry SDK: pip install 'linewise[otel]'", EXIT_USAGE)
