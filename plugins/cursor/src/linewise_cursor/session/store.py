"""Where cursor-agent keeps its transcripts, and how one is read with its chat's metadata."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Final

from linewise_contracts.extract import as_list, as_object, as_string, parse_json_object
from linewise_contracts.sessions import SessionStore, read_document, record_lines, store_root

from linewise_cursor.session.prompt_stamp import prompt_time

# Defined beside the sniff, which detection imports alone.
from linewise_cursor.session.sniff import SESSION_RECORD

__all__ = ["END_RECORD", "SESSION_RECORD", "session_records", "session_stores"]

#: The record it puts last when the chat's metadata says when it was last updated.
END_RECORD: Final = "cursor_session_updated"
_TRANSCRIPTS: Final = "agent-transcripts"
# A meta.json is a few hundred bytes; a bigger one is not Cursor's and is not read.
_META_CHARS: Final = 64 * 1024
# A session id as cursor-agent names folders (a UUID); anything else is not looked up.
_ID: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,127}")
# The chat metadata fields kept (the rest is Cursor's bookkeeping).
_META_FIELDS: Final = ("createdAtMs", "updatedAtMs", "cwd", "title", "model")


def session_stores(environ: Mapping[str, str], home: Path) -> list[SessionStore]:
    """cursor-agent's transcripts under ``~/.cursor/projects/<project>/agent-transcripts``.

    Current builds write ``<id>/<id>.jsonl`` (a subagent's ``<id>/subagents/<sub>.jsonl``,
    listed as a session of its own); older ones ``<id>.jsonl`` directly.
    """
    del environ  # cursor-agent documents no variable moving ~/.cursor
    root = store_root(None, home, ".cursor/projects")
    patterns = (
        f"*/{_TRANSCRIPTS}/*/*.jsonl",
        f"*/{_TRANSCRIPTS}/*.jsonl",
        f"*/{_TRANSCRIPTS}/*/subagents/*.jsonl",
    )
    return [SessionStore("cursor", root, patterns)]


def _layout(path: Path) -> tuple[Path | None, str | None, str | None]:
    """The ``agent-transcripts`` folder above ``path``, the project's folder name and,
    for a subagent's transcript, its parent session's id."""
    parents = path.parents
    for depth, parent in enumerate(parents[:4]):
        if parent.name == _TRANSCRIPTS:
            project = parents[depth + 1].name if depth + 1 < len(parents) else None
            subagent_of = parents[0].parent.name if depth == 2 else None
            return parent, project, subagent_of
    return None, None, None


def _chat_meta(transcripts: Path | None, session_id: str) -> dict[str, Any]:
    """The chat's ``~/.cursor/chats/<workspace hash>/<id>/meta.json`` fields, or none."""
    if transcripts is None or _ID.fullmatch(session_id) is None:
        return {}
    chats = transcripts.parent.parent.parent / "chats"
    try:
        candidates = sorted(chats.glob(f"*/{session_id}/meta.json"))
    except OSError:
        return {}
    for candidate in candidates[:4]:
        try:
            text = read_document(candidate, max_chars=_META_CHARS)
            meta = json.loads(text) if text is not None else None
        except (OSError, ValueError, RecursionError):
            continue
        if type(meta) is dict:
            return {name: meta[name] for name in _META_FIELDS if name in meta}
    return {}


def _first_prompt_time(line: str) -> str | None:
    """The ``<timestamp>`` of the transcript's first record, when it is a prompt with one."""
    record = parse_json_object(line)
    if record is None or record.get("role") != "user":
        return None
    for block in as_list(as_object(record.get("message")).get("content")):
        text = as_string(as_object(block).get("text"))
        if text:
            return prompt_time(text)
    return None


def session_records(path: Path, key: str | None = None) -> Iterator[str]:
    """The transcript's lines, between two records made from where it lies.

    First ``{"type": "cursor_session", "sessionId", "project", "subagentOf", "meta",
    "firstPromptAt"}``: the id the file is named by, the project folder it lies in
    (Cursor's encoded path, not the working directory), the parent session of a
    subagent's transcript, the chat's ``meta.json`` fields (``createdAtMs``,
    ``updatedAtMs``, ``cwd``, ``title``) where Cursor kept one, and without
    ``createdAtMs`` the first prompt's ``<timestamp>`` (one line read ahead). Last, when the
    metadata has ``updatedAtMs``, ``{"type": "cursor_session_updated",
    "updatedAtMs"}``: the transcript's records carry no times of their own
    but the prompts' ``<timestamp>``, so this is the session's end.
    """
    del key  # one session per file
    transcripts, project, subagent_of = _layout(path)
    session_id = path.stem
    meta = _chat_meta(transcripts, session_id) if subagent_of is None else {}
    first: dict[str, Any] = {"type": SESSION_RECORD, "sessionId": session_id, "meta": meta}
    if project:
        first["project"] = project
    if subagent_of:
        first["subagentOf"] = subagent_of
    lines = record_lines(path)  # each line bounded, as stdout lines are
    head = next(lines, None)
    if "createdAtMs" not in meta and head is not None:
        started = _first_prompt_time(head)
        if started is not None:
            first["firstPromptAt"] = started
    yield json.dumps(first, ensure_ascii=False)
    if head is not None:
        yield head
    yield from lines
    if "updatedAtMs" in meta:
        yield json.dumps({"type": END_RECORD, "updatedAtMs": meta["updatedAtMs"]})
