"""Copilot CLI's legacy session documents (:mod:`.history_store`) to entries."""

from __future__ import annotations

from collections import deque
from typing import Any, Final

from linewise_contracts.entries import InitEntry, TranscriptEntry
from linewise_contracts.extract import (
    as_list,
    as_object,
    as_string,
    content_text,
    iso_timestamp,
    json_or_placeholder,
    parse_json_object,
    stdout_entries,
    to_json_text,
    truncate,
)

# The sniff is defined in its own module, which detection imports alone (named here too).
from linewise_copilot.session.history_sniff import history_sniff
from linewise_copilot.session.history_store import EVENT_RECORD, MESSAGE_RECORD, SESSION_RECORD

__all__ = ["CopilotHistoryParser", "create_stdout_parser", "history_sniff", "message_text"]

_NOTE_LIMIT: Final = 300
_PENDING: Final = 4096  # calls without a result yet, remembered for results that name none


def message_text(content: object) -> str:
    """A chat message's ``content``: a string, or content parts joined."""
    return content if type(content) is str else content_text(content)


def _arguments(function: dict[str, Any]) -> Any:
    raw = function.get("arguments")
    if type(raw) is str:
        parsed = parse_json_object(raw)
        return parsed if parsed is not None else raw
    return {} if raw is None else json_or_placeholder(raw)


class CopilotHistoryParser:
    """One legacy document: its session record, then chat messages (or timeline events).

    The document keeps one time, ``startTime``: every entry takes it. Calls
    without an ``id`` get ``call-N`` (their order in the document), and a tool
    message without ``tool_call_id`` answers the oldest call still unanswered.
    """

    __slots__ = ("_count", "_names", "_pending", "_ts")

    def __init__(self) -> None:
        self._ts: str | None = None
        self._count = 0
        self._pending: deque[str] = deque(maxlen=_PENDING)
        self._names: dict[str, str] = {}

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        record = parse_json_object(line)
        at = self._ts or ts
        if record is None:
            return stdout_entries(line, at)
        kind = record.get("type")
        if kind == SESSION_RECORD:
            return self._start(as_object(record.get("session")), ts)
        if kind == MESSAGE_RECORD and type(record.get("message")) is dict:
            return self._message(record["message"], at)
        if kind == EVENT_RECORD:
            return [self._event(record.get("event"), at)]
        return stdout_entries(line, at)

    def _start(self, session: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        self._ts = iso_timestamp(session.get("startTime")) or self._ts
        at = self._ts or ts
        entry: InitEntry = {
            "kind": "init",
            "ts": at,
            "model": as_string(session.get("model")) or as_string(session.get("selectedModel")),
            "sessionId": as_string(session.get("sessionId")),
        }
        cwd = as_string(session.get("cwd")) or as_string(
            as_object(session.get("context")).get("cwd")
        )
        if cwd:
            entry["cwd"] = cwd
        return [entry]

    def _message(self, message: dict[str, Any], at: str) -> list[TranscriptEntry]:
        role = as_string(message.get("role"))
        text = message_text(message.get("content"))
        if role == "user":
            return [{"kind": "user", "ts": at, "text": text}] if text.strip() else []
        if role == "tool":
            ident = as_string(message.get("tool_call_id"))
            if not ident and self._pending:
                ident = self._pending.popleft()
            elif ident in self._pending:
                self._pending.remove(ident)
            name = as_string(message.get("name")) or self._names.get(ident) or "tool"
            return [
                {
                    "kind": "tool_result",
                    "ts": at,
                    "toolUseId": ident,
                    "toolName": name,
                    "content": text,
                    "isError": False,  # the document keeps no failure flag with a result
                }
            ]
        if role == "assistant":
            entries: list[TranscriptEntry] = []
            if text.strip():
                entries.append({"kind": "assistant", "ts": at, "text": text})
            for raw in as_list(message.get("tool_calls")):
                call = as_object(raw)
                function = as_object(call.get("function"))
                self._count += 1
                ident = as_string(call.get("id")) or f"call-{self._count}"
                name = as_string(function.get("name")) or "tool"
                self._names[ident] = name
                self._pending.append(ident)
                entries.append(
                    {
                        "kind": "tool_call",
                        "ts": at,
                        "name": name,
                        "input": _arguments(function),
                        "toolUseId": ident,
                    }
                )
            return entries
        note = truncate(" ".join(text.split()), _NOTE_LIMIT)
        label = role or "message"
        return [{"kind": "system", "ts": at, "text": f"{label}: {note}" if note else label}]

    def _event(self, event: object, at: str) -> TranscriptEntry:
        body = as_object(event)
        kind = as_string(body.get("type")) or as_string(body.get("event_type")) or "event"
        title = as_string(body.get("toolTitle")) or as_string(body.get("title"))
        detail = title or truncate(to_json_text(event), _NOTE_LIMIT)
        stamp = iso_timestamp(body.get("timestamp")) or at
        return {"kind": "system", "ts": stamp, "text": f"timeline: {kind}: {detail}"}

    def reset(self) -> None:
        self._ts = None
        self._count = 0
        self._pending.clear()
        self._names.clear()


def create_stdout_parser() -> CopilotHistoryParser:
    """A fresh parser for one legacy document's records."""
    return CopilotHistoryParser()
