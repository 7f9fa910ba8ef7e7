"""``linewise export``: logs to Parquet tables (runs, entries) for analytics."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from linewise.cli.common import EXIT_FAILURE, EXIT_OK, EXIT_USAGE, fail, positive_int
from linewise.cli.options import add_redact
from linewise.plugins.registry import Registry
from linewise.settings.sanitising import neutralize

if TYPE_CHECKING:
    from linewise.render.progress import ProgressBar

__all__ = ["register"]


def register(commands: Any) -> None:
    """Add the ``export`` subcommand."""
    export = commands.add_parser(
        "export",
        help="export logs to Parquet (runs.parquet, entries.parquet) for SQL analytics",
        description="Export agent logs to Parquet: runs.parquet (one row per log) and "
        "entries.parquet (one row per entry), to query with `linewise query`. "
        "Needs the export extra: pip install 'linewise[export]'.",
    )
    export.add_argument(
        "paths", nargs="*", metavar="PATH", help="log files, or folders to walk for them"
    )
    export.add_argument(
        "--sessions",
        action="store_true",
        help="export the sessions the CLIs keep on disk (those `linewise sessions` lists), "
        "with or instead of PATHs",
    )
    export.add_argument(
        "--cli", metavar="NAME", help="with --sessions: only this CLI's sessions (claude, codex...)"
    )
    export.add_argument(
        "--since",
        metavar="DATE",
        help="with --sessions: only sessions active since DATE (2026-01-31, UTC)",
    )
    export.add_argument("--to", required=True, metavar="DIR", help="the folder to write to")
    export.add_argument(
        "--append",
        action="store_true",
        help="keep the runs already in DIR and skip inputs already exported (same path and "
        "content hash); a log whose content changed replaces its old rows",
    )
    export.add_argument(
        "--engine",
        choices=("process", "dask"),
        default="process",
        help="process: a pool of processes on this machine (the default); "
        "dask: Dask distributed (pip install 'linewise[dask]')",
    )
    export.add_argument(
        "-j",
        "--workers",
        type=positive_int,
        metavar="N",
        help="worker processes (default: one per core); with --engine dask, the size of "
        "the local cluster",
    )
    export.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="with --engine dask: a running scheduler (tcp://host:8786) instead of a local "
        "cluster (Dask's own configuration is used when set)",
    )
    export.add_argument(
        "--glob",
        metavar="PATTERN",
        help="in folders, only files whose name matches (for example '*.jsonl')",
    )
    export.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    add_redact(export)
    export.set_defaults(handler=run)


def _redactions(counts: dict[str, int]) -> str:
    """The secrets masked, as ``render --redact`` counts them: ``3 secrets redacted (jwt 3)``."""
    total = sum(counts.values())
    noun = "secret" if total == 1 else "secrets"
    if not total:
        return f"0 {noun} redacted"
    kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(counts.items()))
    return f"{total} {noun} redacted ({kinds})"


class _Progress:
    """A progress bar over the inputs' bytes, created on the first report, on a terminal only."""

    def __init__(self) -> None:
        self.bar: ProgressBar | None = None

    def __call__(self, done: int, total: int) -> None:
        from linewise.render.progress import ProgressBar

        if self.bar is None:
            self.bar = ProgressBar(sys.stderr, total)
        self.bar.update(done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _session_files(args: argparse.Namespace, registry: Registry) -> list[str]:
    """The files of the sessions ``linewise sessions --cli --since`` lists, each once.

    A store file holding several sessions (a database) is one input, as when
    named: it is read as ``render`` reads it.
    """
    from linewise.sessions import find_sessions
    from linewise.sessions.inputs import terminal_progress

    progress, done = terminal_progress()
    try:
        found = find_sessions(cli=args.cli, since=args.since, registry=registry, progress=progress)
    except ValueError as error:
        fail(str(error), EXIT_USAGE)
    finally:
        done()
    return list(dict.fromkeys(info.path for info in found))


def run(args: argparse.Namespace, registry: Registry) -> int:
    """Export the logs named."""
    from linewise.export import MissingExtraError, export_logs
    from linewise.render.progress import ProgressBar

    if args.scheduler and args.engine != "dask":
        fail("--scheduler needs --engine dask", EXIT_USAGE)
    if not args.sessions and (args.cli is not None or args.since is not None):
        fail("--cli and --since choose sessions: give them with --sessions", EXIT_USAGE)
    if not args.paths and not args.sessions:
        fail("give the PATHs to export, or --sessions", EXIT_USAGE)
    paths = list(args.paths)
    if args.sessions:
        paths.extend(_session_files(args, registry))
    progress = _Progress() if not args.quiet and ProgressBar.wanted(sys.stderr) else None
    try:
        result = export_logs(
            paths,
            args.to,
            engine=args.engine,
            workers=args.workers,
            scheduler=args.scheduler,
            append=args.append,
            pattern=args.glob,
            progress=progress,
            redact=args.redact,
            redact_allow=args.redact_allow,
        )
    except MissingExtraError as error:
        fail(str(error), EXIT_FAILURE)
    except OSError as error:
        fail(f"cannot write to {args.to}: {error.strerror or error}", EXIT_FAILURE)
    finally:
        if progress is not None:
            progress.close()
    err = sys.stderr
    for path in result.missing:
        err.write(f"linewise: error: no such file or folder: {neutralize(path)}\n")
    for failure in result.failures:
        err.write(f"linewise: error: {neutralize(failure.path)}: {neutralize(failure.reason)}\n")
    for left in result.left_out:
        err.write(f"linewise: warning: {neutralize(left.path)}: {neutralize(left.reason)}\n")
    parts = [f"exported {result.exported} of {result.inputs} logs"]
    if result.skipped:
        parts.append(f"{result.skipped} already exported")
    if result.replaced:
        parts.append(f"{result.replaced} replaced (content changed)")
    if result.failures:
        parts.append(f"{len(result.failures)} failed")
    if result.left_out:
        parts.append(f"{len(result.left_out)} left out (found in a folder, not agent output)")
    parts.append(f"{result.runs} runs and {result.entries} entries in {result.directory}")
    if args.redact:
        parts.append(_redactions(result.redactions))
    err.write(f"linewise: {neutralize(', '.join(parts))}\n")
    return EXIT_FAILURE if result.missing or result.failures else EXIT_OK
