"""The work done per input log: its run row and its entry rows, as plain picklable values."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import IO, TYPE_CHECKING, Any, Final, cast

import orjson
from linewise_contracts.entries import InitEntry, TranscriptEntry
from linewise_contracts.extract import iso_timestamp

from linewise.export._sources import (
    UnreadableInput,
    opened_input,
    opened_inputs,
    refuse_unread,
)
from linewise.plugins.registry import Registry
from linewise.render.described import DESCRIBED_KINDS, heading
from linewise.transcript.prices import cost_source

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from linewise_contracts.summary import RunSummary

    from linewise.render.redaction.entries import EntryRedactor
    from linewise.stream.diagnostics import Diagnostics
    from linewise.stream.session import TranscriptSession
    from linewise.transcript.run_report import RunReport

__all__ = [
    "ExportFailure",
    "FileExport",
    "Redaction",
    "content_hash",
    "export_file",
    "export_or_fail",
    "run_id",
]

_READ_SIZE: Final = 64 * 1024
# Plugin run-summary details that mean "the run stopped at a limit".
_LIMIT_DETAILS: Final = ("maxTurns", "turnLimit", "providerQuota", "timedOut")
_TEXT_KEYS: Final = ("text", "content")
# Entry fields the entry redactor leaves as they are (they link entries); an export masks
# them too, so that no string column of a row holds a secret.
_LINK_FIELDS: Final = ("ts", "toolUseId", "parentToolUseId")
# Run columns that are linewise's own hex digests, never agent text.
_OWN_COLUMNS: Final = frozenset({"run_id", "content_hash"})


@dataclass(slots=True)
class FileExport:
    """One log's rows: ``run`` (column -> value) and ``entries`` (column -> values)."""

    run: dict[str, Any]
    entries: dict[str, list[Any]] = field(default_factory=dict)
    #: Secrets masked in these rows, by kind (empty without redaction).
    redactions: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Redaction:
    """What ``export --redact`` masks, as plain values: it travels to pool and Dask workers.

    ``values`` are the secret-named environment variables' values of the process
    that started the export (a remote Dask worker's own environment is another);
    ``allow`` lists values never masked (false positives).
    """

    values: tuple[str, ...] = ()
    allow: tuple[str, ...] = ()

    @classmethod
    def for_environment(cls, env: Mapping[str, str], allow: Iterable[str] = ()) -> Redaction:
        """The redaction of ``env``'s secret values and of secrets found by content."""
        from linewise.render.redaction.redactor import secret_variables

        return cls(tuple(secret_variables(env).values()), tuple(allow))

    def redactor(self) -> EntryRedactor:
        """A fresh redactor (one per log: its counts are that log's)."""
        from linewise.render.redaction.entries import EntryRedactor

        return EntryRedactor(self.values, patterns=True, allow=self.allow)


@dataclass(frozen=True, slots=True)
class ExportFailure:
    """An input that could not be exported, and why.

    ``unreadable`` is True when no installed plugin reads it and its lines would
    only be rows of raw bytes (a binary file, a JSON document): found in a
    folder, such a file is left out, not a failure.
    """

    path: str
    reason: str
    unreadable: bool = False


def content_hash(path: str) -> str:
    """SHA-256 of the file's bytes, hex."""
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        while chunk := stream.read(1024 * 1024):
            digest.update(chunk)
    return digest.hexdigest()


def run_id(source_path: str, digest: str) -> str:
    """The run's id: the same log (path and content) always gets the same one."""
    return hashlib.sha256(f"{source_path}\0{digest}".encode()).hexdigest()[:32]


def _utf8(text: str | None) -> str | None:
    # Parquet strings are UTF-8: a lone surrogate (from a JSON "\ud800") cannot be
    # stored, so text columns show U+FFFD there; entry_json keeps the exact value.
    if text is None:
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def entry_json(entry: TranscriptEntry) -> str:
    """The entry as compact JSON, as ``linewise render -f jsonl`` writes it."""
    try:
        return orjson.dumps(entry).decode("utf-8")
    except (TypeError, orjson.JSONEncodeError):  # a lone surrogate: escaped, as render does
        return json.dumps(entry, ensure_ascii=True, separators=(",", ":"))


def _moment(stamp: str | None) -> datetime | None:
    if stamp is None:
        return None
    # Naive UTC: the TIMESTAMP columns hold UTC without a zone (see _schema).
    return datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ")


