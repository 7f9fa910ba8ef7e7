"""How surely lines are OpenHands SDK events (``openhands --headless --json``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.sniffing import score_json_events

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


def _verdict(event: dict[str, Any]) -> bool | None:
    """True for a known SDK event from a known source, None for another event, False for none."""
    kind = event.get("kind")
    if (
        "type" in event
        or type(kind) is not str
        or not (kind.endswith(("Event", "Observation", "Request")) or kind == "Condensation")
    ):
        return False
    source = event.get("source")  # any JSON value: a list is not hashable
    return (kind in _KINDS and type(source) is str and source in _SOURCES) or None


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely OpenHands' ``--headless --json`` wrote ``lines``.

    Every JSON line must be an SDK event: a ``kind`` naming an event class
    (``MessageEvent``, ``ActionEvent``, ``ObservationEvent`` ...) and no
    ``type`` field; one must be a known kind with a ``source`` of user, agent
    or environment. Plain text lines are tolerated while events outnumber them.
    """
    return score_json_events(lines, _verdict)
