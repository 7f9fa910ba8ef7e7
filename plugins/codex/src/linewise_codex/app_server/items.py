"""App-server ``ThreadItem`` objects (camelCase) as the ``codex exec --json`` items they match.

The two protocols carry the same items under different spellings: the
app-server's ``commandExecution`` with ``aggregatedOutput`` and ``exitCode``
is exec's ``command_execution`` with ``aggregated_output`` and
``exit_code``. Translating the spelling lets the exec parser's item handling
(tool calls and results, file changes, messages) serve both.
"""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.extract import as_list, as_object, as_string

__all__ = ["EXEC_ITEM_TYPES", "exec_item", "item_text"]

#: App-server item type -> exec item type, for the items both protocols have.
EXEC_ITEM_TYPES: Final = {
    "agentMessage": "agent_message",
    "plan": "plan",
    "reasoning": "reasoning",
    "commandExecution": "command_execution",
    "fileChange": "file_change",
    "mcpToolCall": "mcp_tool_call",
    "webSearch": "web_search",
    "collabToolCall": "collab_tool_call",
    "collabAgentToolCall": "collab_tool_call",
    "error": "error",
}
# camelCase statuses as exec spells them (exec's _FAILED words match after this).
_STATUSES: Final = {"inProgress": "in_progress"}


def _texts(value: object) -> str:
    """Reasoning ``summary`` / ``content``: a list of strs (or of ``{text}`` parts)."""
    parts = []
    for part in as_list(value):
        text = as_string(part) or as_string(as_object(part).get("text"))
        if text:
            parts.append(text)
    return "\n\n".join(parts)


def item_text(item: dict[str, Any]) -> str:
    """The text an agent message, plan or reasoning item carries (reasoning: summary first)."""
    if item.get("type") == "reasoning":
        return _texts(item.get("summary")) or _texts(item.get("content"))
    return as_string(item.get("text"))


def _command(value: object) -> str:
    if type(value) is list:
        return " ".join(part for part in value if type(part) is str)
    return as_string(value)


def _change(change: dict[str, Any]) -> dict[str, Any]:
    # v2 spells the kind {"type": "add"|"delete"|"update", "move_path"}; early builds a str.
    kind = change.get("kind")
    return {
        "path": change.get("path"),
        "kind": as_string(as_object(kind).get("type")) or as_string(kind, "update"),
        "diff": change.get("diff"),
    }


def _mcp_result(value: object) -> object:
    result = as_object(value)
    if not result:
        return value
    return {
        "content": result.get("content"),
        "structured_content": result.get("structuredContent", result.get("structured_content")),
    }


def exec_item(item: dict[str, Any]) -> dict[str, Any] | None:
    """``item`` in exec's spelling, or None for an item type exec does not have."""
    kind = EXEC_ITEM_TYPES.get(as_string(item.get("type")))
    if kind is None:
        return None
    status = as_string(item.get("status"))
    out: dict[str, Any] = {
        "type": kind,
        "id": item.get("id"),
        "status": _STATUSES.get(status, status),
    }
    if kind in ("agent_message", "plan", "reasoning"):
        out["text"] = item_text(item)
    elif kind == "command_execution":
        out["command"] = _command(item.get("command"))
        out["exit_code"] = item.get("exitCode")
        out["aggregated_output"] = item.get("aggregatedOutput")
    elif kind == "file_change":
        out["changes"] = [_change(c) for c in as_list(item.get("changes")) if type(c) is dict]
    elif kind == "mcp_tool_call":
        out.update(server=item.get("server"), tool=item.get("tool"), error=item.get("error"))
        out["arguments"] = item.get("arguments")
        out["result"] = _mcp_result(item.get("result"))
    elif kind == "web_search":
        out["query"] = item.get("query")
        if "action" in item:
            out["action"] = item["action"]
    elif kind == "collab_tool_call":
        receivers = item.get("receiverThreadIds", item.get("receiverThreadId"))
        new_thread = item.get("newThreadId")
        threads = [t for t in [*as_list(receivers), new_thread] if type(t) is str] or (
            [receivers] if type(receivers) is str else []
        )
        out.update(tool=item.get("tool"), prompt=item.get("prompt"), receiver_thread_ids=threads)
        out["sender_thread_id"] = item.get("senderThreadId")
        out["agents_states"] = item.get("agentsStates")
    else:  # error
        out["message"] = item.get("message")
    return out
