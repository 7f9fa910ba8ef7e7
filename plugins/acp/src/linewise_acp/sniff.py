"""How surely the first lines of a log are an ACP agent's JSON-RPC stdout."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from linewise_contracts.extract import as_object, as_string, parse_json_object

from linewise_acp.content import UPDATE_KINDS, envelope

__all__ = ["sniff"]

_METHODS: Final = frozenset(
    {
        "session/update",
        "session/request_permission",
        "session/prompt",
        "session/new",
        "session/load",
        "session/cancel",
        "session/set_mode",
        "initialize",
        "authenticate",
        "fs/read_text_file",
        "fs/write_text_file",
        "terminal/create",
        "terminal/output",
        "terminal/release",
        "terminal/wait_for_exit",
        "terminal/kill",
    }
)
_RESULT_KEYS: Final = ("stopReason", "sessionId", "protocolVersion", "agentCapabilities")


def _distinctive(event: dict[str, object]) -> bool:
    shape, payload = envelope(event)
    if shape == "update":
        return as_string(as_object(payload.get("update")).get("sessionUpdate")) in UPDATE_KINDS
    if shape == "request":
        method = as_string(event.get("method"))
        if method == "initialize":
            # ACP's protocolVersion, camelCase; Kimi's wire protocol says protocol_version.
            return "protocolVersion" in as_object(event.get("params"))
        return method in _METHODS
    if shape == "result":
        result = as_object(event.get("result"))
        return any(key in result for key in _RESULT_KEYS)
    return False


def _foreign(event: dict[str, object]) -> bool:
    """A JSON-RPC call of another protocol: ACP's methods all have a "/" but two."""
    method = event.get("method")
    if event.get("jsonrpc") != "2.0" or type(method) is not str:
        return False
    return "/" not in method and method not in ("initialize", "authenticate")


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely an ACP agent (JSON-RPC 2.0 over stdio) wrote ``lines``.

    ACP lines are ``session/update`` notifications (or their bare
    ``{"sessionId", "update"}`` payload), ACP method calls and responses
    carrying ACP results (``stopReason``, ``sessionId``, ``protocolVersion``);
    other JSON-RPC messages and errors are neutral, any other JSON object
    counts against it, and a call of a method without a "/" other than
    ``initialize`` and ``authenticate`` (Kimi's wire ``prompt``, say) means
    another protocol. Plain text is tolerated while ACP lines dominate.
    """
    distinctive = neutral = other = 0
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        event = parse_json_object(line) if line.startswith("{") else None
        if event is None:
            other += 1
        elif _foreign(event):
            return 0.0
        elif _distinctive(event):
            distinctive += 1
        elif event.get("jsonrpc") == "2.0":
            neutral += 1
        else:
            other += 1
    if distinctive == 0:
        return 0.0
    share = (distinctive + neutral) / (distinctive + neutral + other)
    if share < 0.5:
        return 0.0
    return 0.95 if share == 1 else round(0.95 * share, 3)
