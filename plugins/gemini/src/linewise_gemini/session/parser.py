"""Gemini CLI's saved chats (adapter type ``gemini_session``): record lines to TranscriptEntries.

The parser reads the lines :func:`linewise_gemini.session.store.session_records`
yields (or a ``session-*.jsonl`` chat as stored): a header line with the
session's fields, then one line per message.

- header (``sessionId``, ``projectHash``, ``startTime`` ...): ``init`` with the
  session id, the model (``model``, which ``session_records`` fills from the
  first message naming one; ``meta.model`` else; "" when unknown) and the
  working directory when the header has one (``cwd``, ``directories[0]``);
- ``user``: the prompt (a string or a list of ``{text}`` parts) as ``user``;
- ``gemini`` (and ``model`` with ``parts``): ``thoughts`` as ``thinking``
  (subject, then description), ``content`` as ``assistant``, each of
  ``toolCalls`` as a ``tool_call`` and its ``tool_result`` (the response the
  model saw, else ``resultDisplay``; ``error`` and ``cancelled`` are errors),
  and ``tokens`` as a ``result`` for that reply (thought tokens count as output);
- ``info`` as ``system``, ``warning`` as ``system`` (``warning: ...``), ``error``
  as ``stderr``.

Dropped deliberately, as carrying nothing to show: ``{"$set": {...}}`` lines
(updates of the header's ``lastUpdated`` and the like). Anything else comes
out raw (``stdout``). Every entry carries its record's own ``timestamp``.
"""

from __future__ import annotations

from typing import Any, Final, cast

from linewise_contracts.entries import (
    InitEntry,
    ResultEntry,
    TokenUsageCounts,
    ToolCallEntry,
    ToolResultEntry,
    TranscriptEntry,
    model_name,
)
from linewise_contracts.extract import (
    as_list,
    as_number,
    as_string,
    content_text,
    dig,
    iso_timestamp,
    json_or_placeholder,
    parse_json_object,
    stdout_entries,
)

from linewise_gemini.usage import chat_tokens

__all__ = [
    "GeminiSessionParser",
    "create_stdout_parser",
]


_FAILED: Final = frozenset({"error", "cancelled", "canceled"})


