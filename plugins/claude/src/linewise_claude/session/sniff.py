"""How surely the first lines of a file are a Claude Code session (not its stdout)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.extract import parse_json_object

#: The synthesised first line of session_records: the session's facts found ahead of the
#: records.
HEADER: Final = "linewise-session"
#: The synthesised line before each subagent file's records: which tool call spawned it.
SUBAGENT: Final = "linewise-subagent"

__all__ = ["HEADER", "SUBAGENT", "sniff"]

# Event types only stream-json prints: a file holding one is stdout, not a session.
_STDOUT_ONLY: Final = frozenset(
    {
        "stream_event",
        "rate_limit_event",
        "control_request",
        "control_response",
        "control_cancel_request",
        "keep_alive",
        "tool_progress",
        "tool_use_summary",
        "auth_status",
        "prompt_suggestion",
        "conversation_reset",
    }
)


def _foreign(record: dict[str, Any], kind: str) -> bool:
    """Stream-json, or another CLI's look-alike session (Qwen Code's has Gemini ``parts``)."""
    if kind in _STDOUT_ONLY or ("session_id" in record and "sessionId" not in record):
        return True
    if "provenance" in record:
        return True
    message = record.get("message")
    return type(message) is dict and "parts" in message


def _distinctive(record: dict[str, Any], kind: str) -> bool:
    """Records only a Claude Code session file holds."""
    if "parentUuid" in record and "isSidechain" in record:
        return True
    if kind == "summary":
        return "leafUuid" in record
    return kind in ("file-history-snapshot", "queue-operation", HEADER, SUBAGENT)


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``lines`` open a Claude Code session file.

    At least one record must be of a kind only session files hold (a message
    record with ``parentUuid`` and ``isSidechain``, a ``summary`` with
    ``leafUuid``, a ``file-history-snapshot``, a ``queue-operation``), and none
    may be stream-json's own (those score for ``claude_local``). Other record
    types are neutral: Claude Code adds bookkeeping records often.
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
        if type(kind) is not str or _foreign(record, kind):
            return 0.0
        records += 1
        distinctive += _distinctive(record, kind)
    if not distinctive or other > records:
        return 0.0
    return 1.0 if other == 0 else 0.9
