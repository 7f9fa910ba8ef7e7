"""How surely the first lines are a cursor-agent transcript (``agent-transcripts``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.extract import parse_json_object

__all__ = ["SESSION_RECORD", "sniff"]

#: The record :func:`.store.session_records` puts first: the session's id, project and chat
#: metadata (defined here, beside the sniff, which detection imports alone).
SESSION_RECORD: Final = "cursor_session"


def _is_message(event: dict[str, Any]) -> bool:
    # Exactly role and message: Claude's, Droid's and Pi's records add a type, ids and times.
    return (
        event.keys() == {"role", "message"}
        and event["role"] in ("user", "assistant")
        and type(event["message"]) is dict
    )


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``lines`` are a cursor-agent transcript (``agent-transcripts``).

    Every JSON line is ``{"role", "message"}`` and nothing more, ``turn_ended`` or
    the store's own session record; two messages or one with a turn end are enough.
    """
    messages = ends = starts = 0
    for line in lines:
        event = parse_json_object(line)
        if event is None:
            if line.strip():
                return 0.0
            continue
        kind = event.get("type")
        if kind == "turn_ended" and event.keys() <= {"type", "status"}:
            ends += 1
        elif kind == SESSION_RECORD:
            starts += 1
        elif _is_message(event):
            messages += 1
        else:
            return 0.0
    if starts or (messages and ends):
        return 0.95
    return 0.8 if messages >= 2 else 0.0
