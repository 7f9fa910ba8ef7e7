"""Whether a log is Grok Build's ``--output-format streaming-json`` output (``grok_local``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.extract import as_object, parse_json_object

__all__ = ["sniff"]

_DELTA_KEYS: Final = frozenset({"type", "data"})
_ERROR_KEYS: Final = frozenset({"type", "message", "error", "data", "detail", "code"})
_USAGE_KEYS: Final = frozenset({"type", "messageId", "stopReason", "usage", "signature", "model"})


def _grok_shape(event: dict[str, Any]) -> str:
    """``"grok"`` for an event only Grok writes, ``"shared"`` for a shape other CLIs write too."""
    kind = event.get("type")
    keys = event.keys()
    if kind in ("thought", "text"):
        return "grok" if keys <= _DELTA_KEYS and type(event.get("data")) is str else ""
    if kind == "end":
        return "grok" if "stopReason" in event or "sessionId" in event else ""
    if kind in ("tool_call", "tool_call_update"):
        if type(event.get("toolCallId")) is str:
            return "grok"
        # A call without its id (older builds): Grok's camelCase toolName, shared in shape.
        return "shared" if type(event.get("toolName")) is str and "subtype" not in event else ""
    if kind == "available_commands":
        return "grok"
    if kind == "plan":
        return "grok" if type(event.get("entries")) is list else ""
    if kind == "usage":
        # Pi writes ``{"type":"usage","usage":{...}}`` too: only Grok's response id
        # and signature, or its snake_case token names, tell them apart.
        if not keys <= _USAGE_KEYS:
            return ""
        if "messageId" in event or "signature" in event:
            return "grok"
        return "shared" if "input_tokens" in as_object(event.get("usage")) else ""
    if kind == "error":
        return "shared" if keys <= _ERROR_KEYS else ""
    return ""


def sniff(lines: Sequence[str]) -> float:
    """How sure (0 to 1) it is that Grok's ``streaming-json`` output starts with ``lines``.

    Counts the events only Grok writes: ``thought``/``text`` carrying nothing
    but ``data``, ``end`` with ``stopReason``, ``tool_call`` with
    ``toolCallId``, ``available_commands``. Other CLIs' JSON lines (Gemini's
    ``message``, OpenCode's ``text`` with a ``part``) count against it; a log
    of bare ``error`` lines alone stays below the confident threshold.
    """
    distinctive = neutral = foreign = 0
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        event = parse_json_object(line) if line.startswith("{") else None
        if event is None:
            foreign += 1
            continue
        shape = _grok_shape(event)
        if shape == "grok":
            distinctive += 1
        elif shape == "shared":
            neutral += 1
        else:
            foreign += 1
    total = distinctive + neutral + foreign
    if total == 0 or distinctive + neutral == 0:
        return 0.0
    if distinctive == 0:
        return 0.4 if foreign == 0 else 0.0
    share = (distinctive + neutral) / total
    return round(max(0.0, 1.0 - 2.0 * (1.0 - share)), 3)
