"""Mistral Vibe ``vibe -p ... --output streaming`` message lines to TranscriptEntries."""

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

# Defined beside the sniff, which detection imports alone.
from linewise_vibe.sniff import SESSION_RECORD

__all__ = ["SESSION_RECORD", "VibeParser", "create_stdout_parser", "parse_stdout_line"]

_SYSTEM_TEXT_LIMIT: Final = 2000
_PROMPT_LIMIT: Final = 300
_REMEMBERED: Final = 4096


def _system(ts: str, text: str) -> TranscriptEntry:
    return {"kind": "system", "ts": ts, "text": truncate(text, _SYSTEM_TEXT_LIMIT)}


def _arguments(arguments: object) -> Any:
    if type(arguments) is str:
        decoded = parse_json_object(arguments)
        if decoded is not None:
            return decoded
        return {"arguments": arguments} if arguments.strip() else {}
    return {} if arguments is None else json_or_placeholder(arguments)


class VibeParser:
    """Vibe's messages (``LLMMessage.model_dump()``, one per line): tool replies name their call.

    The same parser reads a session's ``messages.jsonl``, after the record made
    from its ``meta.json``.
    """

    __slots__ = ("_names",)

    def __init__(self) -> None:
        self._names: BoundedMap[str, str] = BoundedMap(_REMEMBERED)

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        message = parse_json_object(line)
        if message is None:
            return stdout_entries(line, ts)
        if message.get("type") == SESSION_RECORD:
            return _start(message, ts)
        role = message.get("role")
        if type(role) is not str or "type" in message:
            return stdout_entries(line, ts)
        content = content_text(message.get("content"))
        if role == "assistant":
            entries: list[TranscriptEntry] = []
            reasoning = content_text(message.get("reasoning_content"))
            if reasoning.strip():
                entries.append({"kind": "thinking", "ts": ts, "text": reasoning})
            if content.strip():
                entries.append({"kind": "assistant", "ts": ts, "text": content})
            for call in as_list(message.get("tool_calls")):
                entries.append(self._call(as_object(call), ts))
            return entries
        if role == "tool":
            ident = as_string(message.get("tool_call_id"))
            name = as_string(message.get("name")) or self._names.get(ident) or "tool"
            return [
                {
                    "kind": "tool_result",
                    "ts": ts,
                    "toolUseId": ident,
                    "toolName": name,
                    "content": content,
                    "isError": False,
                }
            ]
        if not content.strip():
            return []
        if role == "user" and message.get("injected") is not True:
            return [{"kind": "user", "ts": ts, "text": content}]
        label = "system prompt" if role == "system" else f"{role} (injected by vibe)"
        return [_system(ts, f"{label}: {truncate(' '.join(content.split()), _PROMPT_LIMIT)}")]

    def _call(self, call: dict[str, Any], ts: str) -> TranscriptEntry:
        function = as_object(call.get("function"))
        ident = as_string(call.get("id"))
        name = as_string(function.get("name")) or "tool"
        self._names[ident] = name
        return {
            "kind": "tool_call",
            "ts": ts,
            "name": name,
            "input": _arguments(function.get("arguments")),
            "toolUseId": ident,
        }

    def reset(self) -> None:
        self._names.clear()


def _start(record: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    meta = as_object(record.get("meta"))
    ts = iso_timestamp(meta.get("start_time")) or ts
    entry: InitEntry = {
        "kind": "init",
        "ts": ts,
        "model": as_string(record.get("model")) or "unknown",
        "sessionId": as_string(meta.get("session_id")),
    }
    cwd = as_string(as_object(meta.get("environment")).get("working_directory"))
    if cwd:
        entry["cwd"] = cwd
    title = as_string(meta.get("title"))
    return [entry, _system(ts, f"title: {title}")] if title else [entry]


def parse_stdout_line(line: str, ts: str) -> list[TranscriptEntry]:
    """One Vibe message line to entries, as a fresh :class:`VibeParser` sees it."""
    return VibeParser().parse_line(line, ts)


def create_stdout_parser() -> VibeParser:
    """A fresh Vibe parser for one transcript."""
    return VibeParser()
