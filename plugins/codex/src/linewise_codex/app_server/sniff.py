"""How surely the first lines of a log are ``codex app-server``'s JSON-RPC v2 stdio."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import orjson
from linewise_contracts.extract import as_object, as_string, parse_json_object

from linewise_codex.app_server.activity import REQUEST_KINDS

__all__ = ["read_message", "sniff"]


# The parser and the summary read messages with it too (imported from here: detection
# imports the sniff alone).
def read_message(line: str) -> dict[str, Any] | None:
    """The JSON object on ``line``, or None when it holds none."""
    try:
        message = orjson.loads(line)
    except orjson.JSONDecodeError:
        return parse_json_object(line)
    return message if type(message) is dict else None


# The v2 namespaces only Codex's app-server uses (ACP's are session/, fs/, terminal/).
_NAMESPACES: Final = ("thread/", "turn/", "item/", "serverRequest/")
# Methods without a "/" Codex's app-server has (the v1 approval requests, the handshake).
_BARE: Final = frozenset({"initialize", "initialized", *(m for m in REQUEST_KINDS if "/" not in m)})
_ITEM_TYPES: Final = frozenset(
    {
        "userMessage",
        "agentMessage",
        "plan",
        "reasoning",
        "commandExecution",
        "fileChange",
        "mcpToolCall",
        "collabToolCall",
        "collabAgentToolCall",
        "webSearch",
        "imageView",
        "enteredReviewMode",
        "exitedReviewMode",
        "contextCompaction",
        "subAgentActivity",
    }
)


def _verdict(message: dict[str, Any]) -> str:
    """``codex``, ``neutral`` (a response, another namespace) or ``foreign``."""
    if "type" in message:  # exec events, Claude's and most CLIs' stream objects
        return "foreign"
    method = message.get("method")
    if type(method) is not str:
        return (
            "neutral"
            if "id" in message and ("result" in message or "error" in message)
            else "foreign"
        )
    if "/" not in method:
        return "neutral" if method in _BARE else "foreign"
    if method.startswith(("session/", "fs/", "terminal/")):
        return "foreign"  # ACP
    if not method.startswith(_NAMESPACES):
        return "neutral"  # account/, model/, mcpServer/ ... (Codex's too, but not only its)
    if method in ("item/started", "item/completed"):
        kind = as_string(as_object(as_object(message.get("params")).get("item")).get("type"))
        return "codex" if kind in _ITEM_TYPES else "neutral"
    return "codex"


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``codex app-server`` (JSON-RPC v2 over stdio) wrote ``lines``.

    Codex lines are notifications and requests in its v2 namespaces
    (``thread/``, ``turn/``, ``item/`` with a Codex item type,
    ``serverRequest/``); responses and other namespaces are neutral. An
    object with a ``type`` (``codex exec --json``, Claude, ...), an ACP
    method (``session/``, ``fs/``, ``terminal/``) or a method without a "/"
    Codex does not have (Kimi's wire ``prompt``, ``event``) gives 0. Plain
    text lowers the score, and at least one Codex line is needed.
    """
    codex = neutral = other = 0
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        message = read_message(line) if line.startswith("{") else None
        if message is None:
            other += 1
            continue
        verdict = _verdict(message)
        if verdict == "foreign":
            return 0.0
        if verdict == "codex":
            codex += 1
        else:
            neutral += 1
    if codex == 0:
        return 0.0
    share = (codex + neutral) / (codex + neutral + other)
    if share < 0.5:
        return 0.0
    return 0.95 if share == 1 else round(0.9 * share, 3)
