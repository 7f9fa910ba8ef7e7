"""Rush session records (``~/.rush/sessions/<id>/messages.jsonl``) to TranscriptEntries.

A record is ``{id, session_id, agent_id, type, role, content, created_at}``:
``type`` ``message`` (``content.text``; the person's first turn wrapped in
``<user_input>...</user_input>``, a ``system`` ``execution_start`` marker),
``tool_call`` (``name``, ``tool_call_id``, ``content.input``) and
``tool_result`` (``tool_call_id``, ``content.output``, ``success: false`` in a
failed output). The shape is phnx-labs/agi-cli's reader of the same store
(``lib/session/parse.ts``, ``parseRush``).
"""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.entries import InitEntry, TranscriptEntry
from linewise_contracts.extract import (
    BoundedMap,
    as_object,
    as_string,
    iso_timestamp,
    json_or_placeholder,
    parse_json_object,
    stdout_entries,
    to_json_text,
)

from linewise_rush.session.sniff import RECORD_TYPES as _RECORD_TYPES
from linewise_rush.session.sniff import SESSION_RECORD, sniff

__all__ = ["RushSessionParser", "create_stdout_parser", "message_text", "sniff"]

_REMEMBERED: Final = 4096
_OPEN: Final = "<user_input>"
_CLOSE: Final = "</user_input>"


def message_text(record: dict[str, Any]) -> str:
    """A message record's text, without the ``<user_input>`` wrapper of a first turn."""
    text = as_string(as_object(record.get("content")).get("text")).strip()
    if text.startswith(_OPEN) and text.endswith(_CLOSE):
        text = text[len(_OPEN) : -len(_CLOSE)].strip()
    return text


def _output_text(output: object) -> str:
    if type(output) is str:
        return output
    return "" if output is None else to_json_text(output, pretty=True)


class RushSessionParser:
    """One Rush session: the store's first record, then its messages and tool calls."""

    __slots__ = ("_agent", "_names")

    def __init__(self) -> None:
        self._names: BoundedMap[str, str] = BoundedMap(_REMEMBERED)  # tool_call_id -> name
        self._agent = ""

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        record = parse_json_object(line)
        if record is None:
            return stdout_entries(line, ts)
        kind = as_string(record.get("type"))
        at = iso_timestamp(record.get("created_at")) or ts
        if kind == SESSION_RECORD:
            at = iso_timestamp(record.get("createdAt")) or ts
            entry: InitEntry = {
                "kind": "init",
                "ts": at,
                "model": "",  # Rush's records name no model
                "sessionId": as_string(record.get("sessionId")),
            }
            return [entry]
        if kind not in _RECORD_TYPES:
            return stdout_entries(line, at)
        entries = self._agent_note(record, at)
        if kind == "message":
            return entries + self._message(record, at)
        if kind == "tool_call":
            ident = as_string(record.get("tool_call_id"))
            name = as_string(record.get("name")) or "tool"
            self._names[ident] = name
            params = as_object(record.get("content")).get("input")
            call: TranscriptEntry = {
                "kind": "tool_call",
                "ts": at,
                "name": name,
                "input": {} if params is None else json_or_placeholder(params),
                "toolUseId": ident,
            }
            return [*entries, call]
        ident = as_string(record.get("tool_call_id"))
        output = as_object(record.get("content")).get("output")
        result: TranscriptEntry = {
            "kind": "tool_result",
            "ts": at,
            "toolUseId": ident,
            "toolName": self._names.get(ident) or as_string(record.get("name")) or "tool",
            "content": _output_text(output),
            "isError": as_object(output).get("success") is False,
        }
        return [*entries, result]

    def _agent_note(self, record: dict[str, Any], at: str) -> list[TranscriptEntry]:
        """A note when the agent writing the records changes (Rush runs several)."""
        agent = as_string(record.get("agent_id"))
        if not agent or agent == self._agent:
            return []
        self._agent = agent
        return [{"kind": "system", "ts": at, "text": f"agent: {agent}"}]

    def _message(self, record: dict[str, Any], at: str) -> list[TranscriptEntry]:
        role = as_string(record.get("role"))
        text = message_text(record)
        if not text:
            return []
        if role == "user":
            return [{"kind": "user", "ts": at, "text": text}]
        if role == "assistant":
            return [{"kind": "assistant", "ts": at, "text": text}]
        if text == "execution_start":
            return [{"kind": "system", "ts": at, "text": "execution started"}]
        return [{"kind": "system", "ts": at, "text": f"{role or 'message'}: {text}"}]

    def reset(self) -> None:
        self._names.clear()
        self._agent = ""


def create_stdout_parser() -> RushSessionParser:
    """A fresh parser for one Rush session's records."""
    return RushSessionParser()
