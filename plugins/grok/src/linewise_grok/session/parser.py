"""A Grok Build session folder's records (see :mod:`.store`) to TranscriptEntries.

``updates.jsonl`` lines are ACP ``session/update`` notifications: they go
through the ACP plugin's parser (linewise-acp), each with its own
``timestamp``; Grok's own ``_x.ai/session/update`` lines are read as ACP
updates too, and its ``turn_completed`` update (the turn's usage) becomes a
note. ``chat_history.jsonl`` records are read here.
"""

from __future__ import annotations

import json
from typing import Any, Final

from linewise_acp.parser import AcpStdoutParser
from linewise_contracts.entries import InitEntry, TranscriptEntry
from linewise_contracts.extract import (
    BoundedMap,
    as_list,
    as_object,
    as_string,
    iso_timestamp,
    json_or_placeholder,
    parse_json_object,
    stdout_entries,
)
from linewise_contracts.usage import TokenUsage, token_count, without

# The sniff is defined in its own module, which detection imports alone (named here too).
from linewise_grok.session.sniff import session_sniff
from linewise_grok.session.store import END_RECORD, SESSION_RECORD

__all__ = [
    "GrokSessionParser",
    "create_stdout_parser",
    "history_text",
    "session_sniff",
    "turn_tokens",
]

_REMEMBERED: Final = 4096
_VENDOR_METHOD: Final = "_x.ai/session/update"
_HISTORY_TYPES: Final = frozenset({"user", "assistant", "tool_result", "reasoning", "system"})


def history_text(content: object) -> str:
    """A chat-history ``content``: a string, or blocks with ``text`` (or ``summary_text``)."""
    if type(content) is str:
        return content.strip()
    parts = (
        as_string(block.get("text")) or as_string(block.get("summary_text"))
        for block in as_list(content)
        if type(block) is dict
    )
    return "".join(parts).strip()


def turn_tokens(usage: object) -> TokenUsage:
    """A ``turn_completed`` usage in the vocabulary.

    Grok reports the whole input in ``inputTokens`` with the cache reads
    (``cachedReadTokens``) and, as codeburn reads it, the cache writes
    (``cacheCreationTokens``) inside it; ``reasoningTokens`` are part of
    ``outputTokens``.
    """
    body = as_object(usage)
    read = token_count(body.get("cachedReadTokens"))
    write = token_count(body.get("cacheCreationTokens"))
    return TokenUsage(
        uncached_input=without(token_count(body.get("inputTokens")), read, write),
        cache_read=read,
        cache_write=write,
        output=token_count(body.get("outputTokens")),
        reasoning=token_count(body.get("reasoningTokens")),
    )


def _usage_note(usage: object) -> str:
    tokens = turn_tokens(usage)
    if tokens.is_empty:
        return "turn completed"
    parts = [
        f"{label} {value}"
        for label, value in (
            ("input", tokens.uncached_input),
            ("cache read", tokens.cache_read),
            ("cache write", tokens.cache_write),
            ("output", tokens.output),
            ("reasoning", tokens.reasoning),
        )
        if value is not None
    ]
    return "turn completed: " + ", ".join(parts) + " tokens"


class GrokSessionParser:
    """One Grok Build session: its folder's facts, then ACP updates or chat-history records."""

    __slots__ = ("_acp", "_names", "_ts")

    def __init__(self) -> None:
        self._acp = AcpStdoutParser()
        self._names: BoundedMap[str, str] = BoundedMap(_REMEMBERED)  # tool call id -> name
        self._ts: str | None = None  # the session's start: chat-history records have no time

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        record = parse_json_object(line)
        if record is None:
            return stdout_entries(line, self._ts or ts)
        kind = as_string(record.get("type"))
        if kind == SESSION_RECORD:
            return self._start(as_object(record.get("session")), ts)
        if kind == END_RECORD:
            at = iso_timestamp(record.get("at")) or self._ts or ts
            return [{"kind": "system", "ts": at, "text": "session last active"}]
        if "method" in record or "params" in record:
            return self._update(record, line, ts)
        if kind in _HISTORY_TYPES:
            return self._history(as_string(kind), record, self._ts or ts)
        return stdout_entries(line, self._ts or ts)

    def _start(self, session: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        self._ts = iso_timestamp(session.get("createdAt")) or self._ts
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
        title = as_string(session.get("title"))
        if title:
            return [entry, {"kind": "system", "ts": at, "text": f"title: {title}"}]
        return [entry]

    def _update(self, record: dict[str, Any], line: str, ts: str) -> list[TranscriptEntry]:
        at = iso_timestamp(record.get("timestamp")) or ts
        params = as_object(record.get("params"))
        update = as_object(params.get("update"))
        if update.get("sessionUpdate") == "turn_completed":
            return [{"kind": "system", "ts": at, "text": _usage_note(update.get("usage"))}]
        if record.get("method") == _VENDOR_METHOD:
            line = json.dumps({**record, "method": "session/update"}, ensure_ascii=False)
        return self._acp.parse_line(line, at)

    def _history(self, kind: str, record: dict[str, Any], at: str) -> list[TranscriptEntry]:
        if kind == "system":
            # The system prompt Grok sent: long and the same every session; named, not shown.
            size = len(history_text(record.get("content")))
            return [{"kind": "system", "ts": at, "text": f"system prompt ({size} characters)"}]
        if kind == "reasoning":
            text = history_text(record.get("summary")) or history_text(record.get("content"))
            return [{"kind": "thinking", "ts": at, "text": text}] if text else []
        if kind == "tool_result":
            ident = as_string(record.get("tool_call_id"))
            return [
                {
                    "kind": "tool_result",
                    "ts": at,
                    "toolUseId": ident,
                    "toolName": self._names.get(ident) or "tool",
                    "content": history_text(record.get("content")),
                    "isError": record.get("is_error") is True,
                }
            ]
        text = history_text(record.get("content"))
        entries: list[TranscriptEntry] = []
        if text and kind == "assistant":
            entries.append({"kind": "assistant", "ts": at, "text": text})
        elif text:
            entries.append({"kind": "user", "ts": at, "text": text})
        for raw in as_list(record.get("tool_calls")) if kind == "assistant" else []:
            call = as_object(raw)
            ident = as_string(call.get("id"))
            name = as_string(call.get("name")) or dig_name(call) or "tool"
            self._names[ident] = name
            entries.append(
                {
                    "kind": "tool_call",
                    "ts": at,
                    "name": name,
                    "input": _arguments(call),
                    "toolUseId": ident,
                }
            )
        return entries

    def reset(self) -> None:
        self._acp.reset()
        self._names.clear()
        self._ts = None


def dig_name(call: dict[str, Any]) -> str:
    """An OpenAI-style call's ``function.name``, for chat histories that nest it."""
    return as_string(as_object(call.get("function")).get("name"))


def _arguments(call: dict[str, Any]) -> Any:
    raw = call.get("arguments", as_object(call.get("function")).get("arguments"))
    if type(raw) is str:
        parsed = parse_json_object(raw)
        return parsed if parsed is not None else raw
    return {} if raw is None else json_or_placeholder(raw)


def create_stdout_parser() -> GrokSessionParser:
    """A fresh parser for one Grok Build session."""
    return GrokSessionParser()
