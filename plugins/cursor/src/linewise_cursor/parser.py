"""Cursor Agent CLI ``stream-json`` and Cursor Cloud event lines to TranscriptEntries."""

from __future__ import annotations

import math
from typing import Any, Final

from linewise_contracts.entries import (
    InitEntry,
    ResultEntry,
    ToolCallEntry,
    ToolResultEntry,
    TranscriptEntry,
)
from linewise_contracts.extract import (
    as_list,
    as_number,
    as_object,
    as_string,
    dig,
    iso_timestamp,
    json_or_placeholder,
    parse_json_object,
    stdout_entries,
    to_json_text,
    truncate,
)

from linewise_cursor.ending import (
    cloud_failed,
    with_cloud_fields,
    with_result_fields,
    with_step_fields,
)

# Defined beside the sniff, which detection imports alone.
from linewise_cursor.sniff import normalize_line

__all__ = [
    "CursorStdoutParser",
    "create_stdout_parser",
    "normalize_line",
    "parse_stdout_line",
]

_SHELL_TOOLS: Final = ("shellToolCall", "shell")
_STARTED: Final = ("started", "start")
_COMPLETED: Final = ("completed", "complete", "finished")
_FAILED_STATUSES: Final = ("error", "failed", "cancelled")
# Result shapes Cursor uses for a tool that did not succeed.
_FAILED_RESULTS: Final = ("error", "failure", "rejected")
_CLOUD_PREFIX: Final = "cursor_cloud."
_SYSTEM_TEXT_LIMIT: Final = 2000
# Streamed assistant text kept to recognise the recap that closes a segment;
# past this the recap is recognised by position alone.
_FRAGMENT_LIMIT: Final = 1_000_000


def _system(ts: str, text: str) -> TranscriptEntry:
    return {"kind": "system", "ts": ts, "text": truncate(text, _SYSTEM_TEXT_LIMIT)}


def _pretty(value: object) -> str:
    """Text as itself, nothing as empty, anything else as indented JSON (like the reference)."""
    if type(value) is str:
        return value
    return "" if value is None else to_json_text(value, pretty=True)


def _first_present(*values: Any) -> Any:
    """The first value that is not None (``a ?? b ?? c``); values are decoded JSON."""
    return next((value for value in values if value is not None), None)


def _number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _ident(block: dict[str, Any], *keys: str) -> str:
    return next((text for key in keys if (text := as_string(block.get(key)))), "")


def _call_id(block: dict[str, Any], *keys: str) -> str:
    """A tool call's id on one line.

    cursor-agent joins two ids with a newline ("call_X\\nfc_Y": the model's call
    id and its function-call item id); a space keeps both without breaking
    the line a view prints the id on, and a call and its result still pair.
    """
    ident = _ident(block, *keys)
    return " ".join(ident.split()) if "\n" in ident or "\r" in ident else ident


def _event_time(event: dict[str, Any], ts: str) -> str:
    """The event's own time (``timestamp_ms``, epoch milliseconds) when it has one."""
    return iso_timestamp(event.get("timestamp_ms")) or ts


# -- tools -----------------------------------------------------------------------


def _shell_result_text(result: object) -> str:
    """``exit N`` then ``<stdout>`` and ``<stderr>`` sections, else the result as JSON."""
    body = as_object(result).get("success")
    if type(body) is not dict:
        body = as_object(result).get("failure")
    if type(body) is not dict:
        return _pretty(result)
    code = as_number(body.get("exitCode"), math.nan)
    out = as_string(body.get("stdout")).strip()
    err = as_string(body.get("stderr")).strip()
    if math.isnan(code) and not out and not err:
        return _pretty(result)
    lines = [] if math.isnan(code) else [f"exit {_number_text(code)}"]
    if out:
        lines += ["<stdout>", out]
    if err:
        lines += ["<stderr>", err]
    return "\n".join(lines)


# What cursor-agent derives from the command itself (its shell parser's findings) and the
# call's own id again: not what the agent asked for.
_SHELL_DERIVED: Final = frozenset(
    {"parsingResult", "simpleCommands", "hasInputRedirect", "hasOutputRedirect", "toolCallId"}
)


