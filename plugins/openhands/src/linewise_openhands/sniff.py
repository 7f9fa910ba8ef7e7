"""How surely lines are OpenHands SDK events (``openhands --headless --json``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from linewise_contracts.extract import parse_json_object

__all__ = ["sniff"]

_KINDS: Final = frozenset(
    {
        "MessageEvent",
        "ActionEvent",
        "ObservationEvent",
        "AgentErrorEvent",
        "UserRejectObservation",
        "SystemPromptEvent",
        "ConversationStateUpdateEvent",
        "PauseEvent",
        "Condensation",
        "CondensationRequest",
    }
)
_SOURCES: Final = frozenset({"user", "agent", "environment"})


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely OpenHands' ``--headless --json`` wrote ``lines``.

    Every JSON line must be an SDK event: a ``kind`` naming an event class
    (``MessageEvent``, ``ActionEvent``, ``ObservationEvent`` ...) and no
    ``type`` field; one must be a known kind with a ``source`` of user, agent
    or environment. Plain text lines are tolerated while events outnumber them.
    """
    own = events = other = 0
    for line in lines:
        event = parse_json_object(line)
        if event is None:
            other += line.strip() != ""
            continue
        kind = event.get("kind")
        if (
            "type" in event
            or type(kind) is not str
            or not (kind.endswith(("Event", "Observation", "Request")) or kind == "Condensation")
        ):
            return 0.0
        events += 1
        own += kind in _KINDS and event.get("source") in _SOURCES
    if not own or other > events:
        return 0.0
    return 0.95 if other == 0 else 0.85
