"""How surely lines are Mistral Vibe's streaming messages (stdout or a session's messages.jsonl)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.extract import parse_json_object
from linewise_contracts.sniffing import score_json_events

__all__ = ["SESSION_RECORD", "session_sniff", "sniff"]

#: The record :func:`linewise_vibe.session.store.session_records` makes from a session's
#: meta.json (defined beside the sniff, which detection imports alone).
SESSION_RECORD: Final = "vibe_session"

_ROLES: Final = frozenset({"system", "user", "assistant", "tool"})
# LLMMessage's fields; the ones after "content" are Vibe's own beside OpenAI's.
_FIELDS: Final = frozenset(
    {
        "role",
        "content",
        "injected",
        "reasoning_content",
        "reasoning_state",
        "reasoning_signature",
        "reasoning_message_id",
        "tool_calls",
        "name",
        "tool_call_id",
        "message_id",
    }
)
_OWN: Final = frozenset(
    {"injected", "reasoning_state", "reasoning_signature", "reasoning_message_id", "message_id"}
)


def _verdict(message: dict[str, Any]) -> bool | None:
    """True for a message showing a field only Vibe writes, None for a plain one, False else."""
    role = message.get("role")
    if type(role) is not str or role not in _ROLES or set(message) - _FIELDS:
        return False
    own = bool(_OWN & set(message)) or (role == "tool" and type(message.get("name")) is str)
    return own or None


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``vibe --output streaming`` (or Vibe's session log) wrote ``lines``.

    Every JSON line must be a bare message (no ``type``) with only
    ``LLMMessage``'s fields; one must show a field only Vibe writes
    (``injected``, ``message_id``, the ``reasoning_*`` ones) or a ``tool`` reply
    naming its tool (``name``), as Vibe's are.
    """
    return score_json_events(lines, _verdict)


def session_sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``lines`` are a Vibe session log as ``session_records`` gives it.

    A bare ``messages.jsonl`` is the same messages as streaming stdout (which
    ``vibe_local`` reads); the session type claims lines only when they start
    with the record made from the session's ``meta.json``.
    """
    first = next((line for line in lines if line.strip()), "")
    record = parse_json_object(first)
    if record is None or record.get("type") != SESSION_RECORD:
        return 0.0
    return 0.95 if sniff([line for line in lines if line is not first]) or len(lines) == 1 else 0.9
