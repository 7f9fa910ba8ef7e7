"""A Hermes session's records (see :mod:`linewise_hermes.session.store`) to TranscriptEntries.

Messages are OpenAI chat messages as Hermes keeps them: ``user``,
``assistant`` (``content``, ``reasoning``, ``tool_calls`` as
``[{id, function: {name, arguments}}]``, ``finish_reason``), ``tool``
(``tool_call_id``, ``tool_name``, ``content``) and ``system``; each with its
``timestamp`` in epoch seconds.
"""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.entries import InitEntry, TranscriptEntry
from linewise_contracts.extract import (
    BoundedMap,
    as_list,
    as_object,
    as_string,
    content_text,
    iso_timestamp,
    json_or_placeholder,
    parse_json_object,
    stdout_entries,
    truncate,
)

from linewise_hermes.session.sniff import MESSAGE_RECORD, SESSION_RECORD, USAGE_RECORD
from linewise_hermes.session.sniff import sniff as session_sniff

__all__ = ["HermesSessionParser", "create_stdout_parser", "message_text", "session_sniff"]

_REMEMBERED: Final = 4096
_NOTE_LIMIT: Final = 300


def message_text(content: object) -> str:
    """A message's ``content``: a string, or OpenAI content parts joined."""
    if type(content) is str:
        return content
    return content_text(content)


def _call_input(call: dict[str, Any]) -> Any:
    raw = as_object(call.get("function")).get("arguments", call.get("arguments"))
    if type(raw) is str:
        parsed = parse_json_object(raw)
        return parsed if parsed is not None else raw
    return {} if raw is None else json_or_placeholder(raw)


def _call_name(call: dict[str, Any]) -> str:
    return as_string(as_object(call.get("function")).get("name")) or as_string(call.get("name"))


class HermesSessionParser:
    """One Hermes session: its row's facts, then its messages in order."""

    __slots__ = ("_names", "_ts")

    def __init__(self) -> None:
        self._names: BoundedMap[str, str] = BoundedMap(_REMEMBERED)  # tool_call_id -> name
        self._ts: str | None = None

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        record = parse_json_object(line)
        if record is None:
            return stdout_entries(line, self._ts or ts)
        kind = record.get("type")
        if kind == SESSION_RECORD:
            return self._start(as_object(record.get("session")), ts)
        if kind == MESSAGE_RECORD:
            message = record.get("message")
            if type(message) is not dict:
                text = f"(a message that is not an object: {truncate(str(message), 80)})"
                return [{"kind": "system", "ts": self._ts or ts, "text": text}]
            return self._message(message, ts)
        if kind == USAGE_RECORD:
            return []  # tokens per model: the summary's, not a transcript event
        return stdout_entries(line, self._ts or ts)

    def _start(self, session: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        self._ts = iso_timestamp(session.get("started_at")) or self._ts
        at = self._ts or ts
        entry: InitEntry = {
            "kind": "init",
            "ts": at,
            "model": as_string(session.get("model")),
            "sessionId": as_string(session.get("id")),
        }
        cwd = as_string(session.get("cwd"))
        if cwd:
            entry["cwd"] = cwd
        entries: list[TranscriptEntry] = [entry]
        notes = []
        if as_string(session.get("title")):
            notes.append(f"title: {as_string(session.get('title'))}")
        if as_string(session.get("source")):
            notes.append(f"source: {as_string(session.get('source'))}")
        parent = as_string(session.get("parent_session_id"))
        if parent:
            why = as_string(session.get("parent_end_reason"))
            notes.append(f"continues session {parent}" + (f" (it ended: {why})" if why else ""))
        entries += [{"kind": "system", "ts": at, "text": note} for note in notes]
        return entries

    def _message(self, message: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        self._ts = iso_timestamp(message.get("timestamp")) or self._ts
        at = self._ts or ts
        role = as_string(message.get("role"))
        text = message_text(message.get("content"))
        if role == "user":
            return [{"kind": "user", "ts": at, "text": text}] if text.strip() else []
        if role == "tool":
            ident = as_string(message.get("tool_call_id"))
            name = as_string(message.get("tool_name")) or self._names.get(ident) or "tool"
            return [
                {
                    "kind": "tool_result",
                    "ts": at,
                    "toolUseId": ident,
                    "toolName": name,
                    "content": text,
                    "isError": False,  # Hermes keeps no failure flag with a tool's output
                }
            ]
        if role == "assistant":
            return self._assistant(message, text, at)
        # The system prompt, or a role Hermes added since: named, shortened.
        note = truncate(" ".join(text.split()), _NOTE_LIMIT)
        label = role or "message"
        return [{"kind": "system", "ts": at, "text": f"{label}: {note}" if note else label}]

    def _assistant(self, message: dict[str, Any], text: str, at: str) -> list[TranscriptEntry]:
        entries: list[TranscriptEntry] = []
        reasoning = as_string(message.get("reasoning")) or as_string(
            message.get("reasoning_content")
        )
        if reasoning.strip():
            entries.append({"kind": "thinking", "ts": at, "text": reasoning})
        if text.strip():
            entries.append({"kind": "assistant", "ts": at, "text": text})
        for raw in as_list(message.get("tool_calls")):
            call = as_object(raw)
            ident = as_string(call.get("id"))
            name = _call_name(call) or "tool"
            self._names[ident] = name
            entries.append(
                {
                    "kind": "tool_call",
                    "ts": at,
                    "name": name,
                    "input": _call_input(call),
                    "toolUseId": ident,
                }
            )
        if message.get("finish_reason") == "length":
            entries.append({"kind": "stderr", "ts": at, "text": "the reply hit the token limit"})
        return entries

    def reset(self) -> None:
        self._names.clear()
        self._ts = None


def create_stdout_parser() -> HermesSessionParser:
    """A fresh parser for one Hermes session."""
    return HermesSessionParser()
