"""cursor-agent's on-disk transcripts (``agent-transcripts/<id>/<id>.jsonl``) to TranscriptEntries.

A transcript is ``{"role": "user" | "assistant", "message": {"content": [...]}}``
records with Anthropic-style blocks (``text``, ``thinking``, ``tool_use``,
``tool_result``) and ``{"type": "turn_ended", "status"}`` between turns. It
holds no times but the one cursor-agent writes into each prompt,
``<timestamp>Sunday, Aug 2, 2026, 3:51 AM (UTC-7)</timestamp>``, ahead of the
person's words in ``<user_query>...</user_query>``.
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

from linewise_cursor.session.prompt_stamp import STAMP, prompt_time

# The sniff is defined in its own module, which detection imports alone (named here too).
from linewise_cursor.session.sniff import sniff
from linewise_cursor.session.store import END_RECORD, SESSION_RECORD

__all__ = ["CursorTranscriptParser", "create_stdout_parser", "sniff"]

_REMEMBERED: Final = 4096
_CONTEXT_LIMIT: Final = 300
_QUERY_OPEN: Final = "<user_query>"
_QUERY_CLOSE: Final = "</user_query>"


def _query(text: str) -> tuple[str, str]:
    """The person's words (the ``<user_query>`` parts) and what else the prompt held."""
    if _QUERY_OPEN not in text:
        return STAMP.sub("", text, count=1).strip(), ""
    queries: list[str] = []
    rest: list[str] = []
    position = 0
    while (start := text.find(_QUERY_OPEN, position)) != -1:
        rest.append(text[position:start])
        start += len(_QUERY_OPEN)
        end = text.find(_QUERY_CLOSE, start)
        if end == -1:
            queries.append(text[start:].strip())
            position = len(text)
            break
        queries.append(text[start:end].strip())
        position = end + len(_QUERY_CLOSE)
    rest.append(text[position:])
    context = STAMP.sub("", "".join(rest), count=1).strip()
    return "\n\n".join(query for query in queries if query), context


class CursorTranscriptParser:
    """One cursor-agent transcript: the store's session record, then messages.

    Entries take the time of the prompt they follow (its ``<timestamp>``), the
    finest the transcript records; before any, the host's time.
    """

    __slots__ = ("_names", "_ts")

    def __init__(self) -> None:
        self._ts: str | None = None
        self._names: BoundedMap[str, str] = BoundedMap(_REMEMBERED)  # tool_use id -> name

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        record = parse_json_object(line)
        if record is None:
            return stdout_entries(line, self._ts or ts)
        kind = record.get("type")
        if kind == SESSION_RECORD:
            return self._start(record, ts)
        if kind == END_RECORD:
            self._ts = iso_timestamp(record.get("updatedAtMs")) or self._ts
            return [{"kind": "system", "ts": self._ts or ts, "text": "chat last updated"}]
        if kind == "turn_ended":
            status = as_string(record.get("status")) or "unknown"
            return [{"kind": "system", "ts": self._ts or ts, "text": f"turn ended: {status}"}]
        role = record.get("role")
        message = record.get("message")
        if role in ("user", "assistant") and type(message) is dict:
            return self._message(role, message, ts)
        return stdout_entries(line, self._ts or ts)

    def _start(self, record: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        meta = as_object(record.get("meta"))
        self._ts = (
            iso_timestamp(meta.get("createdAtMs"))
            or iso_timestamp(record.get("firstPromptAt"))
            or self._ts
        )
        at = self._ts or ts
        entry: InitEntry = {
            "kind": "init",
            "ts": at,
            "model": as_string(meta.get("model")),
            "sessionId": as_string(record.get("sessionId")),
        }
        cwd = as_string(meta.get("cwd"))
        if cwd:
            entry["cwd"] = cwd
        entries: list[TranscriptEntry] = [entry]
        title = as_string(meta.get("title"))
        if title:
            entries.append({"kind": "system", "ts": at, "text": f"title: {title}"})
        parent = as_string(record.get("subagentOf"))
        if parent:
            text = f"subagent transcript of session {parent}"
            entries.append({"kind": "system", "ts": at, "text": text})
        return entries

    def _message(self, role: str, message: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        content = message.get("content")
        if type(content) is str:
            content = [{"type": "text", "text": content}]
        entries: list[TranscriptEntry] = []
        for block in as_list(content):
            if type(block) is dict:
                entries += self._block(role, block, ts)
            else:
                text = f"(content part that is not an object: {truncate(str(block), 80)})"
                entries.append({"kind": "system", "ts": self._ts or ts, "text": text})
        return entries

    def _text(self, role: str, text: str, ts: str) -> list[TranscriptEntry]:
        if role == "assistant":
            return [{"kind": "assistant", "ts": self._ts or ts, "text": text}]
        self._ts = prompt_time(text) or self._ts
        at = self._ts or ts
        query, context = _query(text)
        entries: list[TranscriptEntry] = []
        if context:
            note = truncate(" ".join(context.split()), _CONTEXT_LIMIT)
            entries.append({"kind": "system", "ts": at, "text": f"prompt context: {note}"})
        if query:
            entries.append({"kind": "user", "ts": at, "text": query})
        return entries

    def _block(self, role: str, block: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        kind = block.get("type")
        at = self._ts or ts
        if kind == "text":
            text = as_string(block.get("text"))
            return self._text(role, text, ts) if text.strip() else []
        if kind == "thinking":
            text = as_string(block.get("thinking")) or as_string(block.get("text"))
            return [{"kind": "thinking", "ts": at, "text": text}] if text.strip() else []
        if kind == "tool_use":
            ident = as_string(block.get("id"))
            name = as_string(block.get("name")) or "tool"
            self._names[ident] = name
            params = block.get("input")
            return [
                {
                    "kind": "tool_call",
                    "ts": at,
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
                    "ts": at,
                    "toolUseId": ident,
                    "toolName": self._names.get(ident) or "tool",
                    "content": content_text(block.get("content")),
                    "isError": block.get("is_error") is True,
                }
            ]
        # Images and other blocks carry no text a transcript can show: say they were there.
        return [{"kind": "system", "ts": at, "text": f"({as_string(kind) or 'unknown'} block)"}]

    def reset(self) -> None:
        self._ts = None
        self._names.clear()


def create_stdout_parser() -> CursorTranscriptParser:
    """A fresh parser for one cursor-agent transcript's records."""
    return CursorTranscriptParser()
