"""The ``linewise`` command: one module per subcommand, imported only when it runs."""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import sys
from collections.abc import Callable, Sequence
from importlib import import_module
from typing import Any, Final

from linewise.settings.defaults import EXIT_INTERRUPTED
from linewise.settings.version import __version__

__all__ = ["COMMANDS", "COMMAND_GROUP", "build_parser", "main"]

#: Subcommand name -> its module in ``linewise.cli.commands``. A module defines
#: ``register(commands)``, adding its subparser with a ``handler(args, registry) -> int``
#: default. Adding a subcommand is one line here (and its module): ``linewise X``
#: imports only X's module, so start-up does not grow with the number of commands;
#: ``linewise --help`` (or no command, or an unknown one) imports them all to list them.
COMMANDS: Final[dict[str, str]] = {
    "list": "listing",
    "render": "rendering",
    "share": "sharing",
    "check": "checking",
    "new": "scaffold",
    "run": "running",
    "summarize": "summarizing",
    "doctor": "doctor",
    "export": "exporting",
    "query": "querying",
    "sessions": "sessions",
    "usage": "usage",
    "js": "js",
}

#: The entry point group through which other distributions add a command: an entry
#: named after the command whose object is a ``register(commands)`` function, as a
#: module of :data:`COMMANDS` defines. Read only when the user types a command the host
#: does not know, and then only that entry is loaded.
COMMAND_GROUP: Final = "linewise.commands"
#: The first-party commands that come with an extra, and what to install for each.
EXTRA_COMMANDS: Final[dict[str, str]] = {"serve": "linewise[serve]"}


#: Allocations between two passes of the cycle collector's youngest generation (Python: 700).
_FIRST_GENERATION: Final = 10_000


def _terminal_columns() -> int:
    """The terminal's width, as ``shutil.get_terminal_size().columns`` measures it."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    try:
        lines = int(os.environ["LINES"])
    except (KeyError, ValueError):
        lines = 0
    if columns <= 0 or lines <= 0:
        try:
            size = os.get_terminal_size(sys.__stdout__.fileno())  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            size = os.terminal_size((80, 24))
        if columns <= 0:
            columns = size.columns or 80
    return columns


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, the same width, without importing shutil (and its compressors).

    argparse builds a formatter for every option it is given; the default one
    imports shutil for the terminal width, a noticeable part of a short run.
    """

    def __init__(self, prog: str, **options: Any) -> None:
        if options.get("width") is None:
            options["width"] = _terminal_columns() - 2
        super().__init__(prog, **options)


