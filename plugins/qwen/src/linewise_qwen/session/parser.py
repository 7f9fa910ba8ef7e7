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
- ``system``: see :mod:`linewise_qwen.session.system` (telemetry as ``result`` per
  model request, slash commands, compression and other notices; bookkeeping
  records dropped, listed there).

Records of a background subagent carry its ``agentId`` (and ``isSidechain``):
once an ``agent_session_ready`` record ties that agent to the call that
started it (``systemPayload.callId``), its entries nest under that call
(``parentToolUseId``), as do those of a record whose ``agentId`` is itself a
call id already shown. An assistant record's ``usageMetadata`` is not shown:
the ``api_response`` telemetry carries the same counts, also for requests that
wrote no assistant record. A record of another type comes out raw
(``stdout``). Every entry carries its record's own ``timestamp``.
"""

from __future__ import annotations

from typing import Any

from linewise_contracts.entries import InitEntry, ToolCallEntry, ToolResultEntry, TranscriptEntry
from linewise_contracts.extract import (
    BoundedMap,
    as_list,
    as_object,
    as_string,
    content_text,
    dig,
    iso_timestamp,
    json_or_placeholder,
    parse_json_object,
    stdout_entries,
    with_parent,
)

from linewise_qwen.session.system import system_entries
from linewise_qwen.usage import record_model, with_request_fields

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


def _part_text(part: object) -> str:
    """A prompt part as text: its ``text``, an attachment named by its type, else as JSON."""
    if type(part) is dict and type(part.get("text")) is str:
        return as_string(part.get("text"))
    for key in ("inlineData", "fileData"):
        data = dig(part, key)
        if type(data) is dict:  # an image or file: its bytes are not text to show
            return f"[{as_string(data.get('mimeType')) or 'file'} attached]"
    return content_text(part)


def _user(record: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    texts = [_part_text(part) for part in as_list(dig(record, "message", "parts"))]
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


class QwenSessionParser:
    """Reads a Qwen Code chat; remembers tool names by call id, whether ``init`` was given and
    the session's model (the first record naming one: a request naming none used it)."""

    __slots__ = ("_agents", "_model", "_names", "_started")

    def __init__(self) -> None:
        self._names: _Names = BoundedMap()
        self._agents: _Names = BoundedMap(256)  # subagent id -> the call that started it
        self._started = False
        self._model = ""

    def _parent(self, record: dict[str, Any]) -> str:
        agent = as_string(record.get("agentId"))
        if not agent:
            return ""
        if record.get("subtype") == "agent_session_ready":
            call = as_string(dig(record, "systemPayload", "callId"))
            if call:
                self._agents[agent] = call
        return self._agents.get(agent) or (agent if agent in self._names else "")

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        record = parse_json_object(line)
        if record is not None and not self._model:
            self._model = record_model(record)
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
            entries = system_entries(record, ts, self._names)
            for entry in entries:
                if entry["kind"] == "result":  # a model request's tokens (usage.py)
                    with_request_fields(entry, record, record_model(record) or self._model)
        else:
            return stdout_entries(line, ts)
        with_parent(entries, self._parent(record))
        if not self._started and type(record.get("sessionId")) is str:
            self._started = True
            entries.insert(0, _init(record, ts))
        return entries

    def reset(self) -> None:
        self._agents.clear()
        self._names.clear()
        self._started = False
        self._model = ""


def create_stdout_parser() -> QwenSessionParser:
    """A parser for one Qwen Code chat."""
    return QwenSessionParser()
