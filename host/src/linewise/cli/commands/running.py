"""``linewise run``: run an agent CLI and watch its output as a live transcript."""

from __future__ import annotations

import argparse
import io
import os
import sys
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any, TextIO

from linewise.cli.common import EXIT_USAGE, add_isolation_options, fail, logger
from linewise.cli.drawing import drawing_for, note_detection
from linewise.cli.entry_stream import entry_stream
from linewise.cli.options import (
    add_color,
    add_full,
    add_max_line_chars,
    add_otlp_endpoint,
    add_output,
    add_redact,
    check_otlp,
)
from linewise.plugins.registry import Registry
from linewise.render import FORMATS
from linewise.settings.defaults import EXIT_HOST_FAILURE, GRACE
from linewise.settings.errors import LinewiseError

if TYPE_CHECKING:
    from linewise_contracts.summary import RunSummary

    from linewise.run.agent import RunResult
    from linewise.stream.detect import Detection

__all__ = ["register"]


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
        default=GRACE,
        metavar="SECONDS",
        help=f"seconds between SIGTERM and SIGKILL (default {GRACE:g})",
    )
    run_parser.add_argument(
        "--save-log",
        metavar="PATH",
        help="save the agent's stdout bytes to PATH (secret values masked)",
    )
    run_parser.add_argument(
        "--save-transcript", metavar="PATH", help="save the transcript to PATH as JSON lines"
    )
    run_parser.add_argument("-f", "--format", choices=FORMATS, default="text")
    run_parser.add_argument(
        "-s",
        "--style",
        choices=("default", "compact"),
        default="default",
        help="text style: compact is one line per event (as `linewise render --style compact`)",
    )
    add_output(run_parser)
    add_color(run_parser)
    add_full(run_parser)
    run_parser.add_argument(
        "--thinking", action="store_true", help="show thinking (folded by default)"
    )
    add_max_line_chars(run_parser)
    add_redact(run_parser)
    add_otlp_endpoint(run_parser)
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
    add_isolation_options(run_parser)
    run_parser.set_defaults(handler=run)


def run(args: argparse.Namespace, registry: Registry) -> int:
    """Run the agent; exit with its code."""
    command = list(args.command)
    if command and command[0] == "--":
        del command[0]
    if not command:
        fail("no command to run: linewise run [OPTIONS] -- COMMAND [ARG ...]", EXIT_USAGE)
    if args.adapter != "auto" and args.adapter not in registry.adapter_types:
        from linewise.plugins.suggest import unknown_adapter  # a mistyped name only

        fail(str(unknown_adapter(args.adapter, registry.adapter_types)), EXIT_USAGE)
    check_otlp(args)
    if args.style == "compact" and args.format != "text":
        fail(
            "--style compact is a text style; it cannot be used with --format jsonl or html",
            EXIT_USAGE,
        )
    _check_files_apart(args)
    with ExitStack() as stack:
        output: TextIO
        if not args.output or args.output == "-":
            # What plugins print goes to stderr: stdout carries the transcript alone.
            output = stack.enter_context(entry_stream())
        else:
            from linewise.run.written import OutputError, open_named

            try:
                binary = stack.enter_context(open_named(args.output))
            except OutputError as error:
                fail(str(error), EXIT_HOST_FAILURE)
            output = stack.enter_context(io.TextIOWrapper(binary, encoding="utf-8"))
        result = _run_drawn(args, registry, command, output)
    if result.session.diagnostics.fallback_reason and result.adapter_type != "process":
        logger.warning(
            "rendered %s with the generic parser: %s",
            result.adapter_type,
            result.session.diagnostics.fallback_reason,
        )
    if not args.quiet:
        from linewise.cli.commands.rendering import report

        report(result.session)
        _final_line(result)
    return result.exit_code


def _check_files_apart(args: argparse.Namespace) -> None:
    """-o, --save-log and --save-transcript must be three files: one would overwrite another."""
    named = [
        (option, path)
        for option, path in (
            ("-o", args.output if args.output != "-" else None),
            ("--save-log", args.save_log),
            ("--save-transcript", args.save_transcript),
        )
        if path
    ]
    for index, (option, path) in enumerate(named):
        for other, other_path in named[index + 1 :]:
            if _same_path(path, other_path):
                fail(f"{option} and {other} name the same file ({path})", EXIT_USAGE)


def _same_path(first: str, second: str) -> bool:
    if os.path.realpath(first) == os.path.realpath(second):
        return True
    try:
        return os.path.samefile(first, second)
    except OSError:
        return False


def _run_drawn(
    args: argparse.Namespace, registry: Registry, command: list[str], output: TextIO
) -> RunResult:
    """Run the agent, drawing its transcript on ``output``, and end the drawing."""
    from linewise.render.redaction.redactor import Redactor, redact_command
    from linewise.run.agent import run_agent
    from linewise.settings.errors import AgentStartError

    # The title is shown (the HTML page): secret options and secret values masked.
    shown = redact_command(command, Redactor.for_environment(os.environ))
    drawing = drawing_for(
        args, output, title=" ".join(shown).strip("- "), adapter_type=args.adapter
    )

    def on_detect(detection: Detection) -> None:
        note_detection(detection, quiet=args.quiet, source="output")
        drawing.detected(detection.adapter_type)

    try:
        result = run_agent(
            command,
            args.adapter,
            on_entry=drawing.write,
            on_line=drawing.write_line,
            # Once per read of the agent's output, not per entry: live, and a third faster.
            on_batch=output.flush,
            on_detect=on_detect,
            timeout=args.timeout,
            grace=args.grace,
            save_log=args.save_log,
            save_transcript=args.save_transcript,
            registry=registry,
            forward_signals=True,
            max_line_chars=args.max_line_chars,
            redact=args.redact,
            redact_allow=args.redact_allow,
        )
    except AgentStartError as error:
        fail(str(error), error.exit_code)
    except OSError as error:
        if isinstance(error, BrokenPipeError):
            raise
        where = f" {error.filename}" if error.filename else ""
        fail(f"cannot write{where}: {error.strerror or error}", EXIT_HOST_FAILURE)
    except LinewiseError as error:
        fail(str(error), EXIT_HOST_FAILURE)
    # The outcome the plugin's summarize_run gives, as `summarize` shows it; entries alone
    # cannot tell how a run ended, so without one no outcome is drawn.
    run_report = result.report
    summary = run_report.summary if run_report.summary_source == "plugin" else None
    if summary is not None and args.redact:
        summary = _masked(summary, args.redact_allow)
    drawing.close(summary)
    return result


def _masked(summary: RunSummary, allow: list[str]) -> RunSummary:
    """The summary's texts with secrets found by content masked (``--redact``)."""
    import dataclasses

    from linewise.render.redaction.entries import EntryRedactor

    text = EntryRedactor(patterns=True, allow=allow).text
    final = None if summary.final_text is None else text(summary.final_text)
    errors = tuple(text(error) for error in summary.errors)
    return dataclasses.replace(summary, final_text=final, errors=errors)


def _final_line(result: RunResult) -> None:
    from linewise.cli.commands.summarizing import describe

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