class _ArgumentParser(argparse.ArgumentParser):
    """An ArgumentParser (and its subcommands' parsers) with :class:`_HelpFormatter`.

    A subcommand's words (``PATH ...``) may come before and after its options:
    ``linewise usage daily --json logs/`` as well as ``usage --json daily logs/``.
    argparse alone fills a ``nargs="*"`` positional once, from the first run of
    words, and calls the rest unrecognised.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)
        self.words_dest: str | None = None  # this parser's ``nargs="*"`` or ``"+"`` positional
        self.subcommands: dict[str, _ArgumentParser] = {}

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        action = super().add_argument(*args, **kwargs)
        if not action.option_strings and action.nargs in ("*", "+"):
            self.words_dest = action.dest
        return action

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        parsed, extra = self.parse_known_args(args, namespace)
        name = getattr(parsed, "command", None)  # ``run`` keeps its agent's command there
        command = self.subcommands.get(name) if isinstance(name, str) else None
        dest = command.words_dest if command is not None else None
        # Only plain words join the list ("-" is stdin); an unknown option is still an error.
        if extra and dest and not any(word.startswith("-") and word != "-" for word in extra):
            getattr(parsed, dest).extend(extra)
        elif extra:
            self.error(f"unrecognized arguments: {' '.join(extra)}")
        return parsed


class _VersionAction(argparse.Action):
    """``--version``: the version, then each distribution's hot path (compiled or why not).

    The status reads distribution metadata, so it is worked out only when asked.
    """

    def __init__(self, option_strings: Sequence[str], dest: str, **options: Any) -> None:
        options.setdefault("default", argparse.SUPPRESS)
        super().__init__(option_strings, dest, nargs=0, **options)

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        from linewise.plugins.hot_path import hot_path_statuses, status_lines

        lines = [f"linewise {__version__}"]
        lines += [f"  {line}" for line in status_lines(hot_path_statuses())]
        sys.stdout.write("\n".join(lines) + "\n")  # on stdout, as argparse's version action
        parser.exit()


def build_parser(
    command: str | None = None, *, extension: Callable[[Any], None] | None = None
) -> argparse.ArgumentParser:
    """The argument parser of the ``linewise`` command.

    With ``command`` (a key of :data:`COMMANDS`), only that subcommand is
    registered, which is all that parsing its arguments needs. With
    ``extension`` (the ``register`` function of a :data:`COMMAND_GROUP` entry),
    only the command it adds.
    """
    parser = _ArgumentParser(
        prog="linewise",
        description="Structured transcripts from AI coding-agent CLI output.",
    )
    parser.add_argument(
        "--version",
        action=_VersionAction,
        help="show the version, and whether the hot path is compiled here, and exit",
    )
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="also log informational messages"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    if extension is not None:
        extension(commands)
        return parser
    modules = COMMANDS.values() if command is None else (COMMANDS[command],)
    for module in modules:
        import_module(f"linewise.cli.commands.{module}").register(commands)
    parser.subcommands = dict(commands.choices)
    return parser


def _first_word(argv: Sequence[str]) -> str | None:
    """The subcommand word of ``argv`` (None when help is asked for first, or none is given)."""
    for word in argv:
        if word in ("-h", "--help") or word == "--":
            return None
        if not word.startswith("-"):
            return word
    return None


def extension_command(word: str) -> Callable[[Any], None] | None:
    """The ``register`` function of the :data:`COMMAND_GROUP` entry named ``word``, or None.

    Only that entry's module is imported. A first-party command whose extra is not
    installed stops with what to install; one whose distribution fails to load
    stops saying why.
    """
    from linewise.cli.common import EXIT_FAILURE, EXIT_USAGE, fail
    from linewise.plugins.discovery import installed_entry_points

    points, _ = installed_entry_points(COMMAND_GROUP)
    point = next((point for point in points if point.name == word), None)
    if point is None:
        extra = EXTRA_COMMANDS.get(word)
        if extra is not None:
            fail(
                f"`linewise {word}` comes with an extra that is not installed here: "
                f"pip install '{extra}'",
                EXIT_USAGE,
            )
        return None
    try:
        register = point.load()
    except Exception as error:  # a broken install must not cost a traceback
        from linewise.plugins.guard import describe

        fail(f"`linewise {word}` cannot load ({point.value}): {describe(error)}", EXIT_FAILURE)
    if not callable(register):
        fail(f"`linewise {word}`: {point.value} is not a register(commands) function", EXIT_FAILURE)
    return register  # type: ignore[no-any-return]


def chosen_command(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names, when it is a known one and nothing else is asked first.

    The top-level options take no value, so the first word that is not an
    option is the subcommand. ``-h`` before it asks for the full help.
    """
    for word in argv:
        if word in ("-h", "--help") or word == "--":
            return None
        if not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``linewise`` command; returns the exit code.

    Ctrl-C stops any command with "interrupted" and exit 130; SIGTERM (and
    SIGHUP) with its cleanup done and exit 128 + the signal (143); never a traceback.
    """
    from linewise.settings.signals import Terminated, handling, stop_behind

    if argv is None:
        # The command's own process: start-up keeps nearly every object it makes (modules,
        # classes, patterns), so the collector's passes over them during imports find
        # nothing; a larger first generation skips most (2-7% of a one-line render's
        # instructions). A line's objects are freed by reference counting as it is
        # written, so parsing does not trigger passes either way, and objects caught in
        # cycles (a parser's exceptions) wait for at most this many allocations.
        gc.set_threshold(_FIRST_GENERATION)
    # The command's own process ignores signals once the command is done: it only exits
    # then, and Python's own handler would print a traceback for a late Ctrl-C.
    with handling(exiting=argv is None):
        try:
            code = _main(argv)
        except (KeyboardInterrupt, Terminated) as stop:
            code = _stopped(stop)
        except Exception as error:
            # A real signal's exception that Python or a library raised again as another
            # (3.11 makes one landing in a dataclass's __set_name__ a RuntimeError).
            behind = stop_behind(error)
            if behind is None:
                raise
            code = _stopped(behind)
        else:
            return code
    if argv is None:
        # The command's own process, stopped: everything was cleaned up on the way out,
        # and no thread a library left behind may hold the exit up.
        with contextlib.suppress(BaseException):
            sys.stdout.flush()
        os._exit(code)
    return code


def _stopped(stop: BaseException) -> int:
    """Say why the command stopped; its exit code (130 for Ctrl-C, 128 + N for signal N)."""
    from linewise.settings.signals import EXIT_TERMINATED_BASE, Terminated

    if isinstance(stop, Terminated):
        _say(f"stopped by {signal_name(stop.signum)}")
        return EXIT_TERMINATED_BASE + stop.signum
    _say("interrupted")
    return EXIT_INTERRUPTED


def signal_name(signum: int) -> str:
    """``SIGTERM`` for 15."""
    import signal

    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


def _say(message: str) -> None:
    # A second signal while saying so must not print a traceback either.
    with contextlib.suppress(BaseException):
        sys.stderr.write(f"linewise: {message}\n")
        sys.stderr.flush()


def _main(argv: Sequence[str] | None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    command = chosen_command(words)
    extension = None
    word = _first_word(words) if command is None else None
    if word is not None and word not in COMMANDS:
        extension = extension_command(word)
    args = build_parser(command, extension=extension).parse_args(words)

    from linewise.cli.common import (
        EXIT_FAILURE,
        EXIT_OK,
        apply_isolation,
        configure_logging,
        fail,
    )
    from linewise.plugins.registry import get_registry
    from linewise.settings.errors import LinewiseError

    configure_logging(args.verbose)
    if argv is None:
        # The command line of a process of its own: what start-up made lives until
        # exit, so the collector need not walk it again (nor at exit): 6% of the
        # start-up's instructions.
        gc.freeze()
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="replace")
    try:
        registry = get_registry()
        apply_isolation(args, registry)
        return int(args.handler(args, registry))
    except BrokenPipeError:
        # The reader went away (`linewise render x | head`): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except LinewiseError as error:
        fail(str(error), EXIT_FAILURE)
