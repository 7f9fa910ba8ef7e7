"""How surely the first lines are a legacy Copilot CLI document, as its store's records give it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from linewise_contracts.extract import parse_json_object

__all__ = ["SESSION_RECORD", "history_sniff"]

#: The type of the first record :func:`.history_store.session_records` gives (defined here,
#: beside the sniff, which detection imports alone).
SESSION_RECORD: Final = "copilot_history"


def history_sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``lines`` are a legacy document as its store's records give it."""
    for line in lines:
        record = parse_json_object(line)
        if record is not None:
            return 0.95 if record.get("type") == SESSION_RECORD else 0.0
        if line.strip():
            return 0.0
    return 0.0
