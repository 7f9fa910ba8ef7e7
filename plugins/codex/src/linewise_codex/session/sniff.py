"""How surely the first lines of a file are a Codex rollout (not ``codex exec --json``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.extract import parse_json_object

from linewise_codex.session.items import BARE_ITEMS

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


def _bare(record: dict[str, Any], kind: object) -> bool | None:
    """A 2025 rollout's bare record: its header and state lines are distinctive, its items
    neutral; None for anything else."""
    if kind is None and type(record.get("id")) is str and "timestamp" in record:
        return "instructions" in record or "git" in record
    if kind is None and record.get("record_type") == "state":
        return True
    if type(kind) is str and kind in BARE_ITEMS:
        return False
    return None


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``lines`` open a Codex session rollout file.

    Every record is ``{"timestamp", "type", "payload"}``; at least one must be a
    ``session_meta``, ``response_item``, ``event_msg`` or ``turn_context`` with
    the payload Codex writes. Newer record types with a payload are neutral.
    A 2025 rollout's bare records count too: its ``{"id", "timestamp",
    "instructions"}`` header and ``{"record_type": "state"}`` lines.
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
        if "payload" not in record:
            bare = _bare(record, kind)
            if bare is None:
                return 0.0
            records += 1
            distinctive += bare
            continue
        if type(kind) is not str:
            return 0.0
        records += 1
        distinctive += _distinctive(record, kind)
    if not distinctive or other > records:
        return 0.0
    return 1.0 if other == 0 else 0.9
