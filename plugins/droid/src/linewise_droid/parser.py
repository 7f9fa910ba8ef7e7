"""Factory Droid ``droid exec -o stream-json`` event lines to TranscriptEntries."""

from __future__ import annotations

from collections import deque
from typing import Any, Final

from linewise_contracts.entries import InitEntry, ResultEntry, TranscriptEntry
from linewise_contracts.extract import (
    BoundedMap,
    as_int,
    as_number,
    as_object,
    as_string,
    iso_timestamp,
    json_or_placeholder,
    parse_json_object,
    stdout_entries,
    to_json_text,
    truncate,
)

from linewise_droid.ending import with_final_fields

__all__ = [
    "DroidStdoutParser",
    "create_stdout_parser",
    "error_message",
    "parse_stdout_line",
    "result_value_text",
]

_SYSTEM_TEXT_LIMIT: Final = 2000
_REMEMBERED: Final = 4096


def _system(ts: str, text: str) -> TranscriptEntry:
    return {"kind": "system", "ts": ts, "text": truncate(text, _SYSTEM_TEXT_LIMIT)}


def error_message(event: dict[str, Any]) -> str:
    """An ``error`` event's text: ``message``, or a logged ``error: {name, message}``."""
    message = as_string(event.get("message")).strip()
    if message:
        return message
    error = event.get("error")
    if type(error) is str:
        return error.strip()
    body = as_object(error)
    text = as_string(body.get("message")).strip()
    name = as_string(body.get("name") or body.get("type")).strip()
    return f"{name}: {text}" if name and text else text or name


def failed_run_error(event: dict[str, Any]) -> str:
    """What went wrong in a failed completion (the result's error and the summary's)."""
    return error_message(event) or "Droid reported a failed run."


def result_value_text(event: dict[str, Any]) -> tuple[str, bool]:
    """A ``tool_result``'s content and whether it failed: ``value``, or ``error.message``."""
    failed = event.get("isError") is True
    if "error" in event and event.get("value") is None:
        error = event.get("error")
        body = as_object(error)
        text = as_string(body.get("message")) or (
            error if type(error) is str else to_json_text(error)
        )
        kind = as_string(body.get("type"))
        return (f"{kind}: {text}" if kind and text else text), True
    value = event.get("value")
    if value is None:
        return "", failed
    return (value if type(value) is str else to_json_text(value, pretty=True)), failed


def _ts(event: dict[str, Any], ts: str) -> str:
    return iso_timestamp(event.get("timestamp")) or ts


def _final_entry(event: dict[str, Any], ts: str) -> TranscriptEntry:
    usage = as_object(event.get("usage"))
    subtype = as_string(event.get("subtype"))
    failed = event.get("is_error") is True or event.get("isError") is True
    text = as_string(event.get("finalText")) or as_string(event.get("result"))
    cost = as_number(event.get("total_cost_usd", event.get("costUsd")), 0)
    entry: ResultEntry = {
        "kind": "result",
        "ts": ts,
        "text": text,
        "inputTokens": as_int(usage.get("input_tokens")),
        "outputTokens": as_int(usage.get("output_tokens")),
        "cachedTokens": as_int(usage.get("cache_read_input_tokens")),
        "costUsd": cost if cost >= 0 else 0,
        "subtype": subtype or ("error" if failed else "completion"),
        "isError": failed,
        "errors": [failed_run_error(event)] if failed else [],
    }
    return with_final_fields(entry, event)


