"""Codex rollout ``event_msg`` records: what the CLI showed beside the model's items."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from linewise_contracts.entries import ResultEntry, TranscriptEntry
from linewise_contracts.extract import as_number, as_object, as_string, content_text

from linewise_codex.legacy import legacy_entries, legacy_result

__all__ = [
    "DUPLICATES",
    "TOOL_BEGINS",
    "TOOL_ENDS",
    "event_entries",
    "tool_end_entries",
    "turn_result",
]

#: Events that repeat a ``response_item`` (the prompt, the answer, the reasoning summary):
#: dropped, the item is shown.
DUPLICATES: Final = frozenset(
    {
        "user_message",
        "agent_message",
        "agent_reasoning",
        "agent_reasoning_raw_content",
        "agent_reasoning_section_break",
        "agent_message_delta",
        "agent_reasoning_delta",
        "agent_reasoning_raw_content_delta",
    }
)
#: A tool's end event -> the begin event that would have announced its call.
TOOL_ENDS: Final = {
    "exec_command_end": "exec_command_begin",
    "patch_apply_end": "patch_apply_begin",
    "mcp_tool_call_end": "mcp_tool_call_begin",
    "web_search_end": "web_search_begin",
    "view_image_tool_call": "",
    "dynamic_tool_call_response": "",
    "image_generation_end": "",
}
TOOL_BEGINS: Final = frozenset(begin for begin in TOOL_ENDS.values() if begin)


def _item_completed(item: dict[str, Any]) -> str:
    """A thread item's completion (the app-server's view of an item): its type and text."""
    text = as_string(item.get("text"))
    return f"{as_string(item.get('type'), 'item')} completed" + (f": {text}" if text else "")


def _guardian(msg: dict[str, Any]) -> str:
    action = as_object(msg.get("action"))
    what = as_string(action.get("command")) or as_string(action.get("type"), "action")
    return f"guardian {as_string(msg.get('status'), 'assessed')}: {what}"


_TEXTS: Final[dict[str, Callable[[dict[str, Any]], str]]] = {
    "context_compacted": lambda m: "context compacted",
    "thread_name_updated": lambda m: "thread named: " + as_string(m.get("thread_name")),
    "entered_review_mode": lambda m: "review mode: " + as_string(m.get("user_facing_hint")),
    "exited_review_mode": lambda m: (
        "review done: " + as_string(as_object(m.get("review_output")).get("overall_explanation"))
    ),
    "thread_goal_updated": lambda m: (
        "goal: " + as_string(as_object(m.get("goal")).get("objective"))
    ),
    "undo_completed": lambda m: (
        "undo "
        + ("done" if m.get("success") is True else "failed")
        + (f": {as_string(m.get('message'))}" if m.get("message") else "")
    ),
    "item_completed": lambda m: _item_completed(as_object(m.get("item"))),
    "guardian_assessment": _guardian,
    "thread_settings_applied": lambda m: (
        "settings: model "
        + as_string(as_object(m.get("thread_settings")).get("model"), "unchanged")
    ),
}


def _own_tool(msg: dict[str, Any], kind: str, ts: str) -> list[TranscriptEntry]:
    """The call and result of a tool event that has no begin event in the protocol."""
    ident = as_string(msg.get("call_id")) or as_string(msg.get("callId")) or f"{kind}@{ts}"
    if kind == "view_image_tool_call":
        name, text, failed = "view_image", f"viewed {as_string(msg.get('path'))}", False
        tool_input: dict[str, Any] = {"path": as_string(msg.get("path"))}
    elif kind == "dynamic_tool_call_response":
        namespace, tool = as_string(msg.get("namespace")), as_string(msg.get("tool"), "tool")
        name = f"{namespace}.{tool}" if namespace else tool
        tool_input = as_object(msg.get("arguments"))
        text = content_text(msg.get("content_items")) or as_string(msg.get("error"))
        failed = msg.get("success") is False
    else:
        name, tool_input = "image_generation", {"prompt": as_string(msg.get("revised_prompt"))}
        text, failed = (
            as_string(msg.get("status"), "done"),
            as_string(msg.get("status")) == "failed",
        )
    return [
        {"kind": "tool_call", "ts": ts, "name": name, "toolUseId": ident, "input": tool_input},
        {"kind": "tool_result", "ts": ts, "toolUseId": ident, "content": text, "isError": failed},
    ]


def tool_end_entries(
    msg: dict[str, Any], kind: str, ts: str, called: bool
) -> list[TranscriptEntry]:
    """A tool's end event: its result, and its call first unless an item already made it."""
    begin = TOOL_ENDS[kind]
    if not begin:
        entries = _own_tool(msg, kind, ts)
        return entries[1:] if called else entries
    result = legacy_entries(msg, ts)
    if called:
        return result
    return [*legacy_entries({**msg, "type": begin}, ts), *result]


def turn_result(
    msg: dict[str, Any], ts: str, usage: dict[str, Any], session: str, total: dict[str, Any]
) -> ResultEntry:
    """A turn's end (``task_complete``, ``turn_aborted``) with the tokens it spent.

    The wire counts are ``usage`` (spent since the last result); the usage
    vocabulary's (contract 1.5) are the session's running ``total``, named
    by its ``session``.
    """
    result = legacy_result(msg, ts, usage, session, total)
    if as_string(msg.get("type")) == "turn_aborted":
        result["isError"] = True
        result["errors"] = [f"turn aborted: {as_string(msg.get('reason'), 'unknown')}"]
    return result


def usage_delta(total: dict[str, Any], reported: dict[str, Any]) -> dict[str, Any]:
    """Tokens spent since the last reported total (each ``total_token_usage`` is cumulative)."""
    return {
        key: as_number(total.get(key)) - as_number(reported.get(key))
        for key in ("input_tokens", "cached_input_tokens", "output_tokens")
    }


def event_entries(msg: dict[str, Any], kind: str, ts: str) -> list[TranscriptEntry]:
    """Any other event: its own sentence, or what the legacy event reader makes of it."""
    text = _TEXTS.get(kind)
    if text is not None:
        return [{"kind": "system", "ts": ts, "text": text(msg)}]
    return legacy_entries(msg, ts)