def _init(record: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    model = as_string(record.get("model")) or as_string(dig(record, "meta", "model"))
    entry: InitEntry = {
        "kind": "init",
        "ts": iso_timestamp(record.get("startTime")) or ts,
        "model": model,
        "sessionId": as_string(record.get("sessionId")),
    }
    cwd = as_string(record.get("cwd")) or as_string(dig(record, "directories", 0))
    if cwd:
        entry["cwd"] = cwd
    return [entry]


def _part_text(part: object) -> str:
    """A content part as text: its ``text``, an attachment named by its type, else as JSON."""
    if type(part) is not dict:
        return content_text(part)
    if type(part.get("text")) is str:
        return as_string(part.get("text"))
    for key in ("inlineData", "fileData"):
        data = part.get(key)
        if type(data) is dict:  # an image or file: its bytes are not text to show
            kind = as_string(data.get("mimeType")) or "file"
            where = as_string(data.get("fileUri"))
            return f"[{kind} attached{': ' + where if where else ''}]"
    return content_text(part)


def _user_text(content: object) -> str:
    if type(content) is str:
        return content.strip()
    if type(content) is list:
        return "\n".join(piece for part in content if (piece := _part_text(part).strip()))
    return content_text(content).strip()


def _tool_output(call: dict[str, Any]) -> str:
    """What the tool gave the model (its function response), else what the CLI displayed."""
    texts: list[str] = []
    for item in as_list(call.get("result")):
        response = dig(item, "functionResponse", "response")
        if type(response) is dict:
            value = response.get("output", response.get("error"))
            texts.append(value if type(value) is str else content_text(value))
    text = "\n".join(piece for piece in texts if piece)
    if text:
        return text
    display = call.get("resultDisplay")
    if type(display) is str:
        return display
    return content_text(display) if display is not None else ""


def _tool_entries(call: object, ts: str) -> list[TranscriptEntry]:
    if type(call) is not dict:
        return []
    ts = iso_timestamp(call.get("timestamp")) or ts
    name = as_string(call.get("name"), "tool")
    ident = as_string(call.get("id")) or name
    tool_call: ToolCallEntry = {
        "kind": "tool_call",
        "ts": ts,
        "name": name,
        "input": json_or_placeholder(call.get("args", {})),
        "toolUseId": ident,
    }
    status = as_string(call.get("status")).lower()
    content = _tool_output(call)
    if status in _FAILED and status not in content.lower():
        content = f"{content}\n({status})" if content else f"({status})"
    result: ToolResultEntry = {
        "kind": "tool_result",
        "ts": ts,
        "toolUseId": ident,
        "toolName": name,
        "content": content,
        "isError": status in _FAILED,
    }
    return [tool_call, result]


def record_model(record: dict[str, Any]) -> str:
    """The model a chat record names: a reply's ``model``, or the header's ``meta.model``."""
    return as_string(record.get("model")) or as_string(dig(record, "meta", "model"))


def _tokens(
    record: dict[str, Any], tokens: dict[str, Any], ts: str, model: str, *, answered: bool
) -> TranscriptEntry:
    """A reply's ``result``: its own tokens (1.x counts; the usage vocabulary and, when the
    model is known, per model and the model: contracts 1.5, 1.9, 1.10), no cost, and
    ``completed`` when the
    reply answered with text, else ``cut_off`` (its tool calls wait for the next reply)."""
    result: ResultEntry = {
        "kind": "result",
        "ts": ts,
        "text": "",
        "inputTokens": as_number(tokens.get("input")),
        "outputTokens": as_number(tokens.get("output")) + as_number(tokens.get("thoughts")),
        "cachedTokens": as_number(tokens.get("cached")),
        "costUsd": 0,
        "subtype": "reply",
        "isError": False,
        "errors": [],
    }
    usage = chat_tokens(record)
    if usage is not None and usage.known:
        counts = cast("TokenUsageCounts", usage.to_json())
        result["usage"] = counts
        if model:
            result["modelUsage"] = {model: counts.copy()}  # its own dict, not usage's
    named = model_name(model)
    if named is not None:
        result["model"] = named  # the reply's model (contract 1.10)
    result["costSource"] = None  # Gemini records no cost: costUsd 0 is none
    result["outcome"] = "completed" if answered else "cut_off"
    return result


def _reply(record: dict[str, Any], ts: str, model: str) -> list[TranscriptEntry]:
    entries: list[TranscriptEntry] = []
    for thought in as_list(record.get("thoughts")):
        subject = as_string(dig(thought, "subject")).strip()
        description = as_string(dig(thought, "description")).strip()
        text = "\n".join(piece for piece in (subject, description) if piece)
        if text:
            when = iso_timestamp(dig(thought, "timestamp")) or ts
            entries.append({"kind": "thinking", "ts": when, "text": text})
    content = record.get("content")
    if content is None and "parts" in record:
        content = record.get("parts")
    text = _user_text(content)
    if text:
        entries.append({"kind": "assistant", "ts": ts, "text": text})
    for call in as_list(record.get("toolCalls")):
        entries.extend(_tool_entries(call, ts))
    tokens = record.get("tokens")
    if type(tokens) is dict:
        entries.append(_tokens(record, tokens, ts, model, answered=bool(text)))
    return entries


def _notice(kind: str, record: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    text = _user_text(record.get("content")) or kind
    if kind == "error":
        return [{"kind": "stderr", "ts": ts, "text": text}]
    if kind == "warning":
        return [{"kind": "system", "ts": ts, "text": f"warning: {text}"}]
    return [{"kind": "system", "ts": ts, "text": text}]


def _record_entries(
    record: dict[str, Any], line: str, ts: str, model: str = ""
) -> list[TranscriptEntry]:
    if "$set" in record and len(record) == 1:
        return []  # header updates (lastUpdated ...): nothing to show
    kind = record.get("type")
    if kind is None and type(record.get("sessionId")) is str:
        return _init(record, ts)
    ts = iso_timestamp(record.get("timestamp")) or ts
    if kind == "user":
        text = _user_text(record.get("content"))
        return [{"kind": "user", "ts": ts, "text": text}] if text else []
    if kind in ("gemini", "model"):
        return _reply(record, ts, record_model(record) or model)
    if kind in ("info", "warning", "error"):
        return _notice(kind, record, ts)
    return stdout_entries(line, ts)


class GeminiSessionParser:
    """Reads a saved Gemini chat, one record line at a time.

    It remembers the session's model (the header's, else the first record
    naming one), the model a reply's tokens belong to when the reply names none.
    """

    __slots__ = ("_header_model", "_named_model")

    def __init__(self) -> None:
        self._header_model = ""
        self._named_model = ""

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        record = parse_json_object(line)
        if record is None:
            return stdout_entries(line, ts)
        if not (self._header_model or self._named_model):
            self._named_model = record_model(record)
        entries = _record_entries(record, line, ts, self._header_model or self._named_model)
        for entry in entries:
            if entry["kind"] == "init" and entry["model"]:
                self._header_model = entry["model"]
        return entries

    def reset(self) -> None:
        self._header_model = self._named_model = ""


def create_stdout_parser() -> GeminiSessionParser:
    """A parser for one saved Gemini chat."""
    return GeminiSessionParser()
