"""How surely lines are Amp's ``--stream-json`` output, or an Amp thread file."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.sniffing import score_json_events

__all__ = ["sniff", "thread_sniff"]

# Claude Code's event types, which Amp's stream-json keeps, and Amp's legacy ones.
_TYPES: Final = frozenset(
    {
        "system",
        "user",
        "assistant",
        "result",
        "message",
        "tool_call",
        "tool_result",
        "error",
        "done",
    }
)
# An Amp thread id: "T-" and a UUID.
_THREAD: Final = re.compile(
    r"T-[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
)
_THREAD_ID_KEY: Final = re.compile(r'^\s*"id"\s*:\s*"T-[^"]{1,80}",?\s*$')


def _verdict(event: dict[str, Any]) -> bool | None:
    """True for an event carrying an Amp thread id, None for another of those types, False
    for any other event."""
    kind = event.get("type")
    if type(kind) is not str or kind not in _TYPES:
        return False
    session = event.get("session_id")
    return True if type(session) is str and _THREAD.fullmatch(session) is not None else None


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``amp --execute ... --stream-json`` wrote ``lines``.

    Amp writes Claude Code's stream-json, with its own thread ids (``T-<uuid>``)
    as ``session_id``: every JSON line must be one of those event types and at
    least one must carry an Amp thread id. Plain text lines are tolerated while
    events outnumber them.
    """
    return score_json_events(lines, _verdict)


def thread_sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``lines`` begin an Amp thread file (one pretty-printed JSON document).

    The document starts with ``{`` and, among its first keys, ``"v"`` and an
    ``"id"`` that is an Amp thread id.
    """
    content = [line for line in lines if line.strip()]
    if not content or content[0].strip() != "{":
        return 0.0
    keys = content[1:12]
    has_version = any(line.strip().startswith('"v":') for line in keys)
    has_thread = any(_THREAD_ID_KEY.match(line) for line in keys)
    return 0.9 if has_version and has_thread else 0.0