def _shell_input(raw: Any, payload: dict[str, Any]) -> Any:
    """A shell call's input: the command first, then everything else the agent said
    (``description``, ``workingDirectory``, ``timeout`` ...), without Cursor's own parse of
    the command."""
    args = as_object(raw)
    command = as_string(_first_present(payload.get("command"), args.get("command")))
    if not command:
        return raw
    kept = {
        key: value
        for key, value in args.items()
        if key != "command" and key not in _SHELL_DERIVED and value not in ("", None)
    }
    return {"command": command, **kept}


def _result_failed(result: object) -> bool:
    body = as_object(result)
    if "success" in body:
        code = as_number(as_object(body["success"]).get("exitCode"), 0)
        return code != 0
    return any(key in body for key in _FAILED_RESULTS)


def _tool_call_event(event: dict[str, Any], ts: str, with_name: bool) -> list[TranscriptEntry]:
    subtype = as_string(event.get("subtype")).strip().lower()
    call_id = _call_id(event, "call_id", "callId", "id") or "tool_call"
    tool_call = as_object(_first_present(event.get("tool_call"), event.get("toolCall")))
    label = f"tool_call ({subtype})" if subtype else "tool_call"
    if not tool_call:
        return [_system(ts, label)]
    # Cursor names the tool by the single key of `tool_call` (shellToolCall, readToolCall ...).
    name = next(iter(tool_call))
    payload = as_object(tool_call[name])
    shell = name in _SHELL_TOOLS
    if subtype in _STARTED:
        raw = _first_present(payload.get("args"), dig(payload, "function", "arguments"), payload)
        call: ToolCallEntry = {
            "kind": "tool_call",
            "ts": ts,
            "name": name,
            "toolUseId": call_id,
            "input": json_or_placeholder(_shell_input(raw, payload) if shell else raw),
        }
        return [call]
    if subtype in _COMPLETED:
        result = _first_present(
            payload.get("result"),
            payload.get("output"),
            payload.get("error"),
            dig(payload, "function", "result"),
            dig(payload, "function", "output"),
        )
        status = as_string(payload.get("status")).lower()
        failed = (
            event.get("is_error") is True
            or payload.get("is_error") is True
            or status in _FAILED_STATUSES
            or "error" in payload
            or _result_failed(result)
        )
        if result is None:
            content = f"{name} completed"
        else:
            content = _shell_result_text(result) if shell else _pretty(result)
        entry: ToolResultEntry = {
            "kind": "tool_result",
            "ts": ts,
            "toolUseId": call_id,
            "content": content,
            "isError": failed,
        }
        if with_name:
            entry["toolName"] = name
        return [entry]
    return [_system(ts, f"{label}: {name}")]


# -- messages ----------------------------------------------------------------------


