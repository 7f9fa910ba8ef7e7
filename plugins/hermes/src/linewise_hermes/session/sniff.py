"""Whether a log is a Hermes session as its store's records give it (``hermes_session``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from linewise_contracts.extract import parse_json_object

__all__ = ["MESSAGE_RECORD", "SESSION_RECORD", "USAGE_RECORD", "sniff"]

#: The record types :func:`linewise_hermes.session.store.session_records` writes, defined
#: beside the sniff, which detection imports alone.
SESSION_RECORD: Final = "hermes_session"
MESSAGE_RECORD: Final = "hermes_message"
USAGE_RECORD: Final = "hermes_model_usage"


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``lines`` are a Hermes session as its store's records give it."""
    for line in lines:
        record = parse_json_object(line)
        if record is not None:
            return 0.95 if record.get("type") == SESSION_RECORD else 0.0
        if line.strip():
            return 0.0
    return 0.0
