"""Whether a log is a Hermes session as its store's records give it (``hermes_session``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from linewise_contracts.sniffing import first_record_score

__all__ = ["MESSAGE_RECORD", "SESSION_RECORD", "USAGE_RECORD", "sniff"]

#: The record types :func:`linewise_hermes.session.store.session_records` writes, defined
#: beside the sniff, which detection imports alone.
SESSION_RECORD: Final = "hermes_session"
MESSAGE_RECORD: Final = "hermes_message"
USAGE_RECORD: Final = "hermes_model_usage"


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``lines`` are a Hermes session as its store's records give it."""
    return first_record_score(lines, SESSION_RECORD)
