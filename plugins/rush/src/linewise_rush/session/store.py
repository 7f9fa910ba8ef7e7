"""Where Rush keeps its sessions, ``~/.rush/sessions/<session id>/messages.jsonl``."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path

from linewise_contracts.extract import parse_json_object
from linewise_contracts.sessions import SessionStore, record_lines, store_root

# Defined beside the sniff, which detection imports alone.
from linewise_rush.session.sniff import SESSION_RECORD

__all__ = ["SESSION_RECORD", "session_records", "session_stores"]


def session_stores(environ: Mapping[str, str], home: Path) -> list[SessionStore]:
    """Rush's sessions: one ``messages.jsonl`` per session folder under ``~/.rush/sessions``."""
    del environ  # no variable moving ~/.rush is known
    return [SessionStore("rush", store_root(None, home, ".rush/sessions"), ("*/messages.jsonl",))]


def session_records(path: Path, key: str | None = None) -> Iterator[str]:
    """The session's lines after ``{"type": "rush_session", "sessionId", "createdAt"}``.

    The folder names the session (its records' ``session_id`` may be another
    id, the cloud's); ``createdAt`` is the first record's ``created_at`` (one
    line read ahead). The lines are read bounded (``record_lines``).
    """
    del key  # one session per file
    lines = record_lines(path)
    first = next(lines, None)
    record: dict[str, object] = {"type": SESSION_RECORD, "sessionId": path.parent.name}
    started = _created_at(first)
    if started is not None:
        record["createdAt"] = started
    yield json.dumps(record, ensure_ascii=False)
    if first is not None:
        yield first
    yield from lines


def _created_at(line: str | None) -> object:
    """The first record's ``created_at``: the session's start, for the record before it."""
    record = parse_json_object(line) if line is not None else None
    return record.get("created_at") if record is not None else None
