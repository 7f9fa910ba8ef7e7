"""Kimi's stdout to TranscriptEntries: ``--print --output-format stream-json`` and ``--wire``.

Print mode writes one OpenAI-style message per line (``{"role": "assistant",
"content": ..., "tool_calls": [...]}``, ``{"role": "tool", "tool_call_id": ...}``;
kimi-cli's ``context.jsonl`` adds ``_checkpoint``, ``_usage`` and
``_system_prompt`` roles). Wire mode (``kimi --wire``) is JSON-RPC 2.0: the
client's ``initialize`` / ``prompt`` / ``steer`` requests, their results, and
``event`` / ``request`` notifications whose ``params`` are ``{type, payload}``
envelopes of kimi-cli's wire messages (TurnBegin, ContentPart, ToolCall,
ToolResult, ApprovalRequest, SubagentEvent ...).
"""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.extract import (
    BoundedMap,
    as_list,
    as_object,
    as_string,
    content_text,
    error_text,
    json_or_placeholder,
    parse_json_object,
    stdout_entries,
    to_json_text,
    truncate,
    with_parent,
)

__all__ = [
    "KimiStdoutParser",
    "create_stdout_parser",
    "parse_stdout_line",
    "tool_arguments",
]

_SYSTEM_TEXT_LIMIT: Final = 2000
_REMEMBERED: Final = 4096
# Wire events that only mark a boundary: nothing a transcript needs.
_BOUNDARIES: Final = frozenset(
    {"TurnEnd", "StepBegin", "MCPLoadingBegin", "MCPLoadingEnd", "ToolCallPart"}
)


def _system(ts: str, text: str) -> TranscriptEntry:
    return {"kind": "system", "ts": ts, "text": truncate(text, _SYSTEM_TEXT_LIMIT)}


def tool_arguments(arguments: object) -> Any:
    """A tool call's ``arguments``: the JSON string decoded, else the value as given."""
    if type(arguments) is str:
        decoded = parse_json_object(arguments)
        if decoded is not None:
            return decoded
        return {"arguments": arguments} if arguments.strip() else {}
    return {} if arguments is None else json_or_placeholder(arguments)


def _parts_text(content: object, kind: str) -> str:
    if type(content) is str:
        return content if kind == "text" else ""
    texts = []
    for part in as_list(content):
        body = as_object(part)
        if body.get("type") == kind:
            texts.append(as_string(body.get("think" if kind == "think" else "text")))
    return "\n".join(text for text in texts if text)


