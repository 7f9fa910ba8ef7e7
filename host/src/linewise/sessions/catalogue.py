"""The sessions on this machine: found, resolved, summarised and transcribed through the plugins.

A plugin whose adapter type reads a CLI's session files declares where they
live (``session_stores``) and, when they are not one JSON line per record, how
to read one (``session_records``, ``session_keys``): see
:mod:`linewise_contracts.sessions`. The host finds the files, reads each
through the ordinary pipeline (the same parser, safety net and validation as
stdout), keeps what each came to in a private cache, and lists, searches and
renders them. Nothing leaves the machine.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from linewise.plugins.generic import GENERIC_ADAPTER_TYPE
from linewise.plugins.registry import Registry, get_registry
from linewise.sessions._facts import SessionInfo, utc_iso
from linewise.sessions._find import (
    NOT_READ_YET,
    Progress,
    SessionQuery,
    list_sessions,
    lookup_session,
    parse_since,
)
from linewise.sessions._memo import FactsMemo
from linewise.sessions._stores import SessionFile, excluded, store_declarations, stores_of
from linewise.sessions.records import session_lines, sniffed_type

if TYPE_CHECKING:
    from linewise_contracts.sessions import SessionStore
    from linewise_contracts.summary import RunSummary

    from linewise.transcript.build import Transcript

__all__ = [
    "NOT_READ_YET",
    "FactsMemo",
    "SessionInfo",
    "SessionQuery",
    "SessionSource",
    "all_facts",
    "cache_folder",
    "file_session",
    "find_sessions",
    "known_stores",
    "resolve_session",
    "session_summary",
    "store_type",
    "transcribe_session",
]


@dataclass(frozen=True, slots=True)
class SessionSource:
    """Where a session is and which adapter type reads it; ``reason`` says how that was decided."""

    adapter_type: str
    path: Path
    key: str | None
    reason: str
    info: SessionInfo | None = None


def find_sessions(
    *,
    cli: str | None = None,
    project: str | None = None,
    since: str | date | datetime | None = None,
    search: str | None = None,
    limit: int | None = None,
    registry: Registry | None = None,
    environ: Mapping[str, str] | None = None,
    home: Path | None = None,
    use_cache: bool = True,
    progress: Progress | None = None,
    workers: int | None = None,
) -> list[SessionInfo]:
    """Every session the installed plugins' stores hold, newest first, as :class:`SessionInfo`.

    ``cli`` keeps one CLI's sessions (``"claude"``); ``project`` those whose
    working directory (or path) holds the text; ``since`` those active since a
    date or time (a naive time is UTC); ``search`` those whose message text
    holds the text (case ignored). ``environ`` and ``home`` stand for
    ``os.environ`` and the user's home (the CLIs' own variables, such as
    ``CLAUDE_CONFIG_DIR``, are read from ``environ``); ``LINEWISE_CACHE_DIR``
    there moves the facts cache. ``progress(done, total)`` is told the bytes read.
    Sessions not cached yet are read by ``workers`` processes (1: in this one; by
    default one per core when there are many to read, else this one); a session
    whose reading kills its worker is listed unread, with that as its ``problem``.
    """
    query = SessionQuery(
        cli=cli,
        project=project,
        since=_since(since),
        search=search,
        limit=limit,
    )
    return list_sessions(
        query,
        registry=registry,
        environ=environ,
        home=home,
        use_cache=use_cache,
        progress=progress,
        workers=workers,
    )


def all_facts(
    *,
    registry: Registry | None = None,
    environ: Mapping[str, str] | None = None,
    home: Path | None = None,
    memo: FactsMemo | None = None,
    read_new: bool = True,
    workers: int | None = None,
) -> list[SessionInfo]:
    """Every session's facts, newest first: for a program that lists them all, again and
    again (the web app's list page).

    The same facts, order and cache as ``linewise sessions`` and
    :func:`find_sessions` (a session one of them read, the others do not read
    again), found the fast way. Each call lists the store folders
    (:func:`os.scandir`) and stats every session file, once; a session whose
    file's size, mtime_ns and reader (linewise, plugin and price-table versions)
    are unchanged is not opened. Its facts come from ``memo`` when given (what
    this process listed before: pass one :class:`FactsMemo` to every call), else
    from the facts cache, every row read in one query. Warm, in a process that
    listed them before, 10,000 sessions took 0.11 to 0.15 s with a memo and
    0.24 to 0.31 s without (the install users get, on the shared 2-core machine
    of ``benchmarks/sessions_bench.py`` at load average 4; that benchmark times
    the whole ``linewise sessions`` command).

    Sessions new or changed since are read through their plugins now (in a
    pool of processes when there are many, see :func:`find_sessions`) and
    cached; with ``read_new=False`` they are not read: each is listed unread,
    with :data:`NOT_READ_YET` as its ``problem``, status and outcome ``unknown``,
    so a page can answer at once and a later call (or ``linewise sessions``)
    reads them. ``registry``, ``environ`` and ``home`` are as for
    :func:`find_sessions`; ``LINEWISE_CACHE_DIR`` in ``environ`` moves the cache.
    """
    from linewise.sessions._find import all_facts as listed

    return listed(
        registry=registry,
        environ=environ,
        home=home,
        memo=memo,
        read_new=read_new,
        workers=workers,
    )


def _since(value: str | date | datetime | None) -> str | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        moment = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
        normal = utc_iso(moment.isoformat())
        assert normal is not None
        return normal
    if isinstance(value, date):
        return parse_since(value.isoformat())
    return parse_since(value)


def known_stores(
    *,
    registry: Registry | None = None,
    environ: Mapping[str, str] | None = None,
    home: Path | None = None,
) -> list[tuple[str, SessionStore]]:
    """Every store the installed plugins declare on this machine: (adapter type, store)."""
    registry = registry or get_registry()
    environ = os.environ if environ is None else environ
    home = Path.home() if home is None else home
    return [
        (found.adapter_type, found.store)
        for declared in store_declarations(registry)
        for found in stores_of(declared, environ, home, registry)
    ]


def store_type(
    path: Path,
    *,
    registry: Registry | None = None,
    environ: Mapping[str, str] | None = None,
    home: Path | None = None,
) -> str | None:
    """The adapter type whose store holds ``path`` (by the store's layout), or None."""
    registry = registry or get_registry()
    environ = os.environ if environ is None else environ
    home = Path.home() if home is None else home
    target = path.resolve()
    for declared in store_declarations(registry):
        for found in stores_of(declared, environ, home, registry):
            store = found.store
            try:
                relative = target.relative_to(store.root.resolve()).as_posix()
            except (ValueError, OSError):
                continue
            if excluded(relative, store.patterns) and not excluded(relative, store.exclude):
                return declared.adapter_type
    return None


def cache_folder(
    *, environ: Mapping[str, str] | None = None, home: Path | None = None
) -> Path | None:
    """The folder of linewise's caches (the facts cache's), where host apps keep theirs.

    ``LINEWISE_CACHE_DIR`` in ``environ``, else the platform's user cache folder;
    None when caching is off (``LINEWISE_CACHE_DIR`` set but empty).
    """
    from linewise.settings.cache_folder import cache_folder as folder

    return folder(os.environ if environ is None else environ, home)


def file_session(path: str | os.PathLike[str], *, registry: Registry | None = None) -> SessionInfo:
    """The facts of one log or session file given by path, read now (never cached).

    Its type is detected as :func:`resolve_session` detects it; a file no installed
    parser recognises is read as raw lines (adapter type ``generic``), whose facts
    carry no usage. Raises OSError when the file cannot be read.
    """
    from linewise.sessions._facts import read_facts

    registry = registry or get_registry()
    source = resolve_session(path, registry=registry)
    adapter_type = source.adapter_type
    found = _on_disk(adapter_type, adapter_type.split("_", 1)[0], Path(path), None)
    return read_facts(found, registry.load(adapter_type), registry)[0]


def _on_disk(adapter_type: str, cli: str, path: Path, key: str | None) -> SessionFile:
    """The session file at ``path`` with its size and mtime now (OSError when unreadable)."""
    status = path.stat()
    return SessionFile(adapter_type, cli, path, key, status.st_size, status.st_mtime_ns)


def session_summary(info: SessionInfo, *, registry: Registry | None = None) -> RunSummary | None:
    """The run summary of a listed session, as ``linewise render`` draws it in a header.

    The session read through the pipeline and the one fold, the plugin's
    ``summarize_run`` for what only it knows, its cost estimated from list
    prices where the CLI recorded none: the summary ``linewise summarize``
    and the listing give. None when the plugin has no ``summarize_run``, or it
    fails, or the file cannot be read (the transcript's own result entries
    then tell what is known).
    """
    from linewise.sessions._facts import read_report

    registry = registry or get_registry()
    parser = registry.load(info.adapter_type)
    if parser.summarize_run is None or parser.is_fallback:
        return None
    try:
        found = _on_disk(info.adapter_type, info.cli, Path(info.path), info.key)
    except OSError:
        return None
    report, _, problem = read_report(found, parser, registry)
    return None if problem is not None or report.summary_source != "plugin" else report.summary


def resolve_session(
    reference: str | os.PathLike[str] | SessionInfo,
    *,
    registry: Registry | None = None,
    environ: Mapping[str, str] | None = None,
    home: Path | None = None,
    progress: Progress | None = None,
) -> SessionSource:
    """A session by path (its type detected), by id or unambiguous id prefix, or as listed.

    A :class:`SessionInfo` (from :func:`find_sessions`) is read as listed: its
    file, key and adapter type. A file's type is what the sniffers recognise in
    its first lines, else the store whose layout holds it. Raises
    :class:`~linewise.settings.errors.SessionNotFoundError` or
    :class:`~linewise.settings.errors.AmbiguousSessionError`.
    """
    if isinstance(reference, SessionInfo):
        return SessionSource(
            reference.adapter_type,
            Path(reference.path),
            reference.key,
            f"session {reference.id} of {reference.cli}",
            reference,
        )
    registry = registry or get_registry()
    path = Path(reference)
    if path.is_file():
        detection = sniffed_type(path, registry)
        if detection.detected:
            return SessionSource(detection.adapter_type, path, None, detection.reason)
        adapter_type = store_type(path, registry=registry, environ=environ, home=home)
        if adapter_type is not None:
            return SessionSource(adapter_type, path, None, "the file is in its session store")
        return SessionSource(GENERIC_ADAPTER_TYPE, path, None, detection.reason)
    info = lookup_session(
        os.fspath(reference), registry=registry, environ=environ, home=home, progress=progress
    )
    return SessionSource(
        info.adapter_type, Path(info.path), info.key, f"session {info.id} of {info.cli}", info
    )


def transcribe_session(
    reference: str | os.PathLike[str] | SessionInfo,
    *,
    registry: Registry | None = None,
    environ: Mapping[str, str] | None = None,
    home: Path | None = None,
    censor_usernames: bool = False,
    redact_secrets: bool = True,
    merge: bool = True,
) -> Transcript:
    """The transcript of a session given by id, id prefix, path or :class:`SessionInfo`.

    The session is read through its plugin (``session_records`` where it has
    one) and the ordinary pipeline; entries carry the records' own times.
    ``redact_secrets`` masks the values of ``environ``'s secret-named variables
    (as ``linewise run`` does); ``censor_usernames`` masks user names in home paths.
    """
    from linewise.render.redaction.redactor import Redactor
    from linewise.stream.session import merge_deltas
    from linewise.transcript.build import Transcript, open_session

    registry = registry or get_registry()
    environ = os.environ if environ is None else environ
    source = resolve_session(reference, registry=registry, environ=environ, home=home)
    parser = registry.load(source.adapter_type)
    mask = Redactor.for_environment(environ).text if redact_secrets else None
    ts = _file_ts(source.path)
    session = open_session(source.adapter_type, registry=registry)
    entries = []
    for line in session_lines(parser, source.path, source.key):
        entries.extend(session.feed((mask(line) if mask else line) + "\n", ts))
    entries.extend(session.close(ts))
    if censor_usernames:
        from linewise.transcript.privacy import censor_usernames as censor

        entries = [censor(entry) for entry in entries]
    return Transcript(
        adapter_type=session.adapter_type,
        entries=merge_deltas(entries) if merge else entries,
        diagnostics=session.diagnostics,
    )


def _file_ts(path: Path) -> str:
    stamp = datetime.fromtimestamp(path.stat().st_mtime, UTC)
    return stamp.isoformat(timespec="milliseconds").replace("+00:00", "Z")
