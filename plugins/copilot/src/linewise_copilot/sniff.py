"""How surely the first lines of a file are a GitHub Copilot CLI session's events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.extract import parse_json_object

__all__ = ["sniff", "sniff_stdout"]

# The namespaces of Copilot CLI's event types ("session.start", "tool.execution_complete" ...).
_NAMESPACES: Final = frozenset(
    {"session", "user", "assistant", "tool", "system", "subagent", "hook", "skill"}
)


def _is_event(event: dict[str, Any]) -> bool:
    kind = event.get("type")
    if type(kind) is not str or not isinstance(event.get("data"), dict):
        return False
    namespace = kind.split(".", 1)[0]
    return (namespace in _NAMESPACES and "." in kind) or kind == "abort"


def _live(event: dict[str, Any]) -> bool:
    """What only a live run prints: ephemeral events, deltas, the final ``result``."""
    kind = event.get("type")
    return (
        event.get("ephemeral") is True
        or kind == "result"
        or (type(kind) is str and kind.endswith("_delta"))
        or kind == "session.idle"
    )


def _distinctive(event: dict[str, Any]) -> bool:
    """An event with Copilot's envelope: ``id``, ``timestamp`` and ``parentId`` beside ``data``."""
    return (
        isinstance(event.get("id"), str)
        and isinstance(event.get("timestamp"), str)
        and "parentId" in event
    )


def _read(lines: Sequence[str]) -> tuple[int, int, int, bool] | None:
    """(events, with the whole envelope, live-only events, opens with the session) or None
    when a line is not a Copilot event."""
    events = distinctive = live = 0
    opens = False
    for line in lines:
        event = parse_json_object(line)
        if event is None:
            return None
        if event.get("type") == "result" and not events:
            return None  # a result first is another CLI's summary object
        if event.get("type") != "result" and not _is_event(event):
            return None
        opens = opens or (not events and event.get("type") in ("session.start", "session.resume"))
        events += 1
        distinctive += _distinctive(event)
        live += _live(event)
    return events, distinctive, live, opens


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``lines`` open a Copilot CLI ``events.jsonl``.

    Every line must be an event ``{type: "<namespace>.<name>", data: {...}}``
    and one at least must carry the whole envelope (``id``, ``timestamp``,
    ``parentId``). A file that opens with ``session.start`` and holds none of
    what only a live run prints (ephemeral events, deltas, ``result``) is
    surely a session file; other event streams are more likely stdout.
    """
    read = _read(lines)
    if read is None:
        return 0.0
    events, distinctive, live, opens = read
    if not events or not distinctive:
        return 0.0
    return 0.95 if opens and not live else 0.6


def sniff_stdout(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``copilot -p ... --output-format json`` wrote ``lines``.

    The same events as a session file; what only a live run prints
    (ephemeral events, deltas, ``result``) settles it, and a stream that opens
    with ``session.start`` and has none of them is left to ``copilot_session``.
    """
    read = _read(lines)
    if read is None:
        return 0.0
    events, distinctive, live, opens = read
    if not events or not (distinctive or live):
        return 0.0
    if live:
        return 0.95
    return 0.5 if opens else 0.9
