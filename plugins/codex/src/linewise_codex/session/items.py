"""Codex rollout ``response_item`` records: the conversation as the model saw it."""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.entries import JsonValue, ToolCallEntry, ToolResultEntry, TranscriptEntry
from linewise_contracts.extract import (
    as_list,
    as_number,
    as_object,
    as_string,
    content_text,
    json_or_placeholder,
    parse_json_object,
    to_json_text,
)

__all__ = [
    "BARE_ITEMS",
    "CALLS",
    "DROPPED_ITEMS",
    "OUTPUTS",
    "is_prompt",
    "item_entries",
    "message_text",
]

#: Item types that call a tool (answered later by an output item with the same call_id).
CALLS: Final = {
    "function_call": "arguments",
    "custom_tool_call": "input",
    "local_shell_call": "action",
    "tool_search_call": "arguments",
}
#: The multi-agent tool whose function call starts a sub-agent thread.
_SPAWN_FUNCTIONS: Final = ("spawn_agent",)
#: Item types that answer a call.
OUTPUTS: Final = frozenset(
    {"function_call_output", "custom_tool_call_output", "tool_search_output"}
)
#: Item types a 2025 rollout wrote bare, without the ``response_item`` envelope.
BARE_ITEMS: Final = frozenset(
    {"message", "reasoning", "web_search_call", "image_generation_call", *CALLS, *OUTPUTS}
)
#: Items with nothing to show, dropped deliberately (see the package docstring).
DROPPED_ITEMS: Final = frozenset({"ghost_snapshot"})

# User-role messages Codex writes itself: the environment and instructions it sends.
_CONTEXT_TAGS: Final = (
    "<environment_context>",
    "<user_instructions>",
    "<permissions instructions>",
    "# AGENTS.md instructions",
    "<INSTRUCTIONS>",
    "<turn_aborted>",
)


def _text(content: object) -> str:
    parts: list[str] = []
    for block in as_list(content):
        body = as_object(block)
        text = body.get("text")
        if type(text) is str:
            parts.append(text)
        elif as_string(body.get("type")).endswith("image"):
            parts.append("[image]")
    return "\n".join(parts) if parts else content_text(content)


def message_text(item: dict[str, Any]) -> str:
    """A ``message`` item's text (its text blocks, images as ``[image]``)."""
    return _text(item.get("content"))


def is_prompt(item: dict[str, Any]) -> bool:
    """A ``message`` item the person wrote (not the context Codex sends as the user)."""
    text = message_text(item)
    return item.get("role") == "user" and bool(text.strip()) and not _context(text)


def _context(text: str) -> bool:
    return text.lstrip().startswith(_CONTEXT_TAGS)


def _message(item: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    text = message_text(item)
    if not text.strip():
        return []
    role = as_string(item.get("role"))
    if role == "assistant":
        return [{"kind": "assistant", "ts": ts, "text": text}]
    if role == "user" and not _context(text):
        return [{"kind": "user", "ts": ts, "text": text}]
    return [{"kind": "system", "ts": ts, "text": text}]


def _reasoning(item: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    parts = [as_string(as_object(part).get("text")) for part in as_list(item.get("content"))]
    if not any(parts):
        parts = [as_string(as_object(part).get("text")) for part in as_list(item.get("summary"))]
    text = "\n\n".join(part for part in parts if part)
    # Only encrypted reasoning: nothing a reader can see.
    return [{"kind": "thinking", "ts": ts, "text": text}] if text else []


def _call_input(value: object) -> JsonValue:
    if type(value) is str:
        parsed = parse_json_object(value)
        return json_or_placeholder(parsed) if parsed is not None else value
    return json_or_placeholder({} if value is None else value)


def _call(item: dict[str, Any], ts: str) -> ToolCallEntry:
    kind = as_string(item.get("type"))
    name = as_string(item.get("name")) or kind.removesuffix("_call") or "tool"
    namespace = as_string(item.get("namespace"))
    call: ToolCallEntry = {
        "kind": "tool_call",
        "ts": ts,
        "name": f"{namespace}.{name}" if namespace else name,
        "input": _call_input(item.get(CALLS[kind])),
    }
    if name in _SPAWN_FUNCTIONS and not namespace:
        call["startsSubagent"] = True  # contract 1.5: the call starts an agent thread
    ident = as_string(item.get("call_id")) or as_string(item.get("id"))
    if ident:
        call["toolUseId"] = ident
    return call


def _output_text(output: object) -> tuple[str, bool]:
    """An output's text and whether it failed (a shell's exit code, ``success: false``)."""
    if type(output) is str:
        wrapped = parse_json_object(output)
        if wrapped is None or "output" not in wrapped:
            return output, False
        code = as_number(as_object(wrapped.get("metadata")).get("exit_code"), 0)
        return as_string(wrapped.get("output")), code != 0
    body = as_object(output)
    if "content" in body or "success" in body:
        return content_text(body.get("content")), body.get("success") is False
    if body:
        return content_text([body]), False
    return content_text(output), False


def _output(item: dict[str, Any], ts: str) -> ToolResultEntry:
    if "output" in item:
        text, failed = _output_text(item.get("output"))
    else:  # a tool search answers with the tools it found
        text = ", ".join(
            as_string(as_object(tool).get("name")) for tool in as_list(item.get("tools"))
        )
        failed = False
    return {
        "kind": "tool_result",
        "ts": ts,
        "toolUseId": as_string(item.get("call_id")),
        "content": text,
        "isError": failed or as_string(item.get("status")) == "failed",
    }


def _done_call(item: dict[str, Any], ts: str, name: str, text: str) -> list[TranscriptEntry]:
    """A call the item reports already finished (web search, image generation): both halves."""
    ident = as_string(item.get("call_id")) or as_string(item.get("id")) or f"{name}@{ts}"
    status = as_string(item.get("status"))
    details = {key: value for key, value in item.items() if key in ("action", "revised_prompt")}
    return [
        {
            "kind": "tool_call",
            "ts": ts,
            "name": name,
            "toolUseId": ident,
            "input": json_or_placeholder(details),
        },
        {
            "kind": "tool_result",
            "ts": ts,
            "toolUseId": ident,
            "toolName": name,
            "content": text or status or "done",
            "isError": status == "failed",
        },
    ]


def item_entries(item: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    """One ``response_item`` payload as entries (tool results without ``toolName`` yet)."""
    kind = as_string(item.get("type"))
    if kind == "message":
        return _message(item, ts)
    if kind == "reasoning":
        return _reasoning(item, ts)
    if kind in CALLS:
        return [_call(item, ts)]
    if kind in OUTPUTS:
        return [_output(item, ts)]
    if kind == "web_search_call":
        action = as_object(item.get("action"))
        query = as_string(action.get("query")) or as_string(action.get("url"))
        return _done_call(item, ts, "web_search", f"searched: {query}" if query else "")
    if kind == "image_generation_call":
        return _done_call(item, ts, "image_generation", as_string(item.get("revised_prompt")))
    if kind == "agent_message":
        author, to = as_string(item.get("author"), "agent"), as_string(item.get("recipient"))
        text = f"message from {author}" + (f" to {to}" if to else "")
        return [{"kind": "system", "ts": ts, "text": f"{text}: {_text(item.get('content'))}"}]
    if kind in DROPPED_ITEMS:
        return []
    rest = {key: value for key, value in item.items() if key != "type"}
    return [{"kind": "system", "ts": ts, "text": f"codex {kind or 'item'}: {to_json_text(rest)}"}]
