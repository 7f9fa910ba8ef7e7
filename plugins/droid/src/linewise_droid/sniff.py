"""How surely the first lines of a log are Factory Droid's stream-json, or a Droid session file."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.extract import parse_json_object
from linewise_contracts.sniffing import score_json_events

__all__ = ["SETTINGS_RECORD", "session_sniff", "sniff"]

#: The record type :func:`linewise_droid.session.store.session_records` gives the session's
#: ``.settings.json`` (first); here, so the stdout summary need not import the store.
SETTINGS_RECORD: Final = "droid_settings"

# Event types of `droid exec -o stream-json` (and `-o json`'s one `result`).
_TYPES: Final = frozenset(
    {"system", "message", "tool_call", "tool_result", "reasoning", "completion", "error", "result"}
)


def _stdout_event(event: dict[str, Any]) -> bool | None:
    """True for an event only Droid writes, False for another CLI's, None when shared."""
    kind = event.get("type")
    if type(kind) is not str or kind not in _TYPES:
        return False
    if kind == "message":
        # Droid: role and text beside each other; a session record nests `message`.
        return (
            type(event.get("text")) is str
            and type(event.get("role")) is str
            and ("message" not in event)
        )
    if kind == "tool_call":
        # Cursor's tool_call has a subtype and a nested tool_call object.
        return "toolName" in event and "parameters" in event and "subtype" not in event
    if kind == "tool_result":
        return "toolId" in event and ("value" in event or "error" in event)
    if kind == "completion":
        return "finalText" in event
    if kind == "reasoning":
        return type(event.get("text")) is str and "id" in event
    return None  # system init, error and result: Claude Code and others write them too


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``droid exec -o stream-json`` wrote ``lines``.

    One event must be Droid's own (a ``message`` with ``role`` and ``text``, a
    ``tool_call`` with ``toolName`` and ``parameters``, a ``tool_result`` with
    ``toolId``, a ``completion`` with ``finalText``, a ``reasoning`` event) and
    none another CLI's (Claude's ``assistant`` / ``user`` events, Cursor's
    nested tool calls ...). A system ``init`` and errors are shared and
    tolerated; plain text lines too while events outnumber them.
    """
    return score_json_events(lines, _stdout_event)


def session_sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``lines`` are a Droid session file (``~/.factory/sessions``).

    The file starts with ``{"type": "session_start", "id", "cwd", "title"}`` (after
    the settings record :func:`linewise_droid.session.store.session_records` puts first),
    then ``{"type": "message", "message": {"role", "content": [...]}}`` records.
    """
    start = messages = 0
    for line in lines:
        event = parse_json_object(line)
        if event is None:
            if line.strip():
                return 0.0
            continue
        kind = event.get("type")
        if kind == "session_start" and "id" in event:
            start += 1
        elif kind == "message" and type(event.get("message")) is dict:
            if "parentId" in event:
                return 0.0  # Pi's session records nest a message too, with id and parentId
            messages += 1
        elif kind != SETTINGS_RECORD:
            return 0.0
    if start:
        return 0.95
    return 0.8 if messages >= 2 else 0.0
