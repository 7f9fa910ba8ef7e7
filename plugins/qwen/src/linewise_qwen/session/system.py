"""Qwen Code's ``system`` records (telemetry, compression, commands, notices) to entries.

Each subtype says what happened beside the conversation:

- ``ui_telemetry``: ``qwen-code.api_response`` is a ``result`` per model
  request (tokens; thought tokens are within the output count, as Qwen reports
  them), ``qwen-code.api_error`` a ``stderr``, ``qwen-code.tool_call`` of a call
  no ``functionCall`` showed (a background subagent's) its ``tool_call`` and
  ``tool_result``; other telemetry a ``system`` naming the event;
- ``slash_command``: the invocation as ``user`` (the command typed), its
  result as ``system`` (the text of the items the CLI showed);
- ``agent_session_ready``: ``system`` (it also ties a subagent's ``agentId`` to
  the call that started it: see :mod:`linewise_qwen.session.parser`);
- ``chat_compression``, ``at_command``, ``notification``, ``custom_title``,
  ``session_model``, ``rewind`` and any other subtype: ``system``, with the
  payload's text where it has one.

Dropped deliberately, as bookkeeping with nothing to show:
``attribution_snapshot``, ``file_history_snapshot``, ``user_text_elements``,
``session_artifact_event`` / ``session_artifact_snapshot``,
``session_sources_snapshot``, ``branch_checkpoint``, ``session_execution_engine``,
``agent_bootstrap`` (a copy of the parent's history seeding a forked subagent),
the ``managed_session_*`` records, and the ``qwen-code.tool_call`` telemetry of
a call already shown.
"""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.entries import ToolCallEntry, ToolResultEntry, TranscriptEntry
from linewise_contracts.extract import (
    BoundedMap,
    as_list,
    as_number,
    as_object,
    as_string,
    content_text,
    dig,
    json_or_placeholder,
)

__all__ = ["system_entries"]

_Names = BoundedMap[str, str]

_BOOKKEEPING: Final = frozenset(
    {
        "attribution_snapshot",
        "file_history_snapshot",
        "user_text_elements",
        "session_artifact_event",
        "session_artifact_snapshot",
        "session_sources_snapshot",
        "branch_checkpoint",
        "session_execution_engine",
        "agent_bootstrap",
        "managed_session_header_v1",
        "managed_session_event_v1",
        "managed_session_commit_v1",
    }
)


def _api_response(event: dict[str, Any], ts: str) -> TranscriptEntry:
    status = as_number(event.get("status_code"), 200)
    subagent = as_string(event.get("subagent_name"))
    return {
        "kind": "result",
        "ts": ts,
        "text": f"subagent {subagent}" if subagent else "",
        "inputTokens": as_number(event.get("input_token_count")),
        "outputTokens": as_number(event.get("output_token_count")),
        "cachedTokens": as_number(event.get("cached_content_token_count")),
        "costUsd": 0,
        "subtype": "api_response",
        "isError": status >= 400,
        "errors": [],
    }


def _telemetry_tool(event: dict[str, Any], ts: str, names: _Names) -> list[TranscriptEntry]:
    ident = as_string(event.get("call_id"))
    name = as_string(event.get("function_name"), "tool")
    if ident and ident in names:
        return []  # shown by the functionCall part and its tool_result record
    ident = ident or name
    names[ident] = name
    failed = event.get("success") is False or as_string(event.get("status")) == "error"
    error = as_string(event.get("error"))
    status = as_string(event.get("status")) or ("error" if failed else "success")
    call: ToolCallEntry = {
        "kind": "tool_call",
        "ts": ts,
        "name": name,
        "input": json_or_placeholder(event.get("function_args", {})),
        "toolUseId": ident,
    }
    result: ToolResultEntry = {
        "kind": "tool_result",
        "ts": ts,
        "toolUseId": ident,
        "toolName": name,
        # The telemetry keeps the error, not the output: say what is known.
        "content": error or f"status: {status}",
        "isError": failed,
    }
    return [call, result]


def _telemetry(payload: dict[str, Any], ts: str, names: _Names) -> list[TranscriptEntry]:
    event = as_object(payload.get("uiEvent"))
    name = as_string(event.get("event.name"))
    if name == "qwen-code.api_response":
        return [_api_response(event, ts)]
    if name == "qwen-code.tool_call":
        return _telemetry_tool(event, ts, names)
    if name == "qwen-code.api_error":
        text = as_string(event.get("error")) or as_string(event.get("error_type"), "API error")
        return [{"kind": "stderr", "ts": ts, "text": text}]
    return [{"kind": "system", "ts": ts, "text": f"telemetry: {name or 'event'}"}]


def _slash_command(payload: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    command = as_string(payload.get("rawCommand")).strip()
    if payload.get("phase") == "invocation":
        return [{"kind": "user", "ts": ts, "text": command}] if command else []
    items = as_list(payload.get("outputHistoryItems"))
    shown = [as_string(dig(item, "text")).strip() for item in items]
    text = "\n".join(piece for piece in shown if piece)
    label = f"{command}: " if command else "command: "
    return [{"kind": "system", "ts": ts, "text": label + (text or "done")}]


def _detail(subtype: str, payload: dict[str, Any]) -> str:
    """The text a system record's payload has to show, or ""."""
    if subtype == "chat_compression":
        info = as_object(payload.get("info"))
        before = as_number(info.get("originalTokenCount"), -1)
        after = as_number(info.get("newTokenCount"), -1)
        if before >= 0 and after >= 0:
            return f"{before:g} -> {after:g} tokens"
    elif subtype == "at_command":
        files = [name for name in as_list(payload.get("filesRead")) if type(name) is str]
        return as_string(payload.get("userText")) or ", ".join(files)
    elif subtype == "custom_title":
        return as_string(payload.get("customTitle"))
    elif subtype == "session_model":
        return as_string(payload.get("modelId"))
    elif subtype == "rewind":
        count = as_number(payload.get("truncatedCount"), -1)
        if count >= 0:
            return f"{count:g} items"
    for key in ("displayText", "message", "summary"):
        value = payload.get(key)
        text = value if type(value) is str else content_text(value) if value is not None else ""
        if text.strip():
            return text
    return ""


def system_entries(record: dict[str, Any], ts: str, names: _Names) -> list[TranscriptEntry]:
    """The entries of one ``system`` record (see the module docstring)."""
    subtype = as_string(record.get("subtype"), "system")
    payload = as_object(record.get("systemPayload"))
    if subtype in _BOOKKEEPING:
        return []
    if subtype == "ui_telemetry":
        return _telemetry(payload, ts, names)
    if subtype == "slash_command":
        return _slash_command(payload, ts)
    detail = _detail(subtype, payload).strip()
    text = f"{subtype.replace('_', ' ')}: {detail}" if detail else subtype.replace("_", " ")
    return [{"kind": "system", "ts": ts, "text": text}]
