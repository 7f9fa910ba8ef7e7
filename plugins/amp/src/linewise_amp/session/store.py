"""Where Amp keeps threads, and how one thread file becomes stream-json records."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from linewise_contracts.extract import iso_timestamp
from linewise_contracts.sessions import SessionStore, read_document, record_lines, store_root

__all__ = ["session_records", "session_stores"]


def session_stores(environ: Mapping[str, str], home: Path) -> list[SessionStore]:
    """Amp's local threads: ``$AMP_DIR/threads`` (``~/.local/share/amp/threads``), ``T-*.json``."""
    root = store_root(environ.get("AMP_DIR") or None, home, ".local/share/amp")
    return [SessionStore("amp", root / "threads", ("T-*.json",))]


def _records(thread: dict[str, Any]) -> Iterator[dict[str, Any]]:
    ident = thread.get("id") if type(thread.get("id")) is str else ""
    init: dict[str, Any] = {"type": "system", "subtype": "init", "session_id": ident}
    created = iso_timestamp(thread.get("created"))
    if created:
        init["timestamp"] = created
    trees = (
        thread.get("env", {}).get("initial", {}).get("trees")
        if type(thread.get("env")) is dict
        else None
    )
    if (
        type(trees) is list
        and trees
        and type(trees[0]) is dict
        and type(trees[0].get("displayName")) is str
    ):
        init["repository"] = trees[0]["displayName"]
    yield init
    for message in thread.get("messages") or []:
        if type(message) is not dict:
            continue
        role = message.get("role")
        kind = role if role in ("user", "assistant") else "system"
        yield {"type": kind, "message": message, "session_id": ident}


def session_records(path: Path, key: str | None = None) -> Iterator[str]:
    """An Amp thread file (``T-<id>.json``, one document) as Claude stream-json record lines.

    Amp's thread is ``{v, id, created, messages: [{role, content: [...]}], env, meta}``
    with Anthropic content blocks, which is what a Claude ``assistant`` / ``user``
    event carries: each message becomes one, after a system ``init`` naming the thread.
    A file that is not such a document (cut while Amp wrote it, say) comes back line by
    line as it is, so the parser shows what it cannot read instead of losing it; so does
    one too long to hold whole (bounded lines). A file that cannot be read raises
    :class:`OSError`, which the host reports with the file's name.
    """
    del key  # one thread per file
    text = read_document(path)
    if text is None:
        yield from record_lines(path)  # too long to hold whole: shown line by line
        return
    try:
        thread = json.loads(text)
    except (ValueError, RecursionError):
        thread = None
    if type(thread) is not dict:
        yield from record_lines(path)  # not a thread document: its lines, shown as they are
        return
    for record in _records(thread):
        yield json.dumps(record, ensure_ascii=False)
