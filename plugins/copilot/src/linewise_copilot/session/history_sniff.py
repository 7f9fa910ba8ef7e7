"""How surely the first lines are a legacy Copilot CLI document, as its store's records give it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from linewise_contracts.sniffing import first_record_score

__all__ = ["SESSION_RECORD", "history_sniff"]

#: The type of the first record :func:`.history_store.session_records` gives (defined here,
#: beside the sniff, which detection imports alone).
SESSION_RECORD: Final = "copilot_history"


def history_sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``lines`` are a legacy document as its store's records give it."""
    return first_record_score(lines, SESSION_RECORD)
