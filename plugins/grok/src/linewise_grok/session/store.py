"""Where Grok Build keeps its sessions, and how one session folder is read.

A session is a folder, ``$GROK_HOME/sessions/<url-encoded cwd>/<uuid>/``
(``~/.grok`` by default), holding ``summary.json`` (``info.id``, ``info.cwd``,
``created_at``, ``updated_at``, ``last_active_at``, ``current_model_id``,
``generated_title``), ``signals.json`` (``primaryModelId``, ``modelsUsed``) and
the conversation: ``updates.jsonl`` (the session's ACP ``session/update``
notifications, one per line, with their own ``timestamp``; newer builds add
``turn_completed`` updates with the turn's usage) and, in other builds,
``chat_history.jsonl`` (``{"type": "user" | "assistant" | "tool_result" |
"reasoning" | "system", "content", "tool_calls"}``). Sources: getagentseal/codeburn
``src/providers/grok.ts`` and phnx-labs/agi-cli ``lib/session/parse.ts``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Final

from linewise_contracts.extract import as_object, as_string, parse_json_object
from linewise_contracts.sessions import SessionStore, read_document, record_lines, store_root

# Defined beside the sniff, which detection imports alone.
from linewise_grok.session.sniff import SESSION_RECORD

__all__ = ["END_RECORD", "SESSION_RECORD", "session_keys", "session_records", "session_stores"]

#: The record it puts last when the summary says when the session was last active.
END_RECORD: Final = "grok_session_updated"
_UPDATES: Final = "updates.jsonl"
_HISTORY: Final = "chat_history.jsonl"
# summary.json and signals.json are a few KB; a bigger one is not read.
_SIDECAR_CHARS: Final = 1024 * 1024


def session_stores(environ: Mapping[str, str], home: Path) -> list[SessionStore]:
    """Grok Build's sessions: ``$GROK_HOME/sessions/*/*/`` (``~/.grok`` by default)."""
    root = store_root(environ.get("GROK_HOME"), home, ".grok") / "sessions"
    return [SessionStore("grok", root, (f"*/*/{_UPDATES}", f"*/*/{_HISTORY}"))]


def session_keys(path: Path) -> list[str]:
    """The folder's session id, once per folder: ``updates.jsonl`` when it has one.

    A folder holding both files is one session (read from ``updates.jsonl``,
    which has the times and the usage): its ``chat_history.jsonl`` holds none.
    """
    if path.name == _HISTORY and (path.parent / _UPDATES).is_file():
        return []
    return [path.parent.name]


def _sidecar(path: Path) -> dict[str, Any]:
    try:
        text = read_document(path, max_chars=_SIDECAR_CHARS)
        value = json.loads(text) if text is not None else None
    except (OSError, ValueError, RecursionError):
        return {}
    return value if type(value) is dict else {}


def _decoded_cwd(name: str) -> str:
    """The working directory the folder's name encodes (``%2FUsers%2Fada``), or ""."""
    from urllib.parse import unquote

    decoded = unquote(name)
    return decoded if decoded != name and decoded.startswith("/") else ""


def _facts(folder: Path) -> dict[str, Any]:
    summary = _sidecar(folder / "summary.json")
    signals = _sidecar(folder / "signals.json")
    info = as_object(summary.get("info"))
    models = signals.get("modelsUsed")
    facts: dict[str, Any] = {
        "id": as_string(info.get("id")) or folder.name,
        "cwd": as_string(info.get("cwd")) or _decoded_cwd(folder.parent.name),
        "model": as_string(summary.get("current_model_id"))
        or as_string(signals.get("primaryModelId"))
        or (as_string(models[0]) if type(models) is list and models else ""),
        "title": as_string(summary.get("generated_title"))
        or as_string(summary.get("session_summary")),
        "createdAt": summary.get("created_at"),
        "updatedAt": summary.get("last_active_at") or summary.get("updated_at"),
    }
    return {name: value for name, value in facts.items() if value}


def session_records(path: Path, key: str | None = None) -> Iterator[str]:
    """The session's lines between two records made from its folder's ``summary.json``.

    First ``{"type": "grok_session", "session": {"id", "cwd", "model", "title",
    "createdAt", "updatedAt"}}`` (what the summary and ``signals.json`` say;
    the id is the folder's when the summary has none; without a summary time, the
    first line's ``timestamp``), then the file's lines
    (``record_lines``: each bounded), then, when the summary has a last-active
    time, ``{"type": "grok_session_updated", "at"}``. ``chat_history.jsonl``
    records carry no times of their own: these two bound them.
    """
    del key  # one session per folder
    facts = _facts(path.parent)
    lines = record_lines(path)
    head = next(lines, None)
    if "createdAt" not in facts and head is not None:
        # No summary.json time: the first ACP update's own (one line read ahead).
        first = parse_json_object(head)
        if first is not None and first.get("timestamp") is not None:
            facts["createdAt"] = first["timestamp"]
    yield json.dumps({"type": SESSION_RECORD, "session": facts}, ensure_ascii=False)
    if head is not None:
        yield head
    yield from lines
    if "updatedAt" in facts:
        yield json.dumps({"type": END_RECORD, "at": facts["updatedAt"]}, ensure_ascii=False)
