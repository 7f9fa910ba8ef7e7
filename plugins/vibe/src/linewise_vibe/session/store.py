"""Where Vibe keeps sessions, and how one is read (its meta.json, then its messages)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Final

from linewise_contracts.sessions import SessionStore, record_lines, store_root

from linewise_vibe.sniff import SESSION_RECORD

__all__ = ["session_records", "session_stores"]

_META_LIMIT: Final = 4 << 20


def session_stores(environ: Mapping[str, str], home: Path) -> list[SessionStore]:
    """Vibe's sessions: ``$VIBE_HOME/logs/session/<name>/messages.jsonl`` (``~/.vibe``)."""
    root = store_root(environ.get("VIBE_HOME") or None, home, ".vibe")
    return [SessionStore("vibe", root / "logs" / "session", ("*/messages.jsonl",))]


def _meta(path: Path) -> str | None:
    meta = path.with_name("meta.json")
    try:
        if not meta.is_file() or meta.stat().st_size > _META_LIMIT:
            return None
        document = json.loads(meta.read_text(encoding="utf-8", errors="replace"))
    except (OSError, ValueError, RecursionError):
        return None
    if type(document) is not dict:
        return None
    model = document.get("model") or document.get("active_model")
    record = {"type": SESSION_RECORD, "meta": document, "model": model}
    return json.dumps(record, ensure_ascii=False)


def session_records(path: Path, key: str | None = None) -> Iterator[str]:
    """A session's ``messages.jsonl`` after one record made from its ``meta.json``.

    The messages carry no times or ids; ``meta.json`` has the session id, start
    time, title, environment and (with Vibe's stats) the session's token counts.
    """
    del key
    record = _meta(path)
    if record is not None:
        yield record
    yield from record_lines(path)  # each line bounded, as stdout lines are
