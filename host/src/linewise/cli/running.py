"""``linewise run``: run an agent CLI and watch its output as a live transcript."""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any, TextIO

from linewise._registry import Registry
from linewise._sanitize import neutralize
from linewise.cli.common import EXIT_USAGE, fail, logger, positive_int
from linewise.errors import LinewiseError, UnknownAdapterError

if TYPE_CHECKING:
    from linewise._detect import Detection
    from linewise._render import Renderer
    from linewise._run import RunResult

__all__ = ["register"]

_DEFAULT_MAX_LINE_CHARS = 8 * 1024 * 1024  # linewise._session.DEFAULT_MAX_LINE_CHARS
_DEFAULT_GRACE = 15.0  # linewise._run.DEFAULT_GRACE (not imported: `linewise list` stays light)
_EXIT_HOST_FAILURE = 125  # linewise._run.EXIT_HOST_FAILURE


def _seconds(text: str) -> float:
    """argparse type: a number of seconds, at least 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError("must be a finite number of seconds, at least 0")
    return value


def register(commands: Any) -> None:
    """Add the ``run`` subcommand."""
    run_parser = commands.add_parser(
        "run",
        help="run an agent CLI and render its output live",
        description="Run COMMAND (no shell), render its stdout through the parser as it "
        "arrives and its stderr as stderr entries, and exit with its exit code "
        "(128+N when signal N killed it, 124 on --timeout, 127 when the command is not "
        "found, 126 when it cannot be executed, 125 when linewise itself failed).",
    )
    run_parser.add_argument(
        "-a",
        "--adapter",
        default="auto",
        metavar="TYPE",
        help="adapter type of the agent CLI (see `linewise list`); auto (the default) "
        "detects it from the first stdout lines, holding output back until then",
    )
    run_parser.add_argument(
        "--timeout",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help="stop the agent after this long: SIGTERM to its process group, SIGKILL "
        "after --grace (default: no timeout; 0 = none)",
    )
    run_parser.add_argument(
        "--grace",
        type=_seconds,
        default=_DEFAULT_GRACE,
        metavar="SECONDS",
        help=f"seconds between SIGTERM and SIGKILL (default {_DEFAULT_GRACE:g})",
    )
    run_parser.add_argument(
        "--save-log",
        metavar="PATH",
        help="save the agent's stdout bytes to PATH (secret values masked)",
    )
    run_parser.add_argument(
        "--save-transcript", metavar="PATH", help="save the transcript to PATH as JSON lines"
    )
    run_parser.add_argument("-f", "--format", choices=("text", "jsonl", "html"), default="text")
    run_parser.add_argument(
        "-s",
        "--style",
        choices=("default", "compact"),
        default="default",
        help="text style: compact is one line per event (the entry-based rules, for every CLI)",
    )
    run_parser.add_argument(
        "-o", "--output", metavar="PATH", help="write the transcript to PATH instead of stdout"
    )
    run_parser.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    run_parser.add_argument(
        "--full", action="store_true", help="do not shorten tool inputs and results"
    )
    run_parser.add_argument(
        "--thinking", action="store_true", help="show thinking (folded by default)"
    )
    run_parser.add_argument(
        "--max-line-chars",
        type=positive_int,
        default=_DEFAULT_MAX_LINE_CHARS,
        metavar="N",
        help=f"cut lines longer than N characters (default {_DEFAULT_MAX_LINE_CHARS})",
    )
    run_parser.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no detection note, diagnostics or run summary on stderr",
    )
    run_parser.add_argument(
        "command",
        nargs=argparse.REMAINDER,
        metavar="-- COMMAND [ARG ...]",
        help="the agent CLI and its arguments",
    )
    run_parser.set_defaults(handler=run)


def _renderer(args: argparse.Namespace, output: TextIO) -> tuple[Renderer, Any]:
    """The renderer, and the stream to flush after each batch so the output is live."""
    from linewise._render import JsonlRenderer, TextRenderer, use_color

    if args.format == "jsonl":
        return JsonlRenderer(output.buffer), output.buffer
    if args.format == "html":
        from linewise._html import HtmlRenderer

        return HtmlRenderer(output, title=" ".join(args.command).strip("- ")), output
    color = use_color(output, args.color)
    if args.style == "compact":
        # Entry-based: the Claude compact style proper needs each raw event line,
        # which a live run hands to the parser, not to the renderer.
        from linewise._compact import CompactRenderer

        return CompactRenderer(output, color=color), output
    return TextRenderer(output, color=color, full=args.full, thinking=args.thinking), output


def run(args: argparse.Namespace, registry: Registry) -> int:
    """Run the agent; exit with its code."""
    from linewise._run import AgentStartError, run_agent

    command = list(args.command)
    if command and command[0] == "--":
        del command[0]
    if not command:
        fail("no command to run: linewise run [OPTIONS] -- COMMAND [ARG ...]", EXIT_USAGE)
    if args.adapter != "auto" and args.adapter not in registry.adapter_types:
        fail(str(UnknownAdapterError(args.adapter, registry.adapter_types)), EXIT_USAGE)
    if args.style == "compact" and args.format != "text":
        fail(
            "--style compact is a text style; it cannot be used with --format jsonl or html",
            EXIT_USAGE,
        )
    stack = ExitStack()
    output: TextIO = sys.stdout
    if args.output and args.output != "-":
        try:
            output = stack.enter_context(open(args.output, "w", encoding="utf-8"))  # noqa: SIM115
        except OSError as error:
            fail(f"cannot write {args.output}: {error.strerror or error}", _EXIT_HOST_FAILURE)
    renderer, stream = _renderer(args, output)

    def on_detect(detection: Detection) -> None:
        if detection.detected:
            if not args.quiet:
                sys.stderr.write(
                    f"linewise: detected {detection.adapter_type}: {neutralize(detection.reason)}\n"
                )
        else:
            logger.warning(
                "could not detect the output's format, using the generic parser: %s",
                detection.reason,
            )

    try:
        result = run_agent(
            command,
            args.adapter,
            on_entry=renderer.write,
            # Once per read of the agent's output, not per entry: live, and a third faster.
            on_batch=stream.flush,
            on_detect=on_detect,
            timeout=args.timeout,
            grace=args.grace,
            save_log=args.save_log,
            save_transcript=args.save_transcript,
            registry=registry,
            forward_signals=True,
            max_line_chars=args.max_line_chars,
        )
    except AgentStartError as error:
        fail(str(error), error.exit_code)
    except OSError as error:
        if isinstance(error, BrokenPipeError):
            raise
        where = f" {error.filename}" if error.filename else ""
        fail(f"cannot write{where}: {error.strerror or error}", _EXIT_HOST_FAILURE)
    except LinewiseError as error:
        fail(str(error), _EXIT_HOST_FAILURE)
    renderer.close()
    stack.close()
    if result.session.diagnostics.fallback_reason and result.adapter_type != "process":
        logger.warning(
            "rendered %s with the generic parser: %s",
            result.adapter_type,
            result.session.diagnostics.fallback_reason,
        )
    if not args.quiet:
        from linewise.cli.rendering import report

        report(result.session)
        _final_line(result)
    return result.exit_code


def _final_line(result: RunResult) -> None:
    from linewise.cli.summarizing import describe

    report = result.report
    if report.summary_problem:
        logger.warning("%s; summarised from the transcript", report.summary_problem)
    if result.timed_out:
        how = f"timed out after {result.duration:.1f}s"
        if result.killed:
            how += ", killed"
    elif result.signal:
        how = f"killed by {result.signal} after {result.duration:.1f}s"
    else:
        how = f"exited with {result.returncode} after {result.duration:.1f}s"
    sys.stderr.write(f"linewise: run {how} (exit {result.exit_code}): {describe(report)}\n")
