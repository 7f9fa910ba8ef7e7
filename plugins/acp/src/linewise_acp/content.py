"""ACP content blocks and tool-call content as text, and the JSON-RPC shapes of a line."""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.extract import as_list, as_object, as_string, dig, to_json_text

__all__ = ["block_text", "envelope", "tool_content_text"]

#: Session update kinds of the ACP schema (``session/update`` ``params.update.sessionUpdate``).
UPDATE_KINDS: Final = frozenset(
    {
        "agent_message_chunk",
        "agent_thought_chunk",
        "user_message_chunk",
        "tool_call",
        "tool_call_update",
        "plan",
        "available_commands_update",
        "current_mode_update",
        "config_option_update",
        "session_info_update",
        "usage_update",
        # ACP 1.21 and its RFDs
        "plan_update",
        "notice",
        "compaction_update",
        "compaction_summary_chunk",
        # the v2 alpha: whole messages by messageId, session state, streamed tool output
        "agent_message",
        "user_message",
        "agent_thought",
        "state_update",
        "tool_call_content_chunk",
        "terminal_update",
        "terminal_output_chunk",
    }
)


def block_text(block: object) -> str:
    """One ACP ``ContentBlock`` as text: text as is, media and resources as a placeholder."""
    if type(block) is str:
        return block
    item = as_object(block)
    kind = item.get("type")
    if kind == "text":
        return as_string(item.get("text"))
    if kind in ("image", "audio"):
        mime = as_string(item.get("mimeType"))
        uri = as_string(item.get("uri"))
        return f"[{kind}{': ' + mime if mime else ''}{' ' + uri if uri else ''}]"
    if kind == "resource_link":
        name = as_string(item.get("name")) or as_string(item.get("title"))
        return f"[resource: {name} {as_string(item.get('uri'))}]".replace(" ]", "]")
    if kind == "resource":
        resource = as_object(item.get("resource"))
        uri = as_string(resource.get("uri"))
        text = resource.get("text")
        if type(text) is str:
            return f"[resource {uri}]\n{text}" if uri else text
        return f"[resource {uri} ({as_string(resource.get('mimeType'), 'binary')})]"
    return "" if block is None else to_json_text(block)


def tool_content_text(content: object) -> str:
    """A tool call's ``content`` list as text: content blocks, diffs (as a path line), terminals."""
    parts: list[str] = []
    for part in as_list(content):
        kind = dig(part, "type")
        if kind == "content":
            parts.append(block_text(dig(part, "content")))
        elif kind == "diff":
            parts.append(f"diff: {as_string(dig(part, 'path'), '?')}")
        elif kind == "terminal":
            parts.append(f"[terminal {as_string(dig(part, 'terminalId'), '?')}]")
        elif part is not None:
            parts.append(to_json_text(part))
    return "\n".join(part for part in parts if part)


def diffs(content: object) -> list[dict[str, Any]]:
    """The ``diff`` items of a tool call's ``content`` list."""
    return [part for part in as_list(content) if dig(part, "type") == "diff"]


def envelope(event: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """What a JSON object is on an ACP wire, and its payload.

    ``("update", params)`` for a ``session/update`` notification, or for the
    bare ``{"sessionId", "update"}`` payload some agents wrote without the
    JSON-RPC envelope; ``("request", event)`` for a method call;
    ``("result", event)`` / ``("error", event)`` for a response; ``("", {})``
    for anything else.
    """
    method = event.get("method")
    if type(method) is str:
        params = as_object(event.get("params"))
        if method == "session/update" and type(params.get("update")) is dict:
            return "update", params
        return "request", event
    if "id" in event:
        if type(event.get("error")) is dict:
            return "error", event
        if "result" in event:
            return "result", event
    update = event.get("update")
    if type(update) is dict and as_string(update.get("sessionUpdate")) in UPDATE_KINDS:
        return "update", event
    if as_string(event.get("sessionUpdate")) in UPDATE_KINDS:
        # A bare update object, as the protocol's documents and some bridges' logs print them.
        return "update", {"update": event}
    return "", {}
