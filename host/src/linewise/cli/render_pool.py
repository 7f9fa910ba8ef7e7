"""``linewise render a.log b.log ...``: several logs rendered by a pool of processes, in order.

Each log is rendered by :func:`linewise.cli.commands.rendering.run` in a worker process
into a temporary file (the rendered bytes: no entry crosses between processes),
with its warnings and diagnostics captured; the parent copies each transcript
to the output in the order the logs were given, as soon as it and those before
it are done, and each log's messages to stderr, named after the log. The
largest logs are started first, so no process is left with a big one at the end
while the others wait. A log that cannot be read is an error for that log only: the
others are still rendered, and the exit code is the worst of them.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import io
import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Final, TextIO

from linewise.cli.common import configure_logging, fail, positive_int
from linewise.settings.defaults import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    READ_SIZE,
)
from linewise.settings.logs import LOGGER_NAME
from linewise.settings.sanitising import neutralize

if TYPE_CHECKING:
    from concurrent.futures import Future

    from linewise.plugins.registry import Registry

__all__ = ["WORK_PER_PROCESS", "default_jobs", "largest_first", "planned_jobs", "render_paths"]

#: One log's result: its exit code and what it wrote to stderr.
Outcome = tuple[int, str]
#: Bytes of logs worth one more process (about what starting one costs) when --jobs is not given.
WORK_PER_PROCESS: Final = 2_000_000


def default_jobs() -> int:
    """The cores this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def planned_jobs(paths: list[str], requested: int | None, cores: int) -> int:
    """How many processes render ``paths``: as asked, else one per core and per 2 MB of logs."""
    if requested is not None:
        return max(1, min(requested, len(paths)))
    total = 0
    for path in paths:
        with contextlib.suppress(OSError):
            total += os.stat(path).st_size
    return max(1, min(cores, len(paths), total // WORK_PER_PROCESS))


def render_paths(args: argparse.Namespace, registry: Registry) -> int:
    """``linewise render``: one log as before, or several through the pool.

    Each log is rendered by ``args.render_one(args, registry)`` (the render
    command's own function, set by its parser), here or in a worker process.
    """
    if not args.paths:
        # `cat run.jsonl | linewise render`: a pipe or a file on stdin is the log.
        if _interactive(sys.stdin):
            fail("give a log to render: linewise render PATH (or pipe one to stdin)", EXIT_USAGE)
        args.paths = ["-"]
    if len(args.paths) == 1:
        args.path = args.paths[0]
        return int(args.render_one(args, registry))
    _check_several(args)
    import tempfile

    _remove_stale_folders(tempfile.gettempdir())
    with tempfile.TemporaryDirectory(prefix=f"{_FOLDER_PREFIX}{os.getpid()}-") as folder:
        return _render_several(args, registry, folder)


#: The pool's temporary folder: this prefix, then the pid of the render that made it.
_FOLDER_PREFIX: Final = "linewise-render-"


def _remove_stale_folders(parent: str) -> None:
    """Temporary folders of renders that were killed (their pid is gone) and could not clean up."""
    import shutil

    try:
        names = os.listdir(parent)
    except OSError:
        return
    for name in names:
        if not name.startswith(_FOLDER_PREFIX):
            continue
        pid = name[len(_FOLDER_PREFIX) :].partition("-")[0]
        if pid.isdigit() and not _alive(int(pid)):
            folder = os.path.join(parent, name)
            with contextlib.suppress(OSError):
                if os.stat(folder).st_uid == os.getuid():  # type: ignore[attr-defined,unused-ignore]
                    shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    if sys.platform == "win32":
        return True  # os.kill there would end the process, not probe it
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # someone else's: not ours to judge
    return True


def _interactive(stream: Any) -> bool:
    """True unless a log is piped in: ``stream`` is a pipe, a socket or a redirected file.

    A terminal, ``/dev/null`` or a stream without a descriptor (an embedding
    app's) is nobody piping a log: ``render`` then asks for PATH.
    """
    import stat

    try:
        mode = os.fstat(stream.fileno()).st_mode
    except (AttributeError, ValueError, OSError):
        return True
    return not (stat.S_ISFIFO(mode) or stat.S_ISREG(mode) or stat.S_ISSOCK(mode))


def _check_several(args: argparse.Namespace) -> None:
    if "-" in args.paths:
        fail("- (stdin) can only be rendered alone", EXIT_USAGE)
    if args.follow:
        fail("--follow follows one log: give one PATH", EXIT_USAGE)
    if args.format == "html":
        fail("--format html draws one log per page: render each log with its own -o", EXIT_USAGE)
    if args.output not in (None, "-") and os.path.exists(args.output):
        for path in args.paths:
            with contextlib.suppress(OSError):
                if os.path.samefile(path, args.output):
                    fail(f"the output {args.output} is the input log {path}", EXIT_USAGE)


def _render_several(args: argparse.Namespace, registry: Registry, folder: str) -> int:
    from linewise.cli.entry_stream import entry_stream
    from linewise.render import use_color

    output_file = None
    with contextlib.ExitStack() as stack:
        if args.output in (None, "-"):
            out = stack.enter_context(entry_stream())
        else:
            from linewise.cli.output_file import OutputError, opened

            try:
                output_file = opened(args.output, stack)  # only a whole transcript replaces it
            except OutputError as error:
                fail(str(error), EXIT_FAILURE)
            out = output_file.stream
        settings = dict(vars(args))
        settings["color"] = "always" if use_color(out, args.color) else "never"
        settings.pop("handler", None)
        jobs = planned_jobs(args.paths, args.jobs, default_jobs())
        tasks = [
            (settings, path, os.path.join(folder, f"{index}.out"))
            for index, path in enumerate(args.paths)
        ]
        worst = EXIT_OK
        try:
            for (_, path, rendered), outcome in zip(
                tasks, _outcomes(tasks, jobs, registry), strict=True
            ):
                worst = max(worst, _deliver(path, rendered, outcome, out, args))
        except KeyboardInterrupt:
            sys.stderr.write("linewise: interrupted\n")
            return EXIT_INTERRUPTED
        if output_file is not None:
            output_file.commit()
    return worst


def _outcomes(
    tasks: list[tuple[dict[str, Any], str, str]], jobs: int, registry: Registry
) -> Iterator[Outcome]:
    """Each log's outcome, in the order given; ``jobs`` processes render them."""
    if jobs == 1:
        for task in tasks:
            yield _render_one(*task, registry)
        return
    import multiprocessing

    from linewise.settings.workers import worker_pool

    # fork starts a worker with the registry already scanned; elsewhere the default.
    context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
    # Workers die with this process: a kill of render leaves none running.
    with worker_pool(jobs, context=context, initializer=_quiet_stdout) as pool:
        started: dict[int, Future[Outcome]] = {}
        for index in largest_first([path for _, path, _ in tasks]):
            started[index] = pool.submit(_render_one, *tasks[index])
        futures = [started[index] for index in range(len(tasks))]
        try:
            for future in futures:
                yield _result(future)
        finally:
            for future in futures:
                future.cancel()


def largest_first(paths: list[str]) -> list[int]:
    """The indexes of ``paths``, the largest file first (ties and unreadable ones in order)."""

    def size(index: int) -> int:
        try:
            return os.stat(paths[index]).st_size
        except OSError:
            return 0

    return sorted(range(len(paths)), key=lambda index: -size(index))


def _result(future: Future[Outcome]) -> Outcome:
    try:
        return future.result()
    except Exception as error:  # a worker that died or a bug: this log fails, others go on
        return (
            EXIT_FAILURE,
            f"linewise: error: rendering stopped: {type(error).__name__}: {error}\n",
        )


def _quiet_stdout() -> None:
    """In a worker, whatever plugin code prints goes to stderr, never into the transcript."""
    sys.stdout.flush()
    os.dup2(2, 1)
    sys.stdout = sys.stderr


def _render_one(
    settings: dict[str, Any], path: str, rendered: str, registry: Registry | None = None
) -> Outcome:
    """Render one log to the file ``rendered``; its exit code and its stderr text."""
    from linewise.settings.errors import LinewiseError

    args = argparse.Namespace(**{**settings, "path": path, "output": rendered})
    captured = io.StringIO()
    import logging

    real = logging.getLogger(LOGGER_NAME)
    handlers = real.handlers[:]
    with contextlib.redirect_stderr(captured), contextlib.redirect_stdout(captured):
        configure_logging(args.verbose)  # warnings land in `captured` too (logging is imported)
        try:
            code = args.render_one(args, registry or _own_registry(args))
        except SystemExit as stop:  # fail(): the message is on the captured stderr
            code = stop.code if isinstance(stop.code, int) else EXIT_FAILURE
        except LinewiseError as error:
            captured.write(f"linewise: error: {neutralize(str(error))}\n")
            code = EXIT_FAILURE
        finally:
            real.handlers[:] = handlers
    return code, captured.getvalue()


def _own_registry(args: argparse.Namespace) -> Registry:
    """A pool worker's registry, with the command's isolation options.

    Forked, it is the parent's: its isolated parsers' workers belong to the
    parent, so they are dropped here and this process starts its own.
    """
    from linewise.cli.common import apply_isolation
    from linewise.plugins.registry import get_registry

    registry = get_registry()
    apply_isolation(args, registry)
    if registry.isolation.active:
        policy = registry.isolation
        registry.isolate(
            policy.names, line_timeout=policy.line_timeout, worker_memory=policy.worker_memory
        )
    return registry


def _deliver(
    path: str, rendered: str, outcome: Outcome, out: TextIO, args: argparse.Namespace
) -> int:
    """Copy one log's transcript to ``out`` and its messages to stderr; its exit code."""
    code, messages = outcome
    if os.path.exists(rendered):
        if args.format == "text":
            out.write(f"==> {neutralize(path)} <==\n")
        _copy(rendered, out, binary=args.format == "jsonl" or _utf8(out))
        os.unlink(rendered)
    named = f"linewise: {neutralize(path)}: "
    for line in messages.splitlines():
        sys.stderr.write(named + line.removeprefix("linewise: ") + "\n")
    sys.stderr.flush()
    return code


def _utf8(out: TextIO) -> bool:
    """True when ``out`` writes UTF-8 with a buffer beneath: a rendered file's bytes are then
    exactly what writing its text would give (workers write UTF-8, errors replaced)."""
    try:
        return codecs.lookup(out.encoding or "").name == "utf-8" and hasattr(out, "buffer")
    except LookupError:
        return False


def _copy(rendered: str, out: TextIO, *, binary: bool) -> None:
    """The rendered file onto ``out``: its bytes (JSON lines, or text to a UTF-8 stream), else
    its text in out's encoding."""
    if binary:
        out.flush()
        with open(rendered, "rb") as source:
            while data := source.read(READ_SIZE):
                out.buffer.write(data)
        out.buffer.flush()
        return
    with open(rendered, encoding="utf-8", errors="replace", newline="") as text:
        while chunk := text.read(READ_SIZE):
            out.write(chunk)


def add_jobs(render: argparse.ArgumentParser) -> None:
    """``-j/--jobs N``: how many processes render several logs."""
    render.add_argument(
        "-j",
        "--jobs",
        type=positive_int,
        metavar="N",
        help="render several logs with N processes (default: one per core, "
        "and fewer for less than 2 MB of logs per process)",
    )