def _entry_row(entry: TranscriptEntry) -> tuple[Any, ...]:
    values: Any = entry
    text = next((values[key] for key in _TEXT_KEYS if isinstance(values.get(key), str)), None)
    if entry["kind"] in DESCRIBED_KINDS:
        # Contract 1.3's kinds have no text field: the one line every view shows for them.
        text = heading(values)
    name = values.get("name") if entry["kind"] == "tool_call" else values.get("toolName")
    error = values.get("isError")
    delta = values.get("delta")
    return (
        entry["kind"],
        _utf8(entry["ts"]),
        _utf8(text),
        _utf8(name if isinstance(name, str) else None),
        _utf8(values.get("toolUseId")),
        _utf8(values.get("parentToolUseId")),
        error if isinstance(error, bool) else None,
        delta if isinstance(delta, bool) else None,
        entry_json(entry),
    )


_ENTRY_FIELDS: Final = (
    "kind",
    "ts",
    "text",
    "tool_name",
    "tool_use_id",
    "parent_tool_use_id",
    "is_error",
    "delta",
    "entry_json",
)


def export_file(
    path: str,
    adapter_type: str = "auto",
    *,
    registry: Registry | None = None,
    redaction: Redaction | None = None,
) -> FileExport:
    """The rows of one log, read as ``linewise render -f jsonl`` and ``summarize`` read it.

    The adapter type is detected once (as ``summarize`` does) and used for both
    the run facts and the entries, so they always agree. ``registry`` defaults
    to the process's own. With ``redaction``, every string of both rows has its
    secrets masked as ``linewise render --redact`` masks them (streamed fragments
    merged first, so one row holds what several deltas held). Raises OSError
    when the file cannot be read, :class:`UnreadableInput` when no installed plugin reads it
    and its lines would be rows of raw bytes (a binary file, a JSON document: see
    :mod:`linewise.export._sources`). A stored session is read through its plugin.
    """
    from linewise.plugins.registry import get_registry

    source = os.path.abspath(path)
    registry = registry or get_registry()
    digest = content_hash(source)
    stream, adapter_type = opened_input(source, adapter_type, registry)
    with stream:
        return _export_stream(source, stream, adapter_type, digest, registry, redaction)


def export_sessions(
    path: str,
    adapter_type: str = "auto",
    *,
    registry: Registry | None = None,
    redaction: Redaction | None = None,
) -> list[FileExport]:
    """The rows of every session of one input, each its own run.

    A log or a session file is one run, as :func:`export_file` gives it; a store
    file holding several sessions (a database) is one run per session, each
    read through its plugin under its key (:func:`export_file` reads only the
    one ``render PATH`` shows). Raises as :func:`export_file` does.
    """
    from linewise.plugins.registry import get_registry

    source = os.path.abspath(path)
    registry = registry or get_registry()
    digest = content_hash(source)
    exports = []
    for stream, found_type, key in opened_inputs(source, adapter_type, registry):
        with stream:
            exports.append(
                _export_stream(source, stream, found_type, digest, registry, redaction, key)
            )
    return exports


def _export_stream(  # noqa: PLR0917 - export_file's own values, passed on
    source: str,
    stream: IO[bytes],
    adapter_type: str,
    digest: str,
    registry: Registry,
    redaction: Redaction | None,
    key: str | None = None,
) -> FileExport:
    from linewise.plugins.generic import GENERIC_ADAPTER_TYPE
    from linewise.transcript.build import open_session
    from linewise.transcript.run_report import summarize_stream

    report = summarize_stream(stream, source, adapter_type, registry=registry)
    if report.adapter_type == GENERIC_ADAPTER_TYPE:
        refuse_unread(stream, source)  # no parser knew it: rows of its raw lines are no use
    stream.seek(0)
    info = os.stat(source)
    mtime = datetime.fromtimestamp(info.st_mtime, UTC)
    # The ts `render` gives entries of a file: its modification time, in milliseconds.
    ts = mtime.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    parser = registry.load(report.adapter_type)
    session = open_session(report.adapter_type, registry=registry)
    # Each session of a store file holding several is a run of its own.
    identity = run_id(source if key is None else f"{source}\0{key}", digest)
    redactor = redaction.redactor() if redaction is not None else None
    rows = _read_entries(stream, session, ts, redactor)
    rows.columns["run_id"] = [identity] * len(rows.columns["seq"])
    file = _File(source, digest, info.st_size, mtime, identity, parser.label)
    run = _run_row(file, report, rows, session.diagnostics)
    if redactor is None:
        return FileExport(run=run, entries=rows.columns)
    run = {name: _masked(redactor, name, value) for name, value in run.items()}
    return FileExport(run=run, entries=rows.columns, redactions=dict(redactor.counts))


