"""Goose ``goose run --output-format stream-json`` event lines to TranscriptEntries."""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.entries import ResultEntry, TranscriptEntry
from linewise_contracts.extract import (
    BoundedMap,
    as_int,
    as_list,
    as_number,
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

from linewise_goose.ending import changed_model, with_complete_fields

__all__ = [
    "GooseStdoutParser",
    "create_stdout_parser",
    "parse_stdout_line",
    "tool_response_text",
]

_SYSTEM_TEXT_LIMIT: Final = 2000
_REMEMBERED: Final = 4096


def _system(ts: str, text: str) -> TranscriptEntry:
    return {"kind": "system", "ts": ts, "text": truncate(text, _SYSTEM_TEXT_LIMIT)}


def tool_response_text(response: dict[str, Any]) -> tuple[str, bool]:
    """A ``toolResponse`` part's text and whether the tool failed.

    ``toolResult`` is ``{status: "success", value: {content: [...], isError}}`` (an MCP
    CallToolResult) or ``{status: "error", error: "..."}``.
    """
    result = as_object(response.get("toolResult"))
    if result.get("status") == "error" or ("error" in result and "value" not in result):
        error = result.get("error")
        return (error if type(error) is str else to_json_text(error)), True
    value = result.get("value")
    body = as_object(value)
    if "content" in body:
        text = content_text(body.get("content"))
        structured = body.get("structuredContent")
        if not text and structured is not None:
            text = to_json_text(structured, pretty=True)
        return text, body.get("isError") is True
    if type(value) is list:
        return content_text(value), False
    return ("" if value is None else to_json_text(value, pretty=True)), False


class GooseStdoutParser:
    """The stateful Goose parser: streamed text pieces, tool requests paired with responses."""

    __slots__ = ("_model", "_names")

    def __init__(self) -> None:
        self._names: BoundedMap[str, str] = BoundedMap(_REMEMBERED)  # tool request id -> name
        self._model: str | None = None  # the last model_change's: the result names it

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        event = parse_json_object(line)
        if event is None:
            return stdout_entries(line, ts)
        kind = event.get("type")
        if kind == "message" and type(event.get("message")) is dict:
            return self._message(event["message"], ts)
        if kind == "notification":
            return [_system(ts, _notification_text(event))]
        if kind == "model_change":
            self._model = changed_model(event) or self._model
            model = as_string(event.get("model")) or "unknown"
            mode = as_string(event.get("mode"))
            return [_system(ts, f"model: {model}" + (f" ({mode} mode)" if mode else ""))]
        if kind == "error":
            error = event.get("error")
            text = error if type(error) is str else to_json_text(error)
            return [{"kind": "stderr", "ts": ts, "text": text or "Goose reported an error."}]
        if kind == "complete":
            return [_complete(event, ts, self._model)]
        return stdout_entries(line, ts)

    def _message(self, message: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        ts = iso_timestamp(message.get("created")) or ts
        role = as_string(message.get("role"))
        # A message goose streams arrives in pieces that share its id.
        streamed = message.get("id") is not None
        entries: list[TranscriptEntry] = []
        for part in as_list(message.get("content")):
            if type(part) is dict:
                entries += self._part(role, part, streamed, ts)
        return entries

    def _part(
        self, role: str, part: dict[str, Any], streamed: bool, ts: str
    ) -> list[TranscriptEntry]:
        kind = part.get("type")
        if kind == "text":
            text = as_string(part.get("text"))
            if not text:
                return []
            if role == "user":
                return [{"kind": "user", "ts": ts, "text": text}]
            if streamed:
                return [{"kind": "assistant", "ts": ts, "text": text, "delta": True}]
            return [{"kind": "assistant", "ts": ts, "text": text}]
        if kind == "thinking":
            text = as_string(part.get("thinking"))
            return [{"kind": "thinking", "ts": ts, "text": text}] if text else []
        if kind == "redactedThinking":
            return [{"kind": "thinking", "ts": ts, "text": "(thinking redacted by the provider)"}]
        if kind == "toolRequest":
            return [self._request(part, ts)]
        if kind == "toolResponse":
            ident = as_string(part.get("id"))
            text, failed = tool_response_text(part)
            return [
                {
                    "kind": "tool_result",
                    "ts": ts,
                    "toolUseId": ident,
                    "toolName": self._names.get(ident) or "tool",
                    "content": text,
                    "isError": failed,
                }
            ]
        if kind in ("toolConfirmationRequest", "actionRequired"):
            name = as_string(part.get("toolName")) or "a tool"
            return [_system(ts, f"confirmation requested for {name}")]
        if kind in ("contextLengthExceeded", "summarizationRequested", "conversationCompacted"):
            return [_system(ts, as_string(part.get("msg")) or kind)]
        return [_system(ts, f"({as_string(kind) or 'unknown'} content)")]

    def _request(self, part: dict[str, Any], ts: str) -> TranscriptEntry:
        ident = as_string(part.get("id"))
        call = as_object(part.get("toolCall"))
        value = as_object(call.get("value"))
        name = as_string(value.get("name")) or "tool"
        self._names[ident] = name
        if call.get("status") == "error" or ("error" in call and not value):
            name = "tool"
            arguments: Any = {"error": as_string(call.get("error")) or to_json_text(call)}
        else:
            raw = value.get("arguments")
            arguments = {} if raw is None else json_or_placeholder(raw)
        return {"kind": "tool_call", "ts": ts, "name": name, "input": arguments, "toolUseId": ident}

    def reset(self) -> None:
        self._names.clear()


def _notification_text(event: dict[str, Any]) -> str:
    extension = as_string(event.get("extension_id")) or "extension"
    log = as_object(event.get("log"))
    if log:
        return f"{extension}: {as_string(log.get('message'))}".rstrip(": ")
    progress = as_object(event.get("progress"))
    if progress:
        done, total = progress.get("progress"), progress.get("total")
        message = as_string(progress.get("message"))
        amount = f"{done}/{total}" if total is not None else f"{done}"
        return f"{extension}: {amount}" + (f" {message}" if message else "")
    return f"{extension}: notification"


def _complete(event: dict[str, Any], ts: str, model: str | None = None) -> TranscriptEntry:
    cost = as_number(event.get("cost_usd"), 0)
    entry: ResultEntry = {
        "kind": "result",
        "ts": ts,
        "text": "",
        "inputTokens": as_int(event.get("input_tokens")),
        "outputTokens": as_int(event.get("output_tokens")),
        "cachedTokens": as_int(event.get("cache_read_input_tokens")),
        "costUsd": cost if cost >= 0 else 0,
        "subtype": "complete",
        "isError": False,
        "errors": [],
    }
    if model is not None:
        entry["model"] = model
    return with_complete_fields(entry, event)


def parse_stdout_line(line: str, ts: str) -> list[TranscriptEntry]:
    """One Goose event line to entries, as a fresh :class:`GooseStdoutParser` sees it."""
    return GooseStdoutParser().parse_line(line, ts)


def create_stdout_parser() -> GooseStdoutParser:
    """A fresh stateful Goose parser for one transcript."""
    return GooseStdoutParser()
