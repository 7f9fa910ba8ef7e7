"""Whether a log is a Pi session file (``pi_session``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from linewise_contracts.extract import as_object, as_string, parse_json_object

__all__ = ["ENTRY_TYPES", "sniff"]

#: Entry types of a session file (session-manager.ts), besides the header (defined beside
#: the sniff, which detection imports alone; the parser reads them from here).
ENTRY_TYPES: Final = frozenset(
    {
        "message",
        "model_change",
        "thinking_level_change",
        "compaction",
        "branch_summary",
        "custom",
        "custom_message",
        "label",
        "session_info",
    }
)
_ROLES: Final = frozenset(
    {"user", "assistant", "toolResult", "bashExecution", "custom", "branchSummary"}
    | {"compactionSummary", "hookMessage"}
)


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``lines`` are a Pi session file.

    The header ``{"type": "session", "version", "id", "cwd"}`` followed by
    entries of Pi's types only, or at least two ``message`` entries with Pi's
    ``id``/``parentId`` tree and roles. ``pi --mode json`` starts with the same
    header but goes on with events (``agent_start`` ...), which give 0 here.
    """
    header = messages = 0
    for line in lines:
        event = parse_json_object(line)
        if event is None:
            if line.strip():
                return 0.0
            continue
        kind = as_string(event.get("type"))
        if kind == "session" and "id" in event and ("cwd" in event or "version" in event):
            header += 1
            continue
        if kind not in ENTRY_TYPES:
            return 0.0
        if kind == "message":
            role = as_string(as_object(event.get("message")).get("role"))
            if role not in _ROLES or "timestamp" not in event:
                return 0.0
            messages += 1
    if header and messages:
        return 0.95
    return 0.8 if messages >= 2 and header == 0 and _tree(lines) else 0.0


def _tree(lines: Sequence[str]) -> bool:
    """Whether the message lines carry Pi's ``id``/``parentId`` (a headless excerpt)."""
    records = (parse_json_object(line) for line in lines)
    return all("id" in r and "parentId" in r for r in records if r is not None)
