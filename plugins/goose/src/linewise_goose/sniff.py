"""How surely the first lines of a log are Goose's ``--output-format stream-json``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.extract import as_list, as_object
from linewise_contracts.sniffing import score_json_events

__all__ = ["sniff"]

_TYPES: Final = frozenset({"message", "notification", "error", "complete", "model_change"})
# Message content parts only goose's Message has (camelCase; Anthropic's are snake_case).
_GOOSE_PARTS: Final = frozenset(
    {"toolRequest", "toolResponse", "redactedThinking", "toolConfirmationRequest", "actionRequired"}
)
_TOP_LEVEL: Final = frozenset({"timestamp", "id", "parentId", "session_id", "sessionId"})


def _verdict(event: dict[str, Any]) -> bool | None:
    """True for an event only Goose writes, False for another CLI's, None when shared."""
    kind = event.get("type")
    if type(kind) is not str or kind not in _TYPES:
        return False
    if _TOP_LEVEL & set(event):
        return False  # session records of Droid, Pi ... carry these beside `message`
    if kind == "message":
        message = event.get("message")
        if type(message) is not dict:
            return False
        kinds = (as_object(part).get("type") for part in as_list(message.get("content")))
        parts = {kind for kind in kinds if type(kind) is str}
        if parts & {"tool_use", "tool_result"}:
            return False  # Anthropic blocks
        return True if parts & _GOOSE_PARTS or "metadata" in message else None
    if kind == "notification":
        return "extension_id" in event
    if kind == "complete":
        return "total_tokens" in event
    if kind == "model_change":
        return "model" in event and "mode" in event
    return None


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``goose run --output-format stream-json`` wrote ``lines``.

    One event must be Goose's own (a message with goose's camelCase content
    parts or its ``metadata``, a ``notification`` from an extension, the
    ``complete`` event with ``total_tokens``, a ``model_change``) and none another
    CLI's; plain text lines are tolerated while events outnumber them.
    """
    return score_json_events(lines, _verdict)
