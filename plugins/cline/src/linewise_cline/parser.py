"""Cline CLI ``cline --json`` event lines to TranscriptEntries."""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.entries import ResultEntry, TranscriptEntry
from linewise_contracts.extract import (
    BoundedMap,
    as_int,
    as_number,
    as_object,
    as_string,
    iso_timestamp,
    json_or_placeholder,
    parse_json_object,
    stdout_entries,
    to_json_text,
    truncate,
)

from linewise_cline.ending import with_result_fields

__all__ = ["ClineStdoutParser", "create_stdout_parser", "parse_stdout_line", "tool_output"]

_SYSTEM_TEXT_LIMIT: Final = 2000
_REMEMBERED: Final = 4096


def _system(ts: str, text: str) -> TranscriptEntry:
    return {"kind": "system", "ts": ts, "text": truncate(text, _SYSTEM_TEXT_LIMIT)}


def tool_output(event: dict[str, Any]) -> tuple[str, bool]:
    """A tool's ``content_end`` output as text, and whether it failed.

    ``run_commands`` reports one ``{query, result, success}`` per command; a
    command that did not succeed fails the call. An ``error`` field fails it too.
    """
    error = event.get("error")
    if error:
        return (error if type(error) is str else to_json_text(error)), True
    output = event.get("output")
    if type(output) is str:
        return output, False
    if (
        type(output) is list
        and output
        and all(type(item) is dict and ("result" in item or "error" in item) for item in output)
    ):
        texts, failed = [], False
        for item in output:
            query = as_string(item.get("query"))
            result = as_string(item.get("result")) or as_string(item.get("error"))
            texts.append(f"$ {query}\n{result}" if query else result)
            failed = failed or item.get("success") is False or "error" in item
        return "\n".join(texts).rstrip("\n"), failed
    return ("" if output is None else to_json_text(output, pretty=True)), False


