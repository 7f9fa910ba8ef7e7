"""Pi session files (``~/.pi/agent/sessions/*/*.jsonl``) to TranscriptEntries.

The format is Pi's ``docs/session.md`` and ``core/session-manager.ts``: a
``session`` header (``version``, ``id``, ``timestamp``, ``cwd``; version 1
also ``provider`` and ``modelId``), then entries, each with its ISO
``timestamp`` and, from version 2, ``id`` and ``parentId``: ``message`` (an
AgentMessage: user, assistant with ``toolCall`` blocks, toolResult,
bashExecution, custom, branchSummary, compactionSummary), ``model_change``,
``thinking_level_change``, ``compaction``, ``branch_summary``, ``custom``,
``custom_message``, ``label`` and ``session_info``.

Entries form a tree: going back with ``/tree`` appends a new branch to the
same file. The records are shown in file order, every branch, and an entry
whose parent is not the record before it says where its branch starts.
"""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.entries import InitEntry, TranscriptEntry
from linewise_contracts.extract import (
    BoundedMap,
    as_list,
    as_number,
    as_string,
    content_text,
    iso_timestamp,
    json_or_placeholder,
    parse_json_object,
    stdout_entries,
    truncate,
)

from linewise_pi.parser import assistant_entries, message_entries, tool_result_text
from linewise_pi.session.sniff import ENTRY_TYPES as _ENTRY_TYPES
from linewise_pi.session.sniff import sniff as session_sniff

__all__ = ["PiSessionParser", "create_stdout_parser", "model_name", "session_sniff"]

_REMEMBERED: Final = 4096
_NOTE_LIMIT: Final = 2000


def model_name(provider: object, model: object) -> str:
    """``provider/model`` as Pi names a model (just the model without a provider)."""
    provider, model = as_string(provider), as_string(model)
    return f"{provider}/{model}" if provider and model else model


def _note(ts: str, text: str) -> TranscriptEntry:
    return {"kind": "system", "ts": ts, "text": truncate(text, _NOTE_LIMIT)}


class PiSessionParser:
    """One Pi session file: its header, then its entries in file order (every branch)."""

    __slots__ = ("_last", "_model", "_names")

    def __init__(self) -> None:
        self._names: BoundedMap[str, str] = BoundedMap(_REMEMBERED)  # toolCallId -> name
        self._last: str | None = None  # the id of the entry before
        self._model = ""

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        record = parse_json_object(line)
        if record is None:
            return stdout_entries(line, ts)
        ts = iso_timestamp(record.get("timestamp")) or ts
        kind = as_string(record.get("type"))
        if kind == "session":
            return self._header(record, ts)
        if kind not in _ENTRY_TYPES:
            return stdout_entries(line, ts)
        entries = self._branch(record, ts)
        if kind == "message":
            message = record.get("message")
            if type(message) is not dict:
                return stdout_entries(line, ts)
            return entries + self._message(message, ts)
        return entries + self._entry(kind, record, ts)

    def _header(self, record: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        self._model = model_name(record.get("provider"), record.get("modelId"))
        entry: InitEntry = {
            "kind": "init",
            "ts": ts,
            "model": self._model,
            "sessionId": as_string(record.get("id")),
        }
        cwd = as_string(record.get("cwd"))
        if cwd:
            entry["cwd"] = cwd
        entries: list[TranscriptEntry] = [entry]
        origin = as_string(record.get("parentSession")) or as_string(record.get("branchedFrom"))
        if origin:
            entries.append(_note(ts, f"forked from {origin}"))
        return entries

    def _branch(self, record: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        """A note when this entry's parent is not the entry before it (another branch)."""
        ident = as_string(record.get("id"))
        if "parentId" not in record or not ident:
            return []  # version 1: a plain sequence
        parent = record.get("parentId")
        previous, self._last = self._last, ident
        if previous is None or parent == previous:
            return []
        where = f"entry {as_string(parent)}" if parent else "the start"
        return [_note(ts, f"branch: continues from {where}")]

    def _message(self, message: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        role = as_string(message.get("role"))
        if role == "assistant":
            return self._assistant(message, ts)
        if role == "toolResult":
            ident = as_string(message.get("toolCallId"))
            name = as_string(message.get("toolName")) or self._names.get(ident) or "tool"
            return [
                {
                    "kind": "tool_result",
                    "ts": ts,
                    "toolUseId": ident,
                    "toolName": name,
                    "content": tool_result_text(message),
                    "isError": message.get("isError") is True,
                }
            ]
        return message_entries(message, ts)

    def _assistant(self, message: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        entries: list[TranscriptEntry] = []
        named = model_name(message.get("provider"), message.get("model"))
        if named and named != self._model:
            self._model = named
            entries.append(_note(ts, f"model: {named}"))
        entries += assistant_entries(message, ts)
        for block in as_list(message.get("content")):
            if type(block) is not dict or block.get("type") != "toolCall":
                continue
            ident = as_string(block.get("id"))
            name = as_string(block.get("name")) or "tool"
            self._names[ident] = name
            params = block.get("arguments")
            entries.append(
                {
                    "kind": "tool_call",
                    "ts": ts,
                    "name": name,
                    "input": {} if params is None else json_or_placeholder(params),
                    "toolUseId": ident,
                }
            )
        return entries

    def _entry(self, kind: str, record: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        if kind == "model_change":
            self._model = model_name(record.get("provider"), record.get("modelId")) or self._model
            return [_note(ts, f"model: {self._model or 'unknown'}")]
        if kind == "thinking_level_change":
            return [_note(ts, f"thinking level: {as_string(record.get('thinkingLevel')) or '?'}")]
        if kind == "compaction":
            before = as_number(record.get("tokensBefore"), -1)
            head = "context compacted" + (f" ({int(before)} tokens before)" if before >= 0 else "")
            summary = as_string(record.get("summary")).strip()
            return [_note(ts, f"{head}: {summary}" if summary else head)]
        if kind == "branch_summary":
            return [_note(ts, f"branch summary: {as_string(record.get('summary')).strip()}")]
        if kind == "custom":
            # Extension state, never shown to the model: named, not dumped.
            return [_note(ts, f"extension state: {as_string(record.get('customType')) or '?'}")]
        if kind == "custom_message":
            name = as_string(record.get("customType")) or "extension"
            return [_note(ts, f"{name}: {content_text(record.get('content')).strip()}")]
        if kind == "label":
            label = as_string(record.get("label"))
            target = as_string(record.get("targetId"))
            text = f"label {label!r} on entry {target}" if label else f"label cleared on {target}"
            return [_note(ts, text)]
        name = as_string(record.get("name"))  # session_info
        return [_note(ts, f"session name: {name}" if name else "session info")]

    def reset(self) -> None:
        self._names.clear()
        self._last = None
        self._model = ""


def create_stdout_parser() -> PiSessionParser:
    """A fresh parser for one Pi session file."""
    return PiSessionParser()
