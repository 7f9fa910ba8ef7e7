"""Whether a log is a Rush session (``rush_session``), ``~/.rush/sessions/<id>/messages.jsonl``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.extract import as_string, parse_json_object

__all__ = ["RECORD_TYPES", "SESSION_RECORD", "sniff"]

#: The record :func:`linewise_rush.session.store.session_records` puts first: the session
#: id its folder names (defined beside the sniff, which detection imports alone).
SESSION_RECORD: Final = "rush_session"
#: The ``type`` of Rush's own records (the parser reads them from here).
RECORD_TYPES: Final = frozenset({"message", "tool_call", "tool_result"})


def _is_rush(event: dict[str, Any]) -> bool:
    # Rush's own fields: a session_id and a created_at on every record, content an object.
    return (
        as_string(event.get("type")) in RECORD_TYPES
        and "session_id" in event
        and "created_at" in event
        and type(event.get("content")) is dict
    )


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``lines`` are a Rush session (``~/.rush/sessions``).

    Every JSON line is the store's first record or a Rush record: ``type``
    ``message``/``tool_call``/``tool_result`` with ``session_id``, ``created_at``
    and an object ``content``. Two such records, or the first record, suffice.
    """
    records = starts = 0
    for line in lines:
        event = parse_json_object(line)
        if event is None:
            if line.strip():
                return 0.0
            continue
        if event.get("type") == SESSION_RECORD:
            starts += 1
        elif _is_rush(event):
            records += 1
        else:
            return 0.0
    if starts and records:
        return 0.95
    return 0.85 if records >= 2 else 0.0
