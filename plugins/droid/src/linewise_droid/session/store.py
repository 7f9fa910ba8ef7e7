"""Where Droid keeps sessions, and how one is read (its transcript and its settings file)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Final

from linewise_contracts.sessions import SessionStore, record_lines, store_root

from linewise_droid.sniff import SETTINGS_RECORD

__all__ = ["SETTINGS_RECORD", "session_records", "session_stores", "settings_path"]

_SETTINGS_LIMIT: Final = 1 << 20  # a settings file is a few hundred bytes; refuse a huge one


def session_stores(environ: Mapping[str, str], home: Path) -> list[SessionStore]:
    """Droid's sessions: ``~/.factory/sessions/<encoded cwd>/<uuid>.jsonl``."""
    del environ  # Droid documents no variable moving ~/.factory
    return [SessionStore("droid", store_root(None, home, ".factory/sessions"), ("*/*.jsonl",))]


def settings_path(path: Path) -> Path:
    """The ``<uuid>.settings.json`` beside a session's ``<uuid>.jsonl``."""
    return path.with_name(path.stem + ".settings.json")


def _settings_record(path: Path) -> str | None:
    settings = settings_path(path)
    try:
        if not settings.is_file() or settings.stat().st_size > _SETTINGS_LIMIT:
            return None
        document = json.loads(settings.read_text(encoding="utf-8", errors="replace"))
    except (OSError, ValueError, RecursionError):
        return None
    if type(document) is not dict:
        return None
    return json.dumps({"type": SETTINGS_RECORD, "settings": document}, ensure_ascii=False)


def session_records(path: Path, key: str | None = None) -> Iterator[str]:
    """The session's lines, after one record made from its settings file (model, tokens).

    Droid keeps a session's model and token totals only in the sibling
    ``<uuid>.settings.json``; it comes first as
    ``{"type": "droid_settings", "settings": {...}}`` so the init can name the
    model. A missing or unreadable settings file is left out.
    """
    del key  # one session per file
    record = _settings_record(path)
    if record is not None:
        yield record
    yield from record_lines(path)  # each line bounded, as stdout lines are
