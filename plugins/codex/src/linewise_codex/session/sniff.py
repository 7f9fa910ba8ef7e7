"""How surely the first lines of a file are a Codex rollout (not ``codex exec --json``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.extract import parse_json_object

__all__ = ["sniff"]

# Record types whose payload only a rollout holds.
_DISTINCTIVE: Final = frozenset({"session_meta", "response_item", "event_msg", "turn_context"})


def _distinctive(record: dict[str, Any], kind: str) -> bool:
    payload = record.get("payload")
    if kind not in _DISTINCTIVE or type(payload) is not dict:
        return False
    if kind == "session_meta":
        return type(payload.get("id")) is str or type(payload.get("session_id")) is str
    if kind == "turn_context":
        return True
    return type(payload.get("type")) is str


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``lines`` open a Codex session rollout file.

    Every record is ``{"timestamp", "type", "payload"}``; at least one must be a
    ``session_meta``, ``response_item``, ``event_msg`` or ``turn_context`` with
    the payload Codex writes. Newer record types with a payload are neutral.
    """
    records = 0
    distinctive = 0
    other = 0
    for line in lines:
        record = parse_json_object(line)
        if record is None:
            other += 1
            continue
        kind = record.get("type")
        if type(kind) is not str or "payload" not in record:
            return 0.0
        records += 1
        distinctive += _distinctive(record, kind)
    if not distinctive or other > records:
        return 0.0
    return 1.0 if other == 0 else 0.9