class DroidStdoutParser:
    """The stateful Droid parser: tool results pair with their calls, by id or in order.

    A ``tool_result`` names its call's ``id`` when Droid knows it; when it does
    not, it answers the oldest call still open (Droid runs tools in order).
    """

    __slots__ = ("_names", "_pending", "_unnamed")

    def __init__(self) -> None:
        self._names: BoundedMap[str, str] = BoundedMap(_REMEMBERED)  # open call id -> tool name
        self._pending: deque[str] = deque(maxlen=_REMEMBERED)  # open call ids, oldest first
        self._unnamed = 0

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        event = parse_json_object(line)
        if event is None:
            return stdout_entries(line, ts)
        kind = event.get("type")
        ts = _ts(event, ts)
        if kind == "message":
            return _message(event, ts, line)
        if kind == "tool_call":
            return [self._call(event, ts)]
        if kind == "tool_result":
            return [self._result(event, ts)]
        if kind == "reasoning":
            text = as_string(event.get("text"))
            return [{"kind": "thinking", "ts": ts, "text": text}] if text.strip() else []
        if kind == "system":
            return _system_event(event, ts)
        if kind in ("completion", "result"):
            return [_final_entry(event, ts)]
        if kind == "error" or ("level" in event and type(event.get("error")) is dict):
            source = as_string(event.get("source"))
            text = error_message(event) or "Droid reported an error."
            return [{"kind": "stderr", "ts": ts, "text": f"{source}: {text}" if source else text}]
        return stdout_entries(line, ts)

    def _call(self, event: dict[str, Any], ts: str) -> TranscriptEntry:
        ident = as_string(event.get("id"))
        if not ident:
            self._unnamed += 1
            ident = f"droid-tool-{self._unnamed}"
        name = as_string(event.get("toolName")) or as_string(event.get("toolId")) or "tool"
        self._names[ident] = name
        self._pending.append(ident)
        params = event.get("parameters")
        return {
            "kind": "tool_call",
            "ts": ts,
            "name": name,
            "input": {} if params is None else json_or_placeholder(params),
            "toolUseId": ident,
        }

    def _result(self, event: dict[str, Any], ts: str) -> TranscriptEntry:
        ident = as_string(event.get("id"))
        if not ident or ident not in self._names:
            ident = next((i for i in self._pending if i in self._names), ident)
        name = self._names.pop(ident) or as_string(event.get("toolId")) or "tool"
        if ident in self._pending:
            self._pending.remove(ident)
        content, failed = result_value_text(event)
        if not ident:
            self._unnamed += 1
            ident = f"droid-tool-{self._unnamed}"
        return {
            "kind": "tool_result",
            "ts": ts,
            "toolUseId": ident,
            "toolName": name,
            "content": content,
            "isError": failed,
        }

    def reset(self) -> None:
        self._names.clear()
        self._pending.clear()
        self._unnamed = 0


def _message(event: dict[str, Any], ts: str, line: str) -> list[TranscriptEntry]:
    if type(event.get("message")) is dict:
        return stdout_entries(line, ts)  # a session file's record: the droid_session type reads it
    role = as_string(event.get("role"))
    text = as_string(event.get("text"))
    if not text.strip():
        return []
    if role == "assistant":
        return [{"kind": "assistant", "ts": ts, "text": text}]
    if role == "user":
        return [{"kind": "user", "ts": ts, "text": text}]
    return [_system(ts, f"{role or 'message'}: {text}")]


def _system_event(event: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    subtype = as_string(event.get("subtype"))
    if subtype != "init":
        text = as_string(event.get("message")) or as_string(event.get("text"))
        return [_system(ts, f"{subtype or 'system'}: {text}" if text else subtype or "system")]
    entry: InitEntry = {
        "kind": "init",
        "ts": ts,
        "model": as_string(event.get("model")) or "unknown",
        "sessionId": as_string(event.get("session_id")),
    }
    cwd = as_string(event.get("cwd"))
    if cwd:
        entry["cwd"] = cwd
    tools = event.get("tools")
    if type(tools) is list and tools:
        names = ", ".join(tool for tool in tools[:20] if type(tool) is str)
        more = f" and {len(tools) - 20} more" if len(tools) > 20 else ""
        return [entry, _system(ts, f"tools: {names}{more}")]
    return [entry]


def parse_stdout_line(line: str, ts: str) -> list[TranscriptEntry]:
    """One Droid event line to entries, as a fresh :class:`DroidStdoutParser` sees it.

    Without the lines before it, a result without an id cannot know its call.
    Prefer :func:`create_stdout_parser`.
    """
    return DroidStdoutParser().parse_line(line, ts)


def create_stdout_parser() -> DroidStdoutParser:
    """A fresh stateful Droid parser for one transcript."""
    return DroidStdoutParser()