def _masked(redactor: EntryRedactor, name: str, value: Any) -> Any:
    """A run column's value with its secrets masked (strings, and lists of them)."""
    if name in _OWN_COLUMNS:
        return value
    if isinstance(value, str):
        return redactor.text(value)
    if isinstance(value, list):
        return [redactor.text(item) if isinstance(item, str) else item for item in value]
    return value


def _redacted(redactor: EntryRedactor, entries: Iterable[TranscriptEntry]) -> list[TranscriptEntry]:
    """``entries`` masked, their link fields too (what the redactor holds back stays held)."""
    out: list[TranscriptEntry] = []
    for entry in entries:
        out += redactor.entry(entry)
    return [_links_masked(redactor, entry) for entry in out]


def _links_masked(redactor: EntryRedactor, entry: TranscriptEntry) -> TranscriptEntry:
    values: Any = entry
    changed = {
        key: masked
        for key in _LINK_FIELDS
        if isinstance(value := values.get(key), str) and (masked := redactor.text(value)) != value
    }
    return cast("TranscriptEntry", {**entry, **changed}) if changed else entry


@dataclass(frozen=True, slots=True)
class _File:
    """What the run row says of the file itself."""

    source: str
    digest: str
    size: int
    mtime: datetime
    identity: str
    cli: str | None


@dataclass(slots=True)
class _EntryRows:
    """The entry columns of one log, and what the run row takes from its entries.

    ``host_ts`` is the ``ts`` the export gives every line: an entry whose ``ts``
    differs was stamped by its plugin with the line's own time, and only those
    times say when the run started and ended.
    """

    host_ts: str
    columns: dict[str, list[Any]] = field(
        default_factory=lambda: {"run_id": [], "seq": [], **{f: [] for f in _ENTRY_FIELDS}}
    )
    parents: set[str] = field(default_factory=set)
    session_ids: list[str] = field(default_factory=list)
    project: str | None = None  # the first init entry's cwd
    started: str | None = None  # the first own time of an entry
    ended: str | None = None  # the last one

    def add(self, entries: list[TranscriptEntry]) -> None:
        columns = self.columns
        for entry in entries:
            row = _entry_row(entry)
            columns["seq"].append(len(columns["seq"]))
            for name, value in zip(_ENTRY_FIELDS, row, strict=True):
                columns[name].append(value)
            parent = row[5]
            if parent is not None:
                self.parents.add(parent)
            stamp = entry["ts"]
            if stamp not in (self.host_ts, self.ended):
                self._own_time(stamp)
            if entry["kind"] == "init":
                self._init(entry)

    def _own_time(self, stamp: str) -> None:
        # Any plugin's ts: only one iso_timestamp reads (and writes canonically) counts.
        own = iso_timestamp(stamp)
        if own is not None:
            self.started = self.started or own
            self.ended = own

    def _init(self, entry: InitEntry) -> None:
        sid = entry["sessionId"]
        if sid and sid not in self.session_ids:
            self.session_ids.append(sid)
        cwd = entry.get("cwd")
        if self.project is None and isinstance(cwd, str) and cwd:
            self.project = cwd


def _read_entries(
    stream: IO[bytes], session: TranscriptSession, ts: str, redactor: EntryRedactor | None = None
) -> _EntryRows:
    """Every entry of the log through ``session``: the host never looks into its lines."""
    rows = _EntryRows(ts)
    while raw := stream.readline(_READ_SIZE):
        entries = session.feed(raw, ts)
        rows.add(entries if redactor is None else _redacted(redactor, entries))
    last = session.close(ts)
    if redactor is None:
        rows.add(last)
    else:
        rows.add(_redacted(redactor, last))
        rows.add([_links_masked(redactor, entry) for entry in redactor.flush()])
    return rows


