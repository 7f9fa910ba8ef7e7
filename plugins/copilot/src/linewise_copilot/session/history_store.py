"""Copilot CLI's legacy session documents, ``~/.copilot/history-session-state/<id>.json``.

Before ``session-state/<id>/events.jsonl``, Copilot CLI kept each session as
one JSON document: ``{sessionId, startTime, chatMessages: [...], timeline:
[...]}``, the chat messages in OpenAI's shape (``role``, ``content``,
``tool_calls`` with ``function.name`` and ``arguments``, ``tool_call_id``)
and the timeline a list of events (``tool_call_completed`` with
``toolTitle``, ``arguments``, ``result``). GitHub publishes no schema: the
shape is read from what integrators parse (getagentseal/codeburn's
``providers/copilot.ts`` notes, a Rust analyser's ``CopilotSession`` and the
fixtures of a prompt-analysis tool, all reading the same files).

:func:`session_records` gives ``{"type": "copilot_history", "session": {...}}``
first (every top-level field but the two lists), then ``{"type":
"copilot_history_message", "message": {...}}`` per chat message, and the
timeline's events as ``{"type": "copilot_history_event", "event": {...}}``
only for a document without chat messages (otherwise they repeat the chat's
tool calls; they are counted in the first record).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Final

from linewise_contracts.extract import to_json_text
from linewise_contracts.sessions import SessionStore, read_document, record_lines, store_root

# Defined beside the sniff, which detection imports alone.
from linewise_copilot.session.history_sniff import SESSION_RECORD

__all__ = ["EVENT_RECORD", "MESSAGE_RECORD", "SESSION_RECORD", "session_records", "session_stores"]

MESSAGE_RECORD: Final = "copilot_history_message"
EVENT_RECORD: Final = "copilot_history_event"
_LISTS: Final = ("chatMessages", "timeline")


def session_stores(environ: Mapping[str, str], home: Path) -> list[SessionStore]:
    """The legacy documents: ``$COPILOT_HOME/history-session-state/*.json`` (``~/.copilot``)."""
    root = store_root(environ.get("COPILOT_HOME"), home, ".copilot")
    return [SessionStore("copilot", root, ("history-session-state/*.json",))]


def session_records(path: Path, key: str | None = None) -> Iterator[str]:
    """One legacy document as records (see the module docstring).

    A file too long to hold whole (past ``MAX_DOCUMENT_CHARS``), or one that
    is not a JSON object, is given as its lines, each bounded: shown, not lost.
    """
    del key  # one session per document
    text = read_document(path)
    document: Any = None
    if text is not None:
        try:
            document = json.loads(text)
        except (ValueError, RecursionError):
            document = None
    if type(document) is not dict:
        del text
        yield from record_lines(path)
        return
    messages = document.get("chatMessages")
    timeline = document.get("timeline")
    session = {name: value for name, value in document.items() if name not in _LISTS}
    session.setdefault("sessionId", path.stem)
    for name, value in (("chatMessages", messages), ("timeline", timeline)):
        if type(value) is list:
            session[f"{name}Count"] = len(value)
    yield to_json_text({"type": SESSION_RECORD, "session": session})
    if type(messages) is list and messages:
        for message in messages:
            yield to_json_text({"type": MESSAGE_RECORD, "message": message})
    elif type(timeline) is list:
        for event in timeline:
            yield to_json_text({"type": EVENT_RECORD, "event": event})
