"""Kimi Code's session records (``agents/<id>/wire.jsonl``) to TranscriptEntries."""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.entries import InitEntry, TranscriptEntry
from linewise_contracts.extract import (
    BoundedMap,
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

from linewise_kimi.parser import KimiStdoutParser
from linewise_kimi.session.store import SESSION_RECORD

__all__ = ["KimiSessionParser", "create_stdout_parser", "record_usage"]

_REMEMBERED: Final = 4096
_SYSTEM_TEXT_LIMIT: Final = 2000
# Records that set up the session or mark a boundary: shown as one short note, or not at all.
_QUIET: Final = frozenset({"tools.set_active_tools", "step.begin", "llm.request"})


def _system(ts: str, text: str) -> TranscriptEntry:
    return {"kind": "system", "ts": ts, "text": truncate(text, _SYSTEM_TEXT_LIMIT)}


def record_usage(usage: object) -> dict[str, int | None]:
    """A ``usage.record`` or ``step.end`` usage in the vocabulary's names.

    ``inputOther`` is the uncached input, ``inputCacheRead`` / ``inputCacheCreation``
    the cache reads and writes, ``output`` the output.
    """
    body = as_object(usage)

    def count(key: str) -> int | None:
        value = body.get(key)
        return value if type(value) is int and value >= 0 else None

    return {
        "uncached_input": count("inputOther"),
        "cache_read": count("inputCacheRead"),
        "cache_write": count("inputCacheCreation"),
        "output": count("output"),
    }


class KimiSessionParser:
    """A Kimi Code session: its metadata and config, the prompts, the agent loop's events.

    The prompt arrives twice (``turn.prompt`` and the user message appended to
    the context); it is shown once. An assistant message appended to the
    context repeats the loop's streamed ``content.part`` events; it is shown
    only when nothing was streamed for it.

    kimi-cli's ``context.jsonl`` (one OpenAI-style message per line) is read
    as print mode's messages are.
    """

    __slots__ = ("_init", "_messages", "_names", "_prompt", "_streamed")

    def __init__(self) -> None:
        self._names: BoundedMap[str, str] = BoundedMap(_REMEMBERED)
        self._messages = KimiStdoutParser()
        self._prompt = ""
        self._streamed = False
        self._init = False

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        record = parse_json_object(line)
        if record is None:
            return stdout_entries(line, ts)
        if "type" not in record and type(record.get("role")) is str:
            return self._messages.parse_line(line, ts)
        kind = as_string(record.get("type"))
        ts = iso_timestamp(record.get("time") or record.get("created_at")) or ts
        if kind == "context.append_loop_event":
            return self._loop(as_object(record.get("event")), ts)
        if kind == "context.append_message":
            return self._message(as_object(record.get("message")), ts)
        if kind == "turn.prompt":
            text = content_text(record.get("input")).strip()
            self._prompt, self._streamed = text, False
            return [{"kind": "user", "ts": ts, "text": text}] if text else []
        if kind == SESSION_RECORD:
            return self._start(as_string(record.get("sessionId")), ts)
        if kind == "metadata":
            version = as_string(record.get("protocol_version"))
            note = _system(ts, f"Kimi Code session (wire protocol {version or '?'})")
            return [note] if self._init else [*self._start("", ts), note]
        if kind == "config.update":
            cwd = as_string(record.get("cwd"))
            profile = as_string(record.get("profileName"))
            facts = [
                fact
                for fact in (f"cwd {cwd}" if cwd else "", f"profile {profile}" if profile else "")
                if fact
            ]
            return [_system(ts, "config: " + ", ".join(facts))] if facts else []
        if kind == "permission.set_mode":
            return [_system(ts, f"permission mode: {as_string(record.get('mode')) or '?'}")]
        if kind == "usage.record":
            return []  # totals for the summary
        if kind in _QUIET:
            return []
        if kind:
            return [_system(ts, f"{kind}: {truncate(to_json_text(record), 300)}")]
        return stdout_entries(line, ts)

    def _start(self, ident: str, ts: str) -> list[TranscriptEntry]:
        if self._init:
            return []
        self._init = True
        entry: InitEntry = {"kind": "init", "ts": ts, "model": "unknown", "sessionId": ident}
        return [entry]

    def _message(self, message: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        role = as_string(message.get("role"))
        text = content_text(message.get("content")).strip()
        if role == "user":
            if not text or text == self._prompt:
                return []
            self._prompt, self._streamed = text, False
            return [{"kind": "user", "ts": ts, "text": text}]
        if role == "assistant":
            if self._streamed or not text:
                return []
            return [{"kind": "assistant", "ts": ts, "text": text}]
        return [_system(ts, f"{role or 'message'}: {text}")] if text else []

    def _loop(self, event: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        kind = as_string(event.get("type"))
        if kind == "content.part":
            part = as_object(event.get("part"))
            self._streamed = True
            if part.get("type") == "think":
                text = as_string(part.get("think")) or as_string(part.get("text"))
                return [{"kind": "thinking", "ts": ts, "text": text, "delta": True}] if text else []
            text = as_string(part.get("text"))
            return [{"kind": "assistant", "ts": ts, "text": text, "delta": True}] if text else []
        if kind == "tool.call":
            ident = as_string(event.get("toolCallId")) or as_string(event.get("uuid"))
            name = as_string(event.get("name")) or "tool"
            self._names[ident] = name
            args = event.get("args")
            return [
                {
                    "kind": "tool_call",
                    "ts": ts,
                    "name": name,
                    "input": {} if args is None else json_or_placeholder(args),
                    "toolUseId": ident,
                }
            ]
        if kind == "tool.result":
            ident = as_string(event.get("toolCallId"))
            result = event.get("result")
            body = as_object(result)
            output = body.get("output", result)
            text = output if type(output) is str else content_text(output) or to_json_text(output)
            return [
                {
                    "kind": "tool_result",
                    "ts": ts,
                    "toolUseId": ident,
                    "toolName": self._names.get(ident) or "tool",
                    "content": text,
                    "isError": body.get("isError") is True or body.get("is_error") is True,
                }
            ]
        if kind == "step.end":
            reason = as_string(event.get("finishReason"))
            return (
                [_system(ts, f"step finished ({reason})")]
                if reason and reason != "end_turn"
                else []
            )
        if kind in _QUIET:
            return []
        return [_system(ts, f"{kind or 'loop event'}: {truncate(to_json_text(event), 300)}")]

    def reset(self) -> None:
        self._names.clear()
        self._messages.reset()
        self._prompt = ""
        self._streamed = False
        self._init = False


def create_stdout_parser() -> KimiSessionParser:
    """A fresh parser for one Kimi Code session's records."""
    return KimiSessionParser()
