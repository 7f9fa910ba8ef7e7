"""Qwen Code's saved chats (``~/.qwen/projects/<project>/chats/<id>.jsonl``) to entries.

Each line is one record ``{uuid, parentUuid, sessionId, timestamp, type, cwd,
version, ...}``:

- the first record also gives ``init`` (session id, ``cwd``; the model is ""
  there, as the chat names it only in later records);
- ``user``: ``message.parts`` text as ``user``;
- ``assistant``: parts with ``thought: true`` as ``thinking``, other text as
  ``assistant``, ``functionCall`` parts as ``tool_call`` (``toolUseId`` is the
  call id);
- ``tool_result``: the ``functionResponse`` (its ``output``, else its
  ``error``, else ``toolCallResult.resultDisplay``) as ``tool_result`` with the
  call's ``toolName``; an error when ``toolCallResult.status`` is ``error`` or
  the response holds an ``error``;
- ``system`` / ``ui_telemetry``: ``qwen-code.api_response`` as a ``result``
  per model request (tokens; thought tokens are within the output count, as
  Qwen reports them), ``qwen-code.api_error`` as ``stderr``,
  ``qwen-code.tool_call`` of a call no ``functionCall`` showed (a background
  subagent's, such as the memory extractor's) as its ``tool_call`` and
  ``tool_result``; other telemetry as ``system``;
- ``system`` of other subtypes: ``system`` naming the subtype (and its text).

Dropped deliberately, as carrying nothing to show: ``system`` /
``attribution_snapshot`` (file attribution bookkeeping), the
``qwen-code.tool_call`` telemetry of a call already shown (the
``tool_result`` record says the same), and an assistant record's
``usageMetadata`` (the ``api_response`` telemetry carries the same counts, also
for requests that wrote no assistant record). Anything else comes out raw
(``stdout``). Every entry carries its record's own ``timestamp``.
"""

from __future__ import annotations

from typing import Any

from linewise_contracts.entries import InitEntry, ToolCallEntry, ToolResultEntry, TranscriptEntry
from linewise_contracts.extract import (
    BoundedMap,
    as_list,
    as_number,
    as_object,
    as_string,
    content_text,
    dig,
    iso_timestamp,
    json_or_placeholder,
    parse_json_object,
    stdout_entries,
)

__all__ = ["QwenSessionParser", "create_stdout_parser"]

_Names = BoundedMap[str, str]


def _text(value: object) -> str:
    return value if type(value) is str else content_text(value)


def _init(record: dict[str, Any], ts: str) -> TranscriptEntry:
    entry: InitEntry = {
        "kind": "init",
        "ts": ts,
        "model": as_string(record.get("model")),
        "sessionId": as_string(record.get("sessionId")),
    }
    cwd = as_string(record.get("cwd"))
    if cwd:
        entry["cwd"] = cwd
    return entry


def _user(record: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    texts = [as_string(dig(part, "text")) for part in as_list(dig(record, "message", "parts"))]
    text = "\n".join(piece for piece in texts if piece.strip()).strip()
    return [{"kind": "user", "ts": ts, "text": text}] if text else []


def _assistant(record: dict[str, Any], ts: str, names: _Names) -> list[TranscriptEntry]:
    entries: list[TranscriptEntry] = []
    for part in as_list(dig(record, "message", "parts")):
        if type(part) is not dict:
            continue
        call = part.get("functionCall")
        if type(call) is dict:
            name = as_string(call.get("name"), "tool")
            ident = as_string(call.get("id")) or name
            names[ident] = name
            entry: ToolCallEntry = {
                "kind": "tool_call",
                "ts": ts,
                "name": name,
                "input": json_or_placeholder(call.get("args", {})),
                "toolUseId": ident,
            }
            entries.append(entry)
            continue
        text = as_string(part.get("text")).strip()
        if not text:
            continue
        if part.get("thought") is True:
            entries.append({"kind": "thinking", "ts": ts, "text": text})
        else:
            entries.append({"kind": "assistant", "ts": ts, "text": text})
    return entries


def _tool_result(record: dict[str, Any], ts: str, names: _Names) -> list[TranscriptEntry]:
    outcome = as_object(record.get("toolCallResult"))
    entries: list[TranscriptEntry] = []
    for part in as_list(dig(record, "message", "parts")):
        response = dig(part, "functionResponse")
        if type(response) is not dict:
            continue
        body = as_object(response.get("response"))
        ident = as_string(response.get("id")) or as_string(outcome.get("callId"))
        content = _text(body.get("output")) or _text(body.get("error"))
        if not content:
            content = _text(outcome.get("resultDisplay"))
        failed = as_string(outcome.get("status")) == "error" or "error" in body
        result: ToolResultEntry = {
            "kind": "tool_result",
            "ts": ts,
            "toolUseId": ident or "tool",
            "toolName": names.get(ident) or as_string(response.get("name"), "tool"),
            "content": content,
            "isError": failed,
        }
        entries.append(result)
    return entries


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


def _system(record: dict[str, Any], ts: str, names: _Names) -> list[TranscriptEntry]:
    subtype = as_string(record.get("subtype"), "system")
    payload = as_object(record.get("systemPayload"))
    if subtype == "attribution_snapshot":
        return []
    if subtype == "ui_telemetry":
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
    detail = _text(payload.get("message")) or _text(payload.get("summary"))
    text = f"{subtype}: {detail.strip()}" if detail.strip() else subtype
    return [{"kind": "system", "ts": ts, "text": text}]


class QwenSessionParser:
    """Reads a Qwen Code chat; remembers tool names by call id and whether ``init`` was given."""

    __slots__ = ("_names", "_started")

    def __init__(self) -> None:
        self._names: _Names = BoundedMap()
        self._started = False

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        record = parse_json_object(line)
        if record is None or type(record.get("type")) is not str:
            return stdout_entries(line, ts)
        ts = iso_timestamp(record.get("timestamp")) or ts
        kind = record["type"]
        if kind == "user":
            entries = _user(record, ts)
        elif kind == "assistant":
            entries = _assistant(record, ts, self._names)
        elif kind == "tool_result":
            entries = _tool_result(record, ts, self._names)
        elif kind == "system":
            entries = _system(record, ts, self._names)
        else:
            return stdout_entries(line, ts)
        if not self._started and type(record.get("sessionId")) is str:
            self._started = True
            entries.insert(0, _init(record, ts))
        return entries

    def reset(self) -> None:
        self._names.clear()
        self._started = False


def create_stdout_parser() -> QwenSessionParser:
    """A parser for one Qwen Code chat."""
    return QwenSessionParser()
