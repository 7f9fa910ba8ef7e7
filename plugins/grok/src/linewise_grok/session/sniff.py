"""How surely the first lines are a Grok Build session, as its store's records give it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from linewise_contracts.sniffing import first_record_score

__all__ = ["SESSION_RECORD", "session_sniff"]

#: The record :func:`.store.session_records` puts first: the folder's id and its summary's
#: facts (defined here, beside the sniff, which detection imports alone).
SESSION_RECORD: Final = "grok_session"


def session_sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``lines`` are a Grok Build session (as its store's records give it).

    Only the store's own first record is Grok's alone: a bare ``updates.jsonl`` is
    ACP (the acp adapter reads it) and a bare ``chat_history.jsonl`` looks like
    other CLIs' histories; the store's layout tells those apart.
    """
    return first_record_score(lines, SESSION_RECORD)
