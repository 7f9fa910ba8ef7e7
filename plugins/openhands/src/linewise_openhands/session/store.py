"""Where the OpenHands CLI keeps conversations, and how one is read (a folder of event files)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Final

from linewise_contracts.sessions import SessionStore, read_document, store_root

from linewise_openhands import CONVERSATION_RECORD

__all__ = ["session_records", "session_stores"]

_MAX_EVENTS: Final = 100_000


def session_stores(environ: Mapping[str, str], home: Path) -> list[SessionStore]:
    """OpenHands' conversations: one folder each, ``<root>/<id>/base_state.json`` and ``events/``.

    The root is ``$OPENHANDS_CONVERSATIONS_DIR``, else ``$OPENHANDS_PERSISTENCE_DIR/conversations``,
    else ``~/.openhands/conversations``.
    """
    direct = environ.get("OPENHANDS_CONVERSATIONS_DIR")
    if direct:
        root = store_root(direct, home, ".openhands/conversations")
    else:
        persistence = environ.get("OPENHANDS_PERSISTENCE_DIR") or None
        root = store_root(persistence, home, ".openhands") / "conversations"
    return [SessionStore("openhands", root, ("*/base_state.json",))]


def _compact(path: Path) -> str | None:
    try:
        text = read_document(path)
    except OSError:
        return None
    if text is None:
        return None
    try:
        return json.dumps(json.loads(text), ensure_ascii=False)
    except (ValueError, RecursionError):
        return None


def session_records(path: Path, key: str | None = None) -> Iterator[str]:
    """A conversation (given by its ``base_state.json``) as one event per line.

    OpenHands writes each event to ``events/event-<NNNNN>-<uuid>.json`` (pretty
    JSON); the records are a first one naming the conversation and its state,
    then every event file in order, each on one line. An event file that cannot
    be read, or is larger than the contract's document bound, is given as
    ``{"kind": "linewise.UnreadableEvent", "file": name}`` so it is counted, not lost.
    """
    del key
    folder = path.parent
    state = _compact(path)
    header = {
        "kind": CONVERSATION_RECORD,
        "id": folder.name,
        "state": json.loads(state) if state else {},
    }
    yield json.dumps(header, ensure_ascii=False)
    events = sorted((folder / "events").glob("event-*.json"))[:_MAX_EVENTS]
    for event in events:
        line = _compact(event)
        yield (
            line
            if line is not None
            else json.dumps({"kind": "linewise.UnreadableEvent", "file": event.name})
        )
