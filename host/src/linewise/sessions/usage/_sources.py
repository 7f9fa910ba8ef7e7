"""Where usage records come from: the sessions on disk (through the facts cache), or log files."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from linewise.plugins.generic import GENERIC_ADAPTER_TYPE
from linewise.plugins.registry import Registry, get_registry
from linewise.sessions.usage._record import UsageRecord, record_of

__all__ = ["LogProblem", "UsageFilter", "bounds", "log_records", "session_records"]


def bounds(since: str | None, until: str | None) -> tuple[str | None, str | None]:
    """``--since`` and ``--until`` as UTC times: a date's start, and a date's last millisecond.

    Raises ValueError naming the bad value.
    """
    from linewise.sessions._find import parse_since

    low = parse_since(since) if since else None
    high = None
    if until:
        text = until.strip()
        dated = "T" not in text and " " not in text
        high = parse_since(text + "T23:59:59.999" if dated else text)
    return low, high


@dataclass(frozen=True, slots=True)
class UsageFilter:
    """Which sessions a report keeps; every filter is optional, text matches ignore case.

    ``since`` and ``until`` are UTC ISO 8601 times (see :func:`bounds`), both
    included, compared with a session's first event.
    """

    cli: str | None = None
    project: str | None = None
    since: str | None = None
    until: str | None = None

    def keeps(self, record: UsageRecord) -> bool:
        if self.cli is not None and record.cli.casefold() != self.cli.casefold():
            return False
        if self.project is not None:
            needle = self.project.casefold()
            where = f"{record.project or ''}\n{record.path}".casefold()
            if needle not in where:
                return False
        when = record.when
        if self.since is not None and (when is None or when < self.since):
            return False
        return not (self.until is not None and (when is None or when > self.until))


@dataclass(frozen=True, slots=True)
class LogProblem:
    """A log given that could not be read, or only in part, and why."""

    path: str
    reason: str
    unreadable: bool


def session_records(
    keep: UsageFilter,
    *,
    registry: Registry | None = None,
    environ: Mapping[str, str] | None = None,
    home: Path | None = None,
    use_cache: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[UsageRecord], list[LogProblem]]:
    """The records of the sessions the installed plugins' stores hold that ``keep`` keeps."""
    from linewise.sessions import find_sessions

    infos = find_sessions(
        cli=keep.cli,
        registry=registry,
        environ=environ,
        home=home,
        use_cache=use_cache,
        progress=progress,
    )
    problems = [LogProblem(info.path, info.problem, False) for info in infos if info.problem]
    records = [record for record in map(record_of, infos) if keep.keeps(record)]
    return records, problems


def _files(paths: Iterable[str]) -> Iterator[str]:
    for path in paths:
        if not os.path.isdir(path):
            yield path
            continue
        for folder, folders, files in os.walk(path):
            folders.sort()
            for name in sorted(files):
                yield os.path.join(folder, name)


def _cli_of(adapter_type: str) -> str:
    """The CLI an adapter type is named after (``claude_local`` -> ``claude``)."""
    return adapter_type.split("_", 1)[0]


def log_records(
    paths: Iterable[str],
    keep: UsageFilter,
    *,
    registry: Registry | None = None,
) -> tuple[list[UsageRecord], list[LogProblem]]:
    """The records of log files and session files given by path (folders walked, sorted).

    Each file's type is detected as ``linewise render`` detects it (its first
    lines, else the session store whose layout holds it) and read through its
    parser, as ``linewise sessions`` reads a session; nothing is cached. A file
    no installed parser recognises is left out, with a warning naming it.
    """
    from linewise.sessions import resolve_session
    from linewise.sessions._facts import read_facts
    from linewise.sessions._stores import SessionFile

    registry = registry or get_registry()
    records: list[UsageRecord] = []
    problems: list[LogProblem] = []
    for path in _files(paths):
        try:
            status = os.stat(path)
            source = resolve_session(path, registry=registry)
        except OSError as error:
            problems.append(LogProblem(path, error.strerror or str(error), True))
            continue
        if source.adapter_type == GENERIC_ADAPTER_TYPE:
            # Raw lines carry no usage: the file is named and left out of the report.
            problems.append(
                LogProblem(
                    path, f"left out: no installed parser recognises it ({source.reason})", False
                )
            )
            continue
        parser = registry.load(source.adapter_type)
        found = SessionFile(
            source.adapter_type,
            _cli_of(source.adapter_type),
            Path(path),
            None,
            status.st_size,
            status.st_mtime_ns,
        )
        info, _ = read_facts(found, parser, registry)
        if info.problem:
            problems.append(LogProblem(path, info.problem, False))
        record = record_of(info)
        if keep.keeps(record):
            records.append(record)
    return records, problems