class ClineStdoutParser:
    """The stateful Cline parser: content blocks shown once, tool calls paired by id."""

    __slots__ = ("_names", "_pending", "_said", "_task")

    def __init__(self) -> None:
        self._names: BoundedMap[str, str] = BoundedMap(_REMEMBERED)  # toolCallId -> toolName
        self._pending: dict[str, str] = {}  # text or reasoning a content_start began with
        self._said = ""  # the last assistant text shown: `done` repeats it
        self._task: str | None = None  # the first task a hook named: the run's session

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        event = parse_json_object(line)
        if event is None:
            return stdout_entries(line, ts)
        ts = iso_timestamp(event.get("ts")) or ts
        kind = event.get("type")
        if kind == "agent_event" and type(event.get("event")) is dict:
            return self._agent(event["event"], ts)
        if kind == "hook_event":
            self._task = self._task or as_string(event.get("taskId")) or None
            return _hook(event, ts)
        if kind == "run_result":
            return [*self._flush(ts), _result(event, ts, self._task)]
        if kind == "error":
            message = as_string(event.get("message")) or to_json_text(event.get("error"))
            return [{"kind": "stderr", "ts": ts, "text": message or "Cline reported an error."}]
        return stdout_entries(line, ts)

    def _agent(self, event: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        kind = event.get("type")
        content = as_string(event.get("contentType"))
        if kind == "content_start":
            if content == "tool":
                return [self._call(event, ts)]
            if content == "reasoning":
                text = as_string(event.get("reasoning")) or as_string(event.get("text"))
                self._pending["reasoning"] = ""
                return [{"kind": "thinking", "ts": ts, "text": text, "delta": True}] if text else []
            if content == "text":
                self._pending["text"] = as_string(event.get("text"))
            return []
        if kind == "content_end":
            if content == "tool":
                return [self._tool_result(event, ts)]
            if content == "reasoning":
                shown = "reasoning" in self._pending
                self._pending.pop("reasoning", None)
                text = as_string(event.get("reasoning")) or as_string(event.get("text"))
                return [] if shown or not text else [{"kind": "thinking", "ts": ts, "text": text}]
            if content == "text":
                text = as_string(event.get("text")) or self._pending.get("text", "")
                self._pending.pop("text", None)
                return self._say(text, ts)
            return []
        if kind == "done":
            entries = self._flush(ts) + self._say(as_string(event.get("text")), ts)
            reason = as_string(event.get("reason"))
            if reason and reason != "completed":
                entries.append(_system(ts, f"agent done: {reason}"))
            return entries
        if kind in ("iteration_start", "iteration_end", "usage"):
            return []  # boundaries; usage is the summary's
        return [_system(ts, f"{as_string(kind) or 'agent event'}: {to_json_text(event)}")]

    def _say(self, text: str, ts: str) -> list[TranscriptEntry]:
        if not text.strip() or text.strip() == self._said:
            return []
        self._said = text.strip()
        return [{"kind": "assistant", "ts": ts, "text": text.strip()}]

    def _flush(self, ts: str) -> list[TranscriptEntry]:
        # Text a content_start began with and no content_end finished.
        text = self._pending.pop("text", "")
        self._pending.pop("reasoning", None)
        return self._say(text, ts)

    def _call(self, event: dict[str, Any], ts: str) -> TranscriptEntry:
        ident = as_string(event.get("toolCallId"))
        name = as_string(event.get("toolName")) or "tool"
        self._names[ident] = name
        arguments = event.get("input")
        return {
            "kind": "tool_call",
            "ts": ts,
            "name": name,
            "input": {} if arguments is None else json_or_placeholder(arguments),
            "toolUseId": ident,
        }

    def _tool_result(self, event: dict[str, Any], ts: str) -> TranscriptEntry:
        ident = as_string(event.get("toolCallId"))
        text, failed = tool_output(event)
        name = as_string(event.get("toolName")) or self._names.get(ident) or "tool"
        return {
            "kind": "tool_result",
            "ts": ts,
            "toolUseId": ident,
            "toolName": name,
            "content": text,
            "isError": failed,
        }

    def reset(self) -> None:
        self._names.clear()
        self._pending.clear()
        self._said = ""
        self._task = None


def _hook(event: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    name = as_string(event.get("hookEventName")) or "hook"
    agent = as_string(event.get("agentId"))
    parent = as_string(event.get("parentAgentId"))
    task = as_string(event.get("taskId"))
    if name in ("agent_start", "agent_end"):
        who = f"subagent {agent} of {parent}" if parent else "agent"
        text = f"{who} {'started' if name == 'agent_start' else 'finished'}"
        return [_system(ts, text + (f" (task {task})" if task and name == "agent_start" else ""))]
    tool = as_string(event.get("toolName"))
    return [_system(ts, f"hook {name}" + (f": {tool}" if tool else ""))]


def _result(event: dict[str, Any], ts: str, task: str | None) -> TranscriptEntry:
    usage = as_object(event.get("aggregateUsage")) or as_object(event.get("usage"))
    reason = as_string(event.get("finishReason"))
    failed = reason == "error"  # "aborted" is a person stopping the run, not a failure
    cost = as_number(usage.get("totalCost", usage.get("cost")), 0)
    text = as_string(event.get("text"))
    entry: ResultEntry = {
        "kind": "result",
        "ts": ts,
        "text": text,
        "inputTokens": as_int(usage.get("inputTokens")),
        "outputTokens": as_int(usage.get("outputTokens")),
        "cachedTokens": as_int(usage.get("cacheReadTokens")),
        "costUsd": cost if cost >= 0 else 0,
        "subtype": reason,
        "isError": failed,
        "errors": [text] if reason == "error" and text else [],
    }
    return with_result_fields(entry, event, task)


def parse_stdout_line(line: str, ts: str) -> list[TranscriptEntry]:
    """One Cline event line to entries, as a fresh :class:`ClineStdoutParser` sees it."""
    return ClineStdoutParser().parse_line(line, ts)


def create_stdout_parser() -> ClineStdoutParser:
    """A fresh stateful Cline parser for one transcript."""
    return ClineStdoutParser()
