"""``export_logs``: logs in, runs.parquet and entries.parquet out, incrementally if asked."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from linewise.export._engines import ENGINES, Result, dask_results, process_results
from linewise.export._extras import require
from linewise.export._folder import (
    InconsistentExportError,
    Stamp,
    check_pair,
    commit,
    writing,
)
from linewise.export._inputs import collect_inputs
from linewise.export._schema import ENTRIES_COLUMNS, RUNS_COLUMNS, arrow_schema
from linewise.export._work import ExportFailure, Redaction, content_hash
from linewise.export._writer import TableWriter
from linewise.settings.errors import LinewiseError

__all__ = ["ENTRIES_FILE", "RUNS_FILE", "ExportError", "ExportResult", "export_logs"]

RUNS_FILE: Final = "runs.parquet"
ENTRIES_FILE: Final = "entries.parquet"
#: Rows read at a time from an earlier export that --append keeps.
ROWS_PER_BATCH: Final = 64 * 1024


class ExportError(LinewiseError):
    """An export that cannot be done as asked (for example appending to a damaged export)."""


@dataclass(slots=True)
class ExportResult:
    """What an export did."""

    directory: str
    inputs: int = 0
    exported: int = 0
    skipped: int = 0
    replaced: int = 0
    missing: list[str] = field(default_factory=list)
    failures: list[ExportFailure] = field(default_factory=list)
    #: Files found in a folder that are not agent output no installed plugin reads (a
    #: subagent's ``.meta.json`` beside its records, a database): not exported, not failures.
    left_out: list[ExportFailure] = field(default_factory=list)
    runs: int = 0
    entries: int = 0
    bytes_read: int = 0
    #: With ``redact``: the secrets masked in the rows this export wrote, by kind.
    redactions: dict[str, int] = field(default_factory=dict)


def _previous(directory: str) -> tuple[dict[str, tuple[str, str]], Any, Any]:
    """The earlier export in ``directory``: run id -> (source path, content hash), and its
    two files (or None)."""
    pq = require("export", "pyarrow.parquet")
    runs_path = os.path.join(directory, RUNS_FILE)
    entries_path = os.path.join(directory, ENTRIES_FILE)
    if not (os.path.exists(runs_path) and os.path.exists(entries_path)):
        return {}, None, None
    known: dict[str, tuple[str, str]] = {}
    try:
        runs, entries = pq.ParquetFile(runs_path), pq.ParquetFile(entries_path)
        for path, table, columns in (
            (runs_path, runs, RUNS_COLUMNS),
            (entries_path, entries, ENTRIES_COLUMNS),
        ):
            if not table.schema_arrow.equals(arrow_schema(columns)):
                raise ValueError(f"{path} has other columns than this version of linewise writes")
        check_pair(directory, runs, entries)
        for batch in runs.iter_batches(columns=["run_id", "source_path", "content_hash"]):
            sources = zip(batch.column(1).to_pylist(), batch.column(2).to_pylist(), strict=True)
            known.update(zip(batch.column(0).to_pylist(), sources, strict=True))
    except InconsistentExportError as error:
        raise ExportError(
            f"cannot append: {error}; export without --append to replace it"
        ) from error
    except Exception as error:  # pyarrow's errors for a damaged or foreign file
        raise ExportError(
            f"cannot append to {directory}: {error}; export without --append to replace it"
        ) from error
    return known, runs, entries


def _kept(previous: Any, keep: set[str]) -> Iterator[Any]:
    """The batches of an earlier file, only the rows of runs in ``keep``."""
    pc = require("export", "pyarrow.compute")
    pa = require("export", "pyarrow")
    wanted = pa.array(sorted(keep), type=pa.string())
    for batch in previous.iter_batches(batch_size=ROWS_PER_BATCH):
        yield batch.filter(pc.is_in(batch.column("run_id"), value_set=wanted))


def _todo(
    inputs: list[str], known: dict[str, tuple[str, str]], result: ExportResult
) -> tuple[list[str], set[str]]:
    """The inputs to export, and the earlier runs to keep: those of logs not exported again.

    An input already exported (same path, same content: a file holding several sessions
    gave one run each, all with its path and hash) is skipped, counted in ``result``;
    the earlier runs of a log whose content changed are replaced, counted too.
    """
    exported = set(known.values())
    todo: list[str] = []
    for path in inputs:
        if known:
            try:
                if (path, content_hash(path)) in exported:
                    result.skipped += 1
                    continue
            except OSError:
                pass  # the worker reports it
        todo.append(path)
    renewed = set(todo)
    keep = {rid for rid, (source, _) in known.items() if source not in renewed}
    result.replaced = len(known) - len(keep)
    return todo, keep


def export_logs(
    paths: Iterable[str],
    directory: str,
    *,
    engine: str = "process",
    workers: int | None = None,
    scheduler: str | None = None,
    append: bool = False,
    pattern: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    redact: bool = False,
    redact_allow: Iterable[str] = (),
) -> ExportResult:
    """Export logs (files, and the files under folders) to ``directory``.

    Writes ``runs.parquet`` (one row per log) and ``entries.parquet`` (one row
    per entry), replacing what was there. With ``append``, the runs already in
    ``directory`` stay and inputs already exported (same path, same content
    hash) are skipped; a log whose content changed since replaces its old rows.
    Rows are in input order (sorted paths), so the same inputs give identical
    files whatever the engine. ``progress(done_bytes, total_bytes)`` is called
    after each input. Unreadable inputs are listed in the result, never fatal.
    With ``redact``, every string of the rows written has its secrets masked as
    ``linewise render --redact`` masks them (found by content, and the values of
    this process's secret-named environment variables), except the values in
    ``redact_allow``; rows an ``append`` keeps stay as they were written.
    """
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; expected one of {', '.join(ENGINES)}")
    require("export", "pyarrow")
    from linewise.export._engines import default_workers

    workers = workers or default_workers()
    os.makedirs(directory, exist_ok=True)
    # The export's own folder is never an input, even inside a folder being walked.
    inputs, missing, named = collect_inputs(paths, pattern, exclude=directory)
    result = ExportResult(directory=directory, inputs=len(inputs), missing=missing)
    redaction = Redaction.for_environment(os.environ, redact_allow) if redact else None
    with writing(directory):
        _write(directory, inputs, result, engine, workers, scheduler, append, progress, redaction)
    # Named, an unreadable file is the user's mistake; found in a folder, it is not a log.
    result.left_out = [f for f in result.failures if f.unreadable and f.path not in named]
    result.failures = [f for f in result.failures if not f.unreadable or f.path in named]
    return result


def _write(  # noqa: PLR0917 - export_logs's own options, passed on
    directory: str,
    inputs: list[str],
    result: ExportResult,
    engine: str,
    workers: int,
    scheduler: str | None,
    append: bool,
    progress: Callable[[int, int], None] | None,
    redaction: Redaction | None,
) -> None:
    """The read-modify-write of one export, under the folder's lock."""
    known, old_runs, old_entries = _previous(directory) if append else ({}, None, None)
    todo, keep = _todo(inputs, known, result)
    sizes = {path: _size(path) for path in todo}
    total = sum(sizes.values())
    results: Iterator[Result]
    if engine == "dask":
        results = dask_results(todo, workers=workers, scheduler=scheduler, redaction=redaction)
    else:
        results = process_results(todo, workers, redaction)
    runs = TableWriter(os.path.join(directory, RUNS_FILE), RUNS_COLUMNS)
    try:
        entries = TableWriter(os.path.join(directory, ENTRIES_FILE), ENTRIES_COLUMNS)
    except BaseException:
        runs.abort()
        raise
    # The export's identity: a digest of its run ids in order (so the same export gives
    # the same bytes), stamped on both tables so a reader can tell they belong together.
    identity = hashlib.sha256()
    try:
        if old_runs is not None and keep:
            for batch in _kept(old_runs, keep):
                for kept_id in batch.column("run_id").to_pylist():
                    identity.update(kept_id.encode() + b"\0")
                runs.add_batch(batch)
            for batch in _kept(old_entries, keep):
                entries.add_batch(batch)
        done = 0
        for path, item in zip(todo, results, strict=True):
            done += sizes[path]
            if isinstance(item, ExportFailure):
                result.failures.append(item)
            else:
                for one in item:  # one run per session (several of a store file)
                    identity.update(one.run["run_id"].encode() + b"\0")
                    runs.add({name: [value] for name, value in one.run.items()})
                    entries.add(one.entries)
                    for kind, count in one.redactions.items():
                        result.redactions[kind] = result.redactions.get(kind, 0) + count
                result.exported += 1
                result.bytes_read += sizes[path]
            if progress is not None:
                progress(done, total)
        stamp = Stamp(identity.hexdigest()[:32], runs.rows, entries.rows)
        runs.finish(stamp)
        entries.finish(stamp)
        commit(directory, {RUNS_FILE: runs.temporary, ENTRIES_FILE: entries.temporary})
    except BaseException:
        runs.abort()
        entries.abort()
        raise
    result.runs = runs.rows
    result.entries = entries.rows


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0
