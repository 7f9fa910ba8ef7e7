"""How surely the first lines of a file are a chat Qwen Code saved on disk."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.extract import parse_json_object

__all__ = ["sniff"]

_TYPES: Final = frozenset({"user", "assistant", "tool_result", "system"})


def _is_record(record: dict[str, Any]) -> bool:
    kind = record.get("type")
    return (
        type(kind) is str
        and kind in _TYPES
        and type(record.get("uuid")) is str
        and type(record.get("sessionId")) is str
        and "parentUuid" in record
    )


def _distinctive(record: dict[str, Any]) -> bool:
    """Shapes only Qwen Code's chats have: Gemini-style ``parts``, a ``systemPayload``."""
    message = record.get("message")
    if isinstance(message, dict) and isinstance(message.get("parts"), list):
        return True
    return isinstance(record.get("systemPayload"), dict) or "toolCallResult" in record


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``lines`` open a Qwen Code chat (``~/.qwen/projects/*/chats/*.jsonl``).

    Every line must be a chat record (``uuid``, ``parentUuid``, ``sessionId``,
    a Qwen record type) and one at least must have a shape only Qwen writes
    (``message.parts``, ``systemPayload``): Claude Code's session records look
    alike but carry ``message.content``.
    """
    records = 0
    distinctive = 0
    for line in lines:
        record = parse_json_object(line)
        if record is None or not _is_record(record):
            return 0.0
        records += 1
        distinctive += _distinctive(record)
    if not records or not distinctive:
        return 0.0
    return 0.95