def _message_parts(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [part for part in as_list(message.get("content")) if type(part) is dict]


def _user_entries(message: object, ts: str) -> list[TranscriptEntry]:
    if type(message) is str:
        text = message.strip()
        return [{"kind": "user", "ts": ts, "text": text}] if text else []
    body = as_object(message)
    texts = [as_string(body.get("text")).strip()]
    texts += [
        as_string(part.get("text")).strip()
        for part in _message_parts(body)
        if part.get("type") in ("output_text", "text")
    ]
    return [{"kind": "user", "ts": ts, "text": text} for text in texts if text]


def _content_tool_call(part: dict[str, Any], ts: str) -> ToolCallEntry:
    name = as_string(part.get("name"), as_string(part.get("tool"), "tool"))
    raw = _first_present(part.get("input"), part.get("arguments"), part.get("args"), {})
    call: ToolCallEntry = {
        "kind": "tool_call",
        "ts": ts,
        "name": name,
        "input": json_or_placeholder(
            _shell_input(raw, as_object(raw)) if name in _SHELL_TOOLS else raw
        ),
    }
    ident = _call_id(part, "tool_use_id", "toolUseId", "call_id", "id")
    if ident:
        call["toolUseId"] = ident
    return call


def _content_tool_result(part: dict[str, Any], ts: str) -> ToolResultEntry:
    raw = _first_present(part.get("output"), part.get("result"), part.get("text"))
    if type(raw) in (dict, list):
        content = _shell_result_text(raw)
    else:
        content = as_string(raw) or _pretty(raw)
    return {
        "kind": "tool_result",
        "ts": ts,
        "toolUseId": _call_id(part, "tool_use_id", "toolUseId", "call_id", "id") or "tool_result",
        "content": content,
        "isError": part.get("is_error") is True or as_string(part.get("status")).lower() == "error",
    }


def _assistant_entries(message: object, ts: str) -> list[TranscriptEntry]:
    if type(message) is str:
        text = message.strip()
        return [{"kind": "assistant", "ts": ts, "text": text}] if text else []
    body = as_object(message)
    entries: list[TranscriptEntry] = []
    direct = as_string(body.get("text")).strip()
    if direct:
        entries.append({"kind": "assistant", "ts": ts, "text": direct})
    for part in _message_parts(body):
        kind = as_string(part.get("type")).strip()
        if kind in ("output_text", "text"):
            text = as_string(part.get("text")).strip()
            if text:
                entries.append({"kind": "assistant", "ts": ts, "text": text})
        elif kind == "thinking":
            text = as_string(part.get("text")).strip()
            if text:
                entries.append({"kind": "thinking", "ts": ts, "text": text})
        elif kind == "tool_call":
            entries.append(_content_tool_call(part, ts))
        elif kind == "tool_result":
            entries.append(_content_tool_result(part, ts))
    return entries


def _is_fragment(event: dict[str, Any]) -> bool:
    """With ``--stream-partial-output`` a text fragment carries ``timestamp_ms`` but no
    ``model_call_id``; complete messages (and the recap closing each streamed segment)
    carry a ``model_call_id`` or neither field."""
    return "timestamp_ms" in event and "model_call_id" not in event


def _fragment_text(event: dict[str, Any]) -> str:
    message = event.get("message")
    if type(message) is str:
        return message
    parts = _message_parts(as_object(message))
    return "".join(
        as_string(part.get("text")) for part in parts if part.get("type") in ("output_text", "text")
    )


def _assistant_event(event: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    if _is_fragment(event):
        text = _fragment_text(event)
        return [{"kind": "assistant", "ts": ts, "text": text, "delta": True}] if text else []
    entries = _assistant_entries(event.get("message"), ts)
    if entries:
        return entries
    result = as_string(event.get("result"))
    return [{"kind": "assistant", "ts": ts, "text": result}] if result else []


def _thinking_event(event: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    top = as_string(event.get("text"))
    text = top or as_string(dig(event, "delta", "text"))
    streamed = as_string(event.get("subtype")).strip().lower() == "delta" or (
        type(event.get("delta")) is dict
    )
    if not text.strip():
        return []  # `thinking/completed` closes a phase and carries no text
    if streamed:
        return [{"kind": "thinking", "ts": ts, "text": text, "delta": True}]
    return [{"kind": "thinking", "ts": ts, "text": text.strip()}]


def _first_count(usage: dict[str, Any], *keys: str) -> float:
    return next((as_number(usage[key]) for key in keys if as_number(usage.get(key), -1) >= 0), 0)


def _result_entry(event: dict[str, Any], ts: str) -> TranscriptEntry:
    usage = as_object(event.get("usage"))
    subtype = as_string(event.get("subtype"), "result")
    errors = [text for text in map(_pretty, as_list(event.get("errors"))) if text]
    error = as_string(event.get("error")).strip()
    if error:
        errors.append(error)
    entry: ResultEntry = {
        "kind": "result",
        "ts": ts,
        "text": as_string(event.get("result")),
        "inputTokens": as_number(usage.get("input_tokens"), as_number(usage.get("inputTokens"))),
        "outputTokens": as_number(usage.get("output_tokens"), as_number(usage.get("outputTokens"))),
        "cachedTokens": _first_count(
            usage,
            "cached_input_tokens",
            "cachedInputTokens",
            "cache_read_input_tokens",
            "cacheReadTokens",
        ),
        "costUsd": as_number(
            event.get("total_cost_usd"),
            as_number(event.get("cost_usd"), as_number(event.get("cost"))),
        ),
        "subtype": subtype,
        "isError": event.get("is_error") is True or subtype in ("error", "failed"),
        "errors": errors,
    }
    return with_result_fields(entry, event)


# -- the OpenCode-like shapes older cursor-agent builds wrote -------------------------


def _legacy_tool_use(event: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    part = as_object(event.get("part"))
    ident = as_string(part.get("callID"), as_string(part.get("id"), "tool_use"))
    state = as_object(part.get("state"))
    output = as_string(state.get("output")).strip()
    status = as_string(state.get("status")).strip()
    code = as_number(dig(state, "metadata", "exit"), math.nan)
    entries: list[TranscriptEntry] = [
        {
            "kind": "tool_call",
            "ts": ts,
            "name": as_string(part.get("tool"), "tool"),
            "input": json_or_placeholder(_first_present(state.get("input"), {})),
            "toolUseId": ident,
        }
    ]
    if status or output:
        lines = [f"status: {status}"] if status else []
        if not math.isnan(code):
            lines.append(f"exit: {_number_text(code)}")
        if output:
            lines += ["", output] if lines else [output]
        entries.append(
            {
                "kind": "tool_result",
                "ts": ts,
                "toolUseId": ident,
                "content": "\n".join(lines).strip() or "tool completed",
                "isError": status in ("failed", "error", "cancelled")
                or (not math.isnan(code) and code != 0),
            }
        )
    return entries


def _legacy_step_finish(event: dict[str, Any], ts: str) -> TranscriptEntry:
    part = as_object(event.get("part"))
    tokens = as_object(part.get("tokens"))
    reason = as_string(part.get("reason"))
    entry: ResultEntry = {
        "kind": "result",
        "ts": ts,
        "text": reason,
        "inputTokens": as_number(tokens.get("input")),
        "outputTokens": as_number(tokens.get("output")),
        "cachedTokens": as_number(dig(tokens, "cache", "read")),
        "costUsd": as_number(part.get("cost")),
        "subtype": reason or "step_finish",
        "isError": reason in ("error", "failed"),
        "errors": [],
    }
    return with_step_fields(entry, event)


# -- Cursor Cloud (cursor_cloud.* events of Paperclip's cloud adapter) ----------------


def _cloud_sdk_message(message: object, ts: str) -> list[TranscriptEntry]:
    body = as_object(message)
    kind = as_string(body.get("type"))
    inner = as_object(body.get("message"))
    if kind == "assistant":
        entries: list[TranscriptEntry] = []
        for part in _message_parts(inner):
            part_kind = as_string(part.get("type")).strip()
            if part_kind == "text":
                text = as_string(part.get("text")).strip()
                if text:
                    entries.append({"kind": "assistant", "ts": ts, "text": text})
            elif part_kind == "thinking":
                text = (as_string(part.get("thinking")) or as_string(part.get("text"))).strip()
                if text:
                    entries.append({"kind": "thinking", "ts": ts, "text": text})
            elif part_kind == "tool_use":
                call: ToolCallEntry = {
                    "kind": "tool_call",
                    "ts": ts,
                    "name": as_string(part.get("name"), "tool"),
                    "input": json_or_placeholder(_first_present(part.get("input"), {})),
                }
                if as_string(part.get("id")):
                    call["toolUseId"] = part["id"]
                entries.append(call)
        return entries
    if kind == "user":
        texts = [as_string(part.get("text")).strip() for part in _message_parts(inner)]
        text = "\n".join(text for text in texts if text)
        return [{"kind": "user", "ts": ts, "text": text}] if text else []
    if kind == "thinking":
        text = as_string(body.get("text")).strip()
        return [{"kind": "thinking", "ts": ts, "text": text}] if text else []
    if kind in ("tool_call", "tool_result"):
        return [_cloud_tool_message(kind, body, ts)]
    if kind == "status":
        detail = as_string(body.get("message"))
        return [
            _system(
                ts, f"status: {as_string(body.get('status'))}" + (f" - {detail}" if detail else "")
            )
        ]
    if kind == "task":
        text = as_string(body.get("text")).strip()
        return [_system(ts, text)] if text else []
    return [_system(ts, f"cursor cloud {kind or 'message'}: {to_json_text(body)}")]


def _cloud_tool_message(kind: str, body: dict[str, Any], ts: str) -> TranscriptEntry:
    ident = as_string(body.get("call_id"), as_string(body.get("id"), "tool_call"))
    name = as_string(body.get("name"), "tool")
    status = as_string(body.get("status")).lower()
    if kind == "tool_call" and status in ("running", "pending", "started"):
        return {
            "kind": "tool_call",
            "ts": ts,
            "name": name,
            "toolUseId": ident,
            "input": json_or_placeholder(_first_present(body.get("args"), {})),
        }
    if kind == "tool_call":
        content = _pretty(_first_present(body.get("result"), body.get("args"), {}))
    else:
        content = _pretty(_first_present(body.get("result"), body.get("content"), ""))
    return {
        "kind": "tool_result",
        "ts": ts,
        "toolUseId": ident,
        "toolName": name,
        "content": content,
        "isError": body.get("is_error") is True or status in _FAILED_STATUSES,
    }


def _cloud_git_text(event: dict[str, Any]) -> str:
    parts = []
    for branch in as_list(event.get("branches")):
        where = as_string(dig(branch, "repoUrl"))
        name = as_string(dig(branch, "branch"))
        pull = as_string(dig(branch, "prUrl"))
        text = " ".join(part for part in (name, f"in {where}" if where else "") if part)
        parts.append(text + (f" (PR {pull})" if pull else ""))
    return "git: " + ("; ".join(part for part in parts if part) or "no branches")


def _cloud_entries(event: dict[str, Any], kind: str, ts: str) -> list[TranscriptEntry]:
    if kind == "cursor_cloud.init":
        return [
            {
                "kind": "init",
                "ts": ts,
                "model": as_string(event.get("model")),
                "sessionId": as_string(event.get("sessionId"), as_string(event.get("agentId"))),
            }
        ]
    if kind == "cursor_cloud.status":
        detail = as_string(event.get("message"))
        status = as_string(event.get("status"), "status")
        return [_system(ts, status + (f": {detail}" if detail else ""))]
    if kind == "cursor_cloud.message":
        return _cloud_sdk_message(event.get("message"), ts)
    if kind == "cursor_cloud.result":
        status = as_string(event.get("status"), "error")
        error = event.get("error")
        result: ResultEntry = {
            "kind": "result",
            "ts": ts,
            "text": as_string(event.get("result")),
            "inputTokens": 0,
            "outputTokens": 0,
            "cachedTokens": 0,
            "costUsd": 0,
            "subtype": status,
            "isError": cloud_failed(event),
            "errors": [as_string(error) or to_json_text(error)] if error else [],
        }
        return [with_cloud_fields(result, event)]
    if kind == "cursor_cloud.git":
        return [_system(ts, _cloud_git_text(event))]
    if kind == "cursor_cloud.tool":
        name = as_string(event.get("toolName"), "tool")
        summary = as_string(event.get("summary"))
        phase = as_string(event.get("phase"), "update")
        return [_system(ts, f"tool {name} {phase}" + (f": {summary}" if summary else ""))]
    rest = {key: value for key, value in event.items() if key != "type"}
    return [_system(ts, f"{kind.removeprefix(_CLOUD_PREFIX)}: {to_json_text(rest)}")]


# -- dispatch ------------------------------------------------------------------------


def _entries(event: dict[str, Any], line: str, ts: str, with_names: bool) -> list[TranscriptEntry]:
    kind = as_string(event.get("type"))
    if kind == "system":
        subtype = as_string(event.get("subtype"))
        if subtype == "init":
            session = _ident(event, "session_id", "sessionId", "sessionID")
            # An init without a model leaves it unknown (""), never an invented "cursor".
            model = as_string(event.get("model"))
            init: InitEntry = {"kind": "init", "ts": ts, "model": model, "sessionId": session}
            cwd = event.get("cwd")
            if type(cwd) is str and cwd:
                init["cwd"] = cwd  # contract 1.2
            return [init]
        return [_system(ts, f"system: {subtype}" if subtype else "system")]
    if kind == "assistant":
        return _assistant_event(event, ts)
    if kind == "user":
        return _user_entries(event.get("message"), ts)
    if kind == "thinking":
        return _thinking_event(event, ts)
    if kind == "tool_call":
        return _tool_call_event(event, ts, with_names)
    if kind == "result":
        return [_result_entry(event, ts)]
    if kind == "error":
        message = as_string(event.get("message")) or _pretty(
            _first_present(event.get("error"), event.get("detail"))
        )
        return [{"kind": "stderr", "ts": ts, "text": message or line}]
    if kind.startswith(_CLOUD_PREFIX):
        return _cloud_entries(event, kind, ts)
    if kind == "text":
        text = as_string(dig(event, "part", "text"))
        return [{"kind": "assistant", "ts": ts, "text": text, "delta": True}] if text else []
    if kind == "tool_use":
        return _legacy_tool_use(event, ts)
    if kind == "step_start":
        session = as_string(event.get("sessionID"))
        return [_system(ts, "step started" + (f" ({session})" if session else ""))]
    if kind == "step_finish":
        return [_legacy_step_finish(event, ts)]
    return stdout_entries(line, ts)


def parse_stdout_line(line: str, ts: str) -> list[TranscriptEntry]:
    """One Cursor line to entries (stateless; prefer :func:`create_stdout_parser`).

    Reproduces the reference parser (tool results carry no ``toolName`` and the
    recap that closes a ``--stream-partial-output`` segment is shown again),
    except where its README lists a difference: an event's ``timestamp_ms``
    is its entries' time, a tool id's newline becomes a space, and an init
    without a model leaves it unknown.
    """
    normalized = normalize_line(line)
    if not normalized:
        return []
    event = parse_json_object(normalized)
    if event is None:
        return stdout_entries(normalized, ts)
    return _entries(event, normalized, _event_time(event, ts), with_names=False)


def _squashed(text: str) -> str:
    return "".join(text.split())


class CursorStdoutParser:
    """The stateful Cursor parser the host uses, adding two things to :func:`parse_stdout_line`.

    Tool results carry ``toolName`` (the ``*ToolCall`` key of the call). With
    ``--stream-partial-output`` Cursor streams assistant text as fragments and
    closes each segment with a recap repeating it; fragments become ``delta``
    entries and the recap is dropped when it repeats them.
    """

    __slots__ = ("_fragment_chars", "_fragments", "_overflow")

    def __init__(self) -> None:
        self._fragments: list[str] = []
        self._fragment_chars = 0
        self._overflow = False

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        normalized = normalize_line(line)
        if not normalized:
            return []
        event = parse_json_object(normalized)
        if event is None:
            return stdout_entries(normalized, ts)
        ts = _event_time(event, ts)
        if event.get("type") != "assistant":
            return _entries(event, normalized, ts, with_names=True)
        if _is_fragment(event):
            text = _fragment_text(event)
            if self._fragment_chars + len(text) > _FRAGMENT_LIMIT:
                self._overflow = True
            else:
                self._fragments.append(text)
                self._fragment_chars += len(text)
            return [{"kind": "assistant", "ts": ts, "text": text, "delta": True}] if text else []
        entries = _assistant_event(event, ts)
        if self._fragments or self._overflow:
            streamed = "".join(self._fragments)
            if self._overflow or _squashed(_fragment_text(event)) == _squashed(streamed):
                entries = [entry for entry in entries if entry["kind"] != "assistant"]
            self.reset()
        return entries

    def reset(self) -> None:
        self._fragments.clear()
        self._fragment_chars = 0
        self._overflow = False


def create_stdout_parser() -> CursorStdoutParser:
    """A fresh stateful Cursor parser for one transcript."""
    return CursorStdoutParser()
