"""GitHub Copilot CLI's stdout JSON mode to entries: the parser of ``copilot_local``.

``copilot -p "..." --output-format json`` prints one JSON event per line: the
session events of :mod:`linewise_copilot.events` (the types the Copilot SDK's
streaming-events reference documents, with the same ``{type, data, id,
timestamp, parentId}`` envelope), plus what a live run adds:

- ephemeral events (``"ephemeral": true``, never written to ``events.jsonl``):
  ``assistant.message_delta`` (``data.messageId``, ``data.deltaContent``) and
  ``assistant.reasoning_delta`` (``data.reasoningId``, ``data.deltaContent``)
  as ``assistant`` / ``thinking`` fragments with ``delta: true``; the complete
  ``assistant.message`` or ``assistant.reasoning`` that follows does not repeat
  what was streamed; ``session.idle``, ``tool.execution_partial_result`` and
  ``tool.execution_progress`` give nothing (a boundary; partial output the
  completed tool reports whole);
- a last ``result`` event carrying the session id: a ``result`` entry (an
  error when its ``exitCode`` is not 0; tokens when it reports ``usage``),
  preceded by ``init`` with that session id when no ``session.start`` came.

Sources: the event types and delta payloads are those of GitHub's Copilot SDK
reference ("Streaming session events"); that ``--output-format json`` prints
them, and ends with a ``result`` event holding ``sessionId``, is reported by
adapters written against real runs (Copilot CLI 1.0.36). The ``result`` event's
other fields are not documented: they are read if present, never required.
"""

from __future__ import annotations

from typing import Any, Final, cast

from linewise_contracts.entries import InitEntry, ResultEntry, TranscriptEntry
from linewise_contracts.extract import (
    as_number,
    as_object,
    as_string,
    iso_timestamp,
    parse_json_object,
    stdout_entries,
    with_parent,
)

from linewise_copilot.ending import RunEnding
from linewise_copilot.events import CopilotSessionParser

__all__ = ["CopilotSessionParser", "CopilotStdoutParser", "create_stdout_parser"]

_QUIET: Final = frozenset(
    {"session.idle", "tool.execution_partial_result", "tool.execution_progress"}
)


def _result(event: dict[str, Any], ts: str, ending: RunEnding) -> ResultEntry:
    body = {**event, **as_object(event.get("data"))}
    usage = as_object(body.get("usage"))
    code = body.get("exitCode")
    failed = type(code) is int and code != 0
    entry: ResultEntry = {
        "kind": "result",
        "ts": ts,
        "text": as_string(body.get("result")),
        "inputTokens": as_number(usage.get("inputTokens")),
        "outputTokens": as_number(usage.get("outputTokens")),
        "cachedTokens": as_number(usage.get("cacheReadTokens")),
        "costUsd": 0,
        "subtype": "error" if failed else "result",
        "isError": failed,
        "errors": [f"exit code {code}"] if failed else [],
    }
    ending.see(event)
    return ending.with_result_fields(entry)


#: What a live run's ``session.shutdown`` entry leaves to the run's ``result`` (its tokens,
#: per model, and the outcome): the summary takes them from one of the two, never both.
_LEFT_TO_THE_RESULT: Final = ("usage", "modelUsage", "outcome")


def _without_ending(entries: list[TranscriptEntry]) -> list[TranscriptEntry]:
    return [
        cast(
            "TranscriptEntry",
            {key: value for key, value in entry.items() if key not in _LEFT_TO_THE_RESULT},
        )
        if entry["kind"] == "result"
        else entry
        for entry in entries
    ]


class CopilotStdoutParser(CopilotSessionParser):
    """The session parser, plus streamed fragments and the final ``result`` of a live run."""

    __slots__ = ("ending", "started")

    def __init__(self) -> None:
        super().__init__()
        self.started = False
        self.ending = RunEnding()

    def _delta(self, kind: str, data: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        text = as_string(data.get("deltaContent"))
        key = "messageId" if kind == "assistant.message_delta" else "reasoningId"
        ident = as_string(data.get(key))
        if ident:
            self.streamed[ident] = True
        if not text:
            return []
        if kind == "assistant.message_delta":
            return [{"kind": "assistant", "ts": ts, "text": text, "delta": True}]
        return [{"kind": "thinking", "ts": ts, "text": text, "delta": True}]

    def _finish(self, event: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        entries: list[TranscriptEntry] = []
        session = as_string(event.get("sessionId")) or as_string(
            as_object(event.get("data")).get("sessionId")
        )
        if session and not self.started:
            self.started = True
            init: InitEntry = {"kind": "init", "ts": ts, "model": "", "sessionId": session}
            entries.append(init)
        entries.append(_result(event, ts, self.ending))
        return entries

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        event = parse_json_object(line)
        kind = None if event is None else event.get("type")
        if event is None or type(kind) is not str:
            return stdout_entries(line, ts)
        ts = iso_timestamp(event.get("timestamp")) or ts
        if kind == "result":
            return self._finish(event, ts)
        data = event.get("data")
        if type(data) is not dict:
            return stdout_entries(line, ts)
        if kind in ("assistant.message_delta", "assistant.reasoning_delta"):
            entries = self._delta(kind, data, ts)
        elif kind in _QUIET:
            return []
        else:
            self.started = self.started or kind == "session.start"
            found = self.entries(kind, data, ts)
            if found is None:
                return stdout_entries(line, ts)
            entries = found
            if kind == "session.shutdown":
                # A live run ends with its result: the shutdown's tokens go on that entry.
                self.ending.see(event)
                entries = _without_ending(entries)
        return with_parent(entries, self.parent(event, data))

    def reset(self) -> None:
        super().reset()
        self.started = False
        self.ending = RunEnding()


def create_stdout_parser() -> CopilotStdoutParser:
    """A parser for one ``copilot -p ... --output-format json`` run."""
    return CopilotStdoutParser()
