"""Paperclip's ACP engine events (``acpx.*``) as entries, for every parser that accepts them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from linewise_contracts.entries import ToolCallEntry, ToolResultEntry, TranscriptEntry
from linewise_contracts.extract import (
    as_int,
    as_list,
    as_number,
    as_string,
    json_or_placeholder,
    to_json_text,
)

__all__ = ["parse_acpx_event"]

# A tool call in one of these states is over: it gets its tool_result too.
_FINISHED: Final = ("completed", "failed", "cancelled")
_THOUGHT_CHANNELS: Final = ("thought", "thinking")


def _text_of(value: object) -> str:
    """A str as itself, None as empty, anything else as indented JSON (like the reference)."""
    if type(value) is str:
        return value
    return "" if value is None else to_json_text(value, pretty=True)


def _tool_use_id(event: Mapping[str, Any]) -> str:
    return (
        as_string(event.get("toolCallId"))
        or as_string(event.get("toolUseId"))
        or as_string(event.get("id"))
    )


def _session(event: Mapping[str, Any], ts: str) -> list[TranscriptEntry]:
    agent = as_string(event.get("agent"), "acpx")
    modes = " / ".join(
        m for m in (as_string(event.get("mode")), as_string(event.get("permissionMode"))) if m
    )
    session_id = (
        as_string(event.get("acpSessionId"))
        or as_string(event.get("sessionId"))
        or as_string(event.get("runtimeSessionName"))
    )
    return [
        {
            "kind": "init",
            "ts": ts,
            "model": f"{agent} ({modes})" if modes else agent,
            "sessionId": session_id,
        }
    ]


def _text_delta(event: Mapping[str, Any], ts: str) -> list[TranscriptEntry]:
    text = as_string(event.get("text"))
    if not text:
        return []
    if event.get("provenance") == "transport":
        # Transport diagnostics arrive disguised as message chunks: they are
        # not the agent's words.
        return [{"kind": "system", "ts": ts, "text": text}]
    channel = as_string(event.get("channel")) or as_string(event.get("stream"))
    if channel in _THOUGHT_CHANNELS or (not channel and event.get("tag") == "agent_thought_chunk"):
        return [{"kind": "thinking", "ts": ts, "text": text, "delta": True}]
    return [{"kind": "assistant", "ts": ts, "text": text, "delta": True}]


def _tool_call(event: Mapping[str, Any], ts: str) -> list[TranscriptEntry]:
    status = as_string(event.get("status"))
    text = as_string(event.get("text"))
    name = as_string(event.get("name"), "acp_tool")
    ident = _tool_use_id(event)
    # The engine sends a call several times as its status moves on; the status
    # and progress text travel inside the input so each update shows them.
    tool_input: Any
    if "input" not in event:
        tool_input = {}
        if text:
            tool_input["text"] = text
        if status:
            tool_input["status"] = status
    elif type(event["input"]) is dict:
        tool_input = dict(event["input"])
        if status and "status" not in tool_input:
            tool_input["status"] = status
        if text and "text" not in tool_input:
            tool_input["text"] = text
    else:
        tool_input = event["input"]
    call: ToolCallEntry = {
        "kind": "tool_call",
        "ts": ts,
        "name": name,
        "input": json_or_placeholder(tool_input),
    }
    if ident:
        call["toolUseId"] = ident
    if status not in _FINISHED:
        return [call]
    result: ToolResultEntry = {
        "kind": "tool_result",
        "ts": ts,
        "toolUseId": ident or name,
        "toolName": name,
        "content": text or status,
        "isError": status != "completed",
    }
    return [call, result]


def _tool_result(event: Mapping[str, Any], ts: str) -> list[TranscriptEntry]:
    content = event.get("content")
    if content is None:
        content = event.get("output")
    if content is None:
        content = event.get("error")
    result: ToolResultEntry = {
        "kind": "tool_result",
        "ts": ts,
        "toolUseId": _tool_use_id(event) or as_string(event.get("name"), "acp_tool"),
        "content": _text_of(content),
        "isError": event.get("isError") is True or "error" in event,
    }
    name = as_string(event.get("name"))
    if name:
        result["toolName"] = name
    return [result]


def _number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _status_text(event: Mapping[str, Any]) -> str:
    text = as_string(event.get("text")).strip()
    tag = as_string(event.get("tag")).strip()
    used = as_number(event.get("used"), -1)
    size = as_number(event.get("size"), -1)
    parts = [text or tag] if text or tag else []
    if used >= 0 and size > 0:
        parts.append(f"({_number_text(used)}/{_number_text(size)} ctx)")
    return " ".join(parts) or "status"


def _result(event: Mapping[str, Any], ts: str) -> list[TranscriptEntry]:
    stop_reason = as_string(event.get("stopReason"), as_string(event.get("text")))
    errors = [_text_of(error) for error in as_list(event.get("errors"))]
    return [
        {
            "kind": "result",
            "ts": ts,
            "text": as_string(event.get("summary"), stop_reason),
            "inputTokens": as_number(event.get("inputTokens")),
            "outputTokens": as_number(event.get("outputTokens")),
            "cachedTokens": as_number(event.get("cachedTokens")),
            "costUsd": as_number(event.get("costUsd")),
            "subtype": as_string(
                event.get("subtype"), as_string(event.get("stopReason"), "acpx.result")
            ),
            "isError": event.get("isError") is True,
            "errors": [error for error in errors if error],
        }
    ]


def _error_text(event: Mapping[str, Any]) -> str:
    # The engine's final error record may carry no message, only the turn's stop reason.
    for key in ("message", "stopReason", "summary"):
        text = as_string(event.get(key))
        if text:
            return text
    return to_json_text(dict(event))


def _seconds(value: object) -> str:
    ms = as_int(value, -1)
    return f" after {ms / 1000:.1f}s" if ms >= 0 else ""


def _permission_text(kind: str, event: Mapping[str, Any]) -> str:
    call = as_string(event.get("toolCallId"), "unknown")
    if kind == "acpx.permission_observed":
        tool = as_string(event.get("toolKind"), "unknown")
        mode = as_string(event.get("permissionMode"))
        return f"permission requested for {tool} tool call {call}" + (f" ({mode})" if mode else "")
    if kind == "acpx.permission_settled":
        outcome = as_string(event.get("outcome"), "settled")
        return f"permission for tool call {call} settled: {outcome}{_seconds(event.get('ageMs'))}"
    if kind == "acpx.permission_unsettled":
        stage = as_string(event.get("stage"), "unknown")
        age = _seconds(event.get("ageMs"))
        return f"permission for tool call {call} never settled (last stage {stage}){age}"
    counts = [
        f"{as_int(event.get(key))} {label}"
        for key, label in (
            ("suppressedLedgerEntries", "ledger entries"),
            ("suppressedObservedEvents", "observed events"),
            ("suppressedSettledEvents", "settled events"),
            ("suppressedUnsettledEvents", "unsettled events"),
        )
        if as_int(event.get(key))
    ]
    return "permission observer truncated" + (f": {', '.join(counts)} suppressed" if counts else "")


def _entries(kind: str, event: Mapping[str, Any], ts: str) -> list[TranscriptEntry]:
    if kind == "acpx.text_delta":
        return _text_delta(event, ts)
    if kind == "acpx.tool_call":
        return _tool_call(event, ts)
    if kind == "acpx.tool_result":
        return _tool_result(event, ts)
    if kind == "acpx.session":
        return _session(event, ts)
    if kind == "acpx.status":
        return [{"kind": "system", "ts": ts, "text": _status_text(event)}]
    if kind == "acpx.result":
        return _result(event, ts)
    if kind == "acpx.error":
        return [{"kind": "stderr", "ts": ts, "text": _error_text(event)}]
    if kind.startswith("acpx.permission_"):
        return [{"kind": "system", "ts": ts, "text": _permission_text(kind, event)}]
    message = as_string(event.get("message"))
    return [{"kind": "system", "ts": ts, "text": f"{kind}: {message}" if message else kind}]


def parse_acpx_event(event: Mapping[str, Any], ts: str) -> list[TranscriptEntry] | None:
    """The entries for one ``acpx.*`` event, or None when ``event`` is not one.

    ``event`` is a parsed JSON object (a line of the agent's stdout). A parser
    that accepts ACP engine output calls this first::

        entries = parse_acpx_event(event, ts)
        if entries is not None:
            return entries

    It never raises. ``acpx.session`` becomes ``init``; ``acpx.text_delta``
    an ``assistant`` or ``thinking`` delta (a ``system`` entry for transport
    diagnostics); ``acpx.tool_call`` a ``tool_call`` carrying its status, plus
    the ``tool_result`` once the status is completed, failed or cancelled;
    ``acpx.tool_result``, ``acpx.result``, ``acpx.error`` (``stderr``) and
    ``acpx.status`` their counterparts; permission observer records and any
    other ``acpx.*`` type a ``system`` entry naming it.
    """
    kind = event.get("type")
    if type(kind) is not str or not kind.startswith("acpx."):
        return None
    try:
        return _entries(kind, event, ts)
    except RecursionError:
        # Only an event nested about a thousand levels deep makes the JSON encoder give up.
        return [{"kind": "system", "ts": ts, "text": f"{kind}: (nested too deeply to show)"}]