def _duration_ms(
    details: dict[str, Any], started: datetime | None, ended: datetime | None
) -> int | None:
    """The run summary's duration, else the span between the log's first and last own time."""
    duration = details.get("durationMs")
    if type(duration) is int and duration >= 0:
        return duration
    if started is not None and ended is not None:
        return int((ended - started).total_seconds() * 1000)
    return None


def _run_row(
    file: _File, report: RunReport, rows: _EntryRows, diagnostics: Diagnostics
) -> dict[str, Any]:
    """The run row: the file, the run summary, the entry counts and the session's diagnostics."""
    summary = report.summary
    session_ids = rows.session_ids
    if summary.session_id and summary.session_id not in session_ids:
        session_ids.append(summary.session_id)
    details = summary.details
    started, ended = _moment(rows.started), _moment(rows.ended)
    outcome = summary.outcome
    hit_limit = any(details.get(key) is True for key in _LIMIT_DETAILS) or bool(
        outcome and "max_turns" in outcome
    )
    return {
        "run_id": file.identity,
        "source_path": _utf8(file.source),
        "content_hash": file.digest,
        "size_bytes": file.size,
        "modified_at": file.mtime.replace(tzinfo=None),
        "adapter_type": report.adapter_type,
        "cli": _utf8(file.cli),
        "detection": _utf8(report.detection),
        "session_id": _utf8(summary.session_id or (session_ids[-1] if session_ids else None)),
        "session_ids": [_utf8(sid) for sid in session_ids],
        "project": _utf8(rows.project),
        "started_at": started,
        "ended_at": ended,
        "duration_ms": _duration_ms(details, started, ended),
        "model": _utf8(summary.model),
        "outcome": _utf8(outcome),
        "status": report.status,
        "complete": report.complete,
        "is_error": summary.is_error,
        "hit_limit": hit_limit,
        "turns": summary.turns,
        "tool_calls": report.stats.tool_calls,
        "tool_errors": report.stats.tool_errors,
        "errors": len(summary.errors),
        "error_messages": [_utf8(message) for message in summary.errors],
        **_token_columns(summary),
        "cost_usd": summary.cost_usd,
        "cost_source": cost_source(summary),
        "price_data": (
            report.estimate.price_data
            if report.estimate is not None and summary.cost_source == "estimated"
            else None
        ),
        "subagents": len(rows.parents),
        "entries": len(rows.columns["seq"]),
        "lines": diagnostics.lines,
        "fallback_lines": diagnostics.fallback_lines,
        "dropped_entries": diagnostics.dropped_entries,
        "parser_errors": diagnostics.parser_errors,
        "truncated_lines": diagnostics.truncated_lines,
        "summary_source": report.summary_source,
        "details_json": json.dumps(details, ensure_ascii=True, sort_keys=True),
    }


def export_or_fail(
    path: str, redaction: Redaction | None = None
) -> list[FileExport] | ExportFailure:
    """:func:`export_sessions`, with a failure as a value: one bad input never stops an export."""
    try:
        return export_sessions(path, redaction=redaction)
    except OSError as error:
        return ExportFailure(path, f"cannot read it: {error.strerror or error}")
    except UnreadableInput as error:
        return ExportFailure(path, str(error), unreadable=True)
    except Exception as error:  # a bug must not cost the other inputs their rows
        return ExportFailure(path, f"{type(error).__name__}: {error}")


def _token_columns(summary: RunSummary) -> dict[str, int | None]:
    """The run's tokens in the usage vocabulary; null (never 0) where the CLI reported none.

    An older plugin's wire-format usage (no vocabulary) keeps its three counts
    as the CLI reported them.
    """
    from linewise.render.outcome import summary_tokens, summary_tokens_known

    tokens = summary_tokens(summary)
    if tokens is None:
        usage = summary.usage
        known = summary_tokens_known(summary)
        return {
            "input_tokens": usage.input_tokens if known else None,
            "uncached_input_tokens": None,
            "cached_tokens": usage.cached_tokens if known else None,
            "cache_write_tokens": None,
            "output_tokens": usage.output_tokens if known else None,
            "reasoning_tokens": None,
        }
    return {
        "input_tokens": tokens.total_input,
        "uncached_input_tokens": tokens.uncached_input,
        "cached_tokens": tokens.cache_read,
        "cache_write_tokens": tokens.cache_write,
        "output_tokens": tokens.output,
        "reasoning_tokens": tokens.reasoning,
    }
