"""Droid session records (``~/.factory/sessions/*/<uuid>.jsonl``) to TranscriptEntries."""

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

from linewise_droid.sniff import SETTINGS_RECORD

__all__ = ["DroidSessionParser", "create_stdout_parser"]

_REMEMBERED: Final = 4096
_REMINDER_LIMIT: Final = 300
_REMINDER: Final = "<system-reminder>"


class DroidSessionParser:
    """A Droid session: its start, then Anthropic-style messages with content blocks.

    The first user turn carries ``<system-reminder>`` blocks Droid adds for the
    model; they are shown as shortened system notes, not as the person's words.
    """

    __slots__ = ("_model", "_names")

    def __init__(self) -> None:
        self._model = "unknown"
        self._names: BoundedMap[str, str] = BoundedMap(_REMEMBERED)  # tool_use id -> name

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        record = parse_json_object(line)
        if record is None:
            return stdout_entries(line, ts)
        kind = record.get("type")
        ts = iso_timestamp(record.get("timestamp")) or ts
        if kind == SETTINGS_RECORD:
            self._model = as_string(as_object(record.get("settings")).get("model")) or self._model
            return []
        if kind == "session_start":
            return self._start(record, ts)
        if kind == "message" and type(record.get("message")) is dict:
            return self._message(record["message"], ts)
        return stdout_entries(line, ts)

    def _start(self, record: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        entry: InitEntry = {
            "kind": "init",
            "ts": ts,
            "model": self._model,
            "sessionId": as_string(record.get("id")),
        }
        cwd = as_string(record.get("cwd"))
        if cwd:
            entry["cwd"] = cwd
        title = as_string(record.get("title")) or as_string(record.get("sessionTitle"))
        if title:
            return [entry, {"kind": "system", "ts": ts, "text": f"title: {title}"}]
        return [entry]

    def _message(self, message: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        role = as_string(message.get("role"))
        content = message.get("content")
        if type(content) is str:
            content = [{"type": "text", "text": content}]
        entries: list[TranscriptEntry] = []
        for block in as_list(content):
            if type(block) is dict:
                entries += self._block(role, block, ts)
        return entries

    def _block(self, role: str, block: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        kind = block.get("type")
        if kind == "text":
            text = as_string(block.get("text"))
            if not text.strip():
                return []
            if role == "user" and text.lstrip().startswith(_REMINDER):
                note = truncate(" ".join(text.split()), _REMINDER_LIMIT)
                return [{"kind": "system", "ts": ts, "text": f"system reminder: {note}"}]
            if role == "assistant":
                return [{"kind": "assistant", "ts": ts, "text": text}]
            return [{"kind": "user", "ts": ts, "text": text}]
        if kind == "thinking":
            text = as_string(block.get("thinking")) or as_string(block.get("text"))
            return [{"kind": "thinking", "ts": ts, "text": text}] if text.strip() else []
        if kind == "tool_use":
            ident = as_string(block.get("id"))
            name = as_string(block.get("name")) or "tool"
            self._names[ident] = name
            params = block.get("input")
            return [
                {
                    "kind": "tool_call",
                    "ts": ts,
                    "name": name,
                    "input": {} if params is None else json_or_placeholder(params),
                    "toolUseId": ident,
                }
            ]
        if kind == "tool_result":
            ident = as_string(block.get("tool_use_id"))
            return [
                {
                    "kind": "tool_result",
                    "ts": ts,
                    "toolUseId": ident,
                    "toolName": self._names.get(ident) or "tool",
                    "content": content_text(block.get("content")),
                    "isError": block.get("is_error") is True,
                }
            ]
        # Images and other blocks carry no text a transcript can show: say they were there.
        return [{"kind": "system", "ts": ts, "text": f"({as_string(kind) or 'unknown'} block)"}]

    def reset(self) -> None:
        self._model = "unknown"
        self._names.clear()


def create_stdout_parser() -> DroidSessionParser:
    """A fresh parser for one Droid session's records."""
    return DroidSessionParser()