class KimiStdoutParser:
    """The stateful Kimi parser: tool results name their calls, subagents nest under theirs."""

    __slots__ = ("_names", "_prompt")

    def __init__(self) -> None:
        self._names: BoundedMap[str, str] = BoundedMap(_REMEMBERED)  # tool call id -> name
        self._prompt = ""  # the last prompt request's text: TurnBegin repeats it

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        message = parse_json_object(line)
        if message is None:
            return stdout_entries(line, ts)
        if message.get("jsonrpc") == "2.0":
            return self._rpc(message, line, ts)
        role = message.get("role")
        if type(role) is str and "type" not in message:
            return self._message(message, role, line, ts)
        return stdout_entries(line, ts)

    # -- print mode: one message per line ------------------------------------------------

    def _message(
        self, message: dict[str, Any], role: str, line: str, ts: str
    ) -> list[TranscriptEntry]:
        content = message.get("content")
        if role == "assistant":
            entries: list[TranscriptEntry] = []
            thinking = _parts_text(content, "think")
            if thinking.strip():
                entries.append({"kind": "thinking", "ts": ts, "text": thinking})
            text = _parts_text(content, "text")
            if text.strip():
                entries.append({"kind": "assistant", "ts": ts, "text": text})
            for call in as_list(message.get("tool_calls")):
                entries += self._call(as_object(call), ts)
            return entries
        if role == "tool":
            return [self._result(as_string(message.get("tool_call_id")), content, False, ts)]
        if role == "user":
            text = content_text(content).strip()
            return [{"kind": "user", "ts": ts, "text": text}] if text else []
        if role in ("system", "_system_prompt"):
            text = content_text(content).strip()
            return [_system(ts, f"system prompt: {text}")] if text else []
        if role == "_checkpoint":
            return [_system(ts, f"checkpoint {as_string(message.get('id')) or ''}".strip())]
        if role == "_usage":
            count = message.get("token_count")
            return [_system(ts, f"context: {count} tokens")] if type(count) is int else []
        return stdout_entries(line, ts)

    def _call(self, call: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        function = as_object(call.get("function"))
        ident = as_string(call.get("id"))
        name = as_string(function.get("name")) or as_string(call.get("name")) or "tool"
        self._names[ident] = name
        return [
            {
                "kind": "tool_call",
                "ts": ts,
                "name": name,
                "input": tool_arguments(function.get("arguments", call.get("arguments"))),
                "toolUseId": ident,
            }
        ]

    def _result(self, ident: str, content: object, failed: bool, ts: str) -> TranscriptEntry:
        text = content if type(content) is str else content_text(content)
        if not text and content is not None and type(content) is not str:
            text = to_json_text(content, pretty=True)
        return {
            "kind": "tool_result",
            "ts": ts,
            "toolUseId": ident,
            "toolName": self._names.get(ident) or "tool",
            "content": text,
            "isError": failed,
        }

    # -- wire mode: JSON-RPC 2.0 --------------------------------------------------------------

    def _rpc(self, message: dict[str, Any], line: str, ts: str) -> list[TranscriptEntry]:
        method = message.get("method")
        params = as_object(message.get("params"))
        if method in ("event", "request"):
            return self._wire(as_string(params.get("type")), as_object(params.get("payload")), ts)
        if method in ("prompt", "steer"):
            text = content_text(params.get("user_input")).strip()
            if not text:
                return []
            self._prompt = text
            return [
                {
                    "kind": "user",
                    "ts": ts,
                    "text": text if method == "prompt" else f"(steer) {text}",
                }
            ]
        if method == "initialize":
            client = as_object(params.get("client"))
            name = as_string(client.get("name")) or "a client"
            version = as_string(params.get("protocol_version"))
            return [_system(ts, f"wire: {name} connected (protocol {version or '?'})")]
        if type(method) is str:
            return [_system(ts, f"wire: {method}")]
        if "error" in message:
            error = as_object(message.get("error"))
            text = as_string(error.get("message")) or error_text(message.get("error"))
            code = error.get("code")
            return [{"kind": "stderr", "ts": ts, "text": f"{text} (code {code})" if code else text}]
        result = message.get("result")
        if type(result) is dict:
            server = as_object(result.get("server"))
            if server:
                name = as_string(server.get("name")) or "Kimi"
                return [_system(ts, f"wire: {name} {as_string(server.get('version'))}".strip())]
            status = as_string(result.get("status"))
            if status:
                return [_system(ts, f"wire: {status}")]
            return []  # an answer to one of the client's own requests
        return stdout_entries(line, ts)

    def _wire(self, kind: str, payload: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        if kind == "ContentPart":
            part = as_string(payload.get("type"))
            if part == "text":
                text = as_string(payload.get("text"))
                return (
                    [{"kind": "assistant", "ts": ts, "text": text, "delta": True}] if text else []
                )
            if part == "think":
                text = as_string(payload.get("think"))
                return [{"kind": "thinking", "ts": ts, "text": text, "delta": True}] if text else []
            return [_system(ts, f"({part or 'unknown'} content)")]
        if kind == "ToolCall":
            return self._call(payload, ts)
        if kind == "ToolResult":
            value = as_object(payload.get("return_value"))
            output = value.get("output")
            message = as_string(value.get("message"))
            content: object = output if output not in (None, "") else message
            failed = value.get("is_error") is True
            return [self._result(as_string(payload.get("tool_call_id")), content, failed, ts)]
        if kind in ("TurnBegin", "SteerInput"):
            text = content_text(payload.get("user_input")).strip()
            if not text or text == self._prompt:
                self._prompt = ""
                return []  # the prompt or steer request already showed it
            prefix = "" if kind == "TurnBegin" else "(steer) "
            return [{"kind": "user", "ts": ts, "text": prefix + text}]
        if kind == "SubagentEvent":
            event = as_object(payload.get("event"))
            inner = self._wire(as_string(event.get("type")), as_object(event.get("payload")), ts)
            parent = as_string(payload.get("parent_tool_call_id"))
            return with_parent(inner, parent) if parent else inner
        if kind in _BOUNDARIES:
            return []
        if kind == "StatusUpdate" and not isinstance(payload.get("context_usage"), (int, float)):
            return []  # token counts of a step: the summary reads them
        return [self._wire_note(kind, payload, ts)]

    def _wire_note(self, kind: str, payload: dict[str, Any], ts: str) -> TranscriptEntry:
        if kind == "StepInterrupted":
            return {"kind": "stderr", "ts": ts, "text": "step interrupted"}
        if kind == "ApprovalRequest":
            action = as_string(payload.get("action")) or "an action"
            detail = as_string(payload.get("description"))
            return _system(ts, f"approval requested: {action}" + (f" — {detail}" if detail else ""))
        if kind in ("ApprovalResponse", "ApprovalRequestResolved"):
            return _system(ts, f"approval: {as_string(payload.get('response')) or 'resolved'}")
        if kind == "PlanDisplay":
            return _system(ts, "plan:\n" + as_string(payload.get("content")))
        if kind == "Notification":
            title = as_string(payload.get("title"))
            body = as_string(payload.get("body"))
            return _system(ts, ": ".join(part for part in (title, body) if part) or "notification")
        if kind in ("CompactionBegin", "CompactionEnd"):
            return _system(
                ts, "context compaction " + ("started" if kind.endswith("Begin") else "done")
            )
        if kind in ("HookTriggered", "HookResolved"):
            event = as_string(payload.get("event"))
            action = as_string(payload.get("action"))
            reason = as_string(payload.get("reason"))
            text = (
                f"hook {event}"
                + (f": {action}" if action else "")
                + (f" ({reason})" if reason else "")
            )
            return _system(ts, text)
        if kind == "StatusUpdate":
            return _system(ts, f"context {payload.get('context_usage'):.0%} used")
        return _system(ts, f"{kind or 'event'}: {to_json_text(payload)}")

    def reset(self) -> None:
        self._names.clear()
        self._prompt = ""


def parse_stdout_line(line: str, ts: str) -> list[TranscriptEntry]:
    """One Kimi stdout line to entries, as a fresh :class:`KimiStdoutParser` sees it."""
    return KimiStdoutParser().parse_line(line, ts)


def create_stdout_parser() -> KimiStdoutParser:
    """A fresh stateful Kimi parser for one transcript."""
    return KimiStdoutParser()
