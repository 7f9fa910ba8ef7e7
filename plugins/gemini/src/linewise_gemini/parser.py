"""Gemini CLI ``--output-format stream-json`` lines to TranscriptEntries."""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.acpx import parse_acpx_event
from linewise_contracts.entries import (
    ResultEntry,
    ToolCallEntry,
    ToolResultEntry,
    TranscriptEntry,
)
from linewise_contracts.extract import (
    BoundedMap,
    as_list,
    as_number,
    as_object,
    as_string,
    content_text,
    dig,
    error_text,
    iso_timestamp,
    json_or_placeholder,
    parse_json_object,
    stdout_entries,
    strip_ansi,
)

from linewise_gemini.ending import is_error_result, with_result_fields

# Defined beside the sniff, which detection imports alone.
from linewise_gemini.sniff import plain_line_kind

__all__ = [
    "GeminiStdoutParser",
    "create_stdout_parser",
    "glued_event",
    "parse_stdout_line",
    "plain_line_kind",
    "read_session_id",
    "read_usage",
]

# Tool names by call id, remembered for pairing results: bounded so a very long
# run cannot grow the map without limit.
_Names = BoundedMap[str, str]


# Text-bearing content parts of the message shapes older schemas used.
_TEXT_PARTS: Final = ("output_text", "text", "content")
_TOOL_CALL_PARTS: Final = ("tool_call", "tool_use", "function_call")
_TOOL_RESULT_PARTS: Final = ("tool_result", "tool_response", "function_response")


# Where a JSON event starts when Gemini 0.37+ glues a notice in front of it on
# the same line ("MCP issues detected. Run /mcp list for status.{"type":...").
_GLUED_EVENT: Final = '{"type":'


def glued_event(line: str) -> tuple[str, dict[str, Any]] | None:
    """``(text, event)`` when ``line`` is plain text with a JSON event glued to its end.

    One search and one parse, so linear in the line: only the first
    ``{"type":`` is tried.
    """
    start = line.find(_GLUED_EVENT)
    if start <= 0:
        return None
    event = parse_json_object(line[start:])
    if event is None or type(event.get("type")) is not str:
        return None
    return line[:start], event


def _plain_line(line: str, ts: str) -> list[TranscriptEntry]:
    kind = plain_line_kind(line)
    if kind == "system":
        return [{"kind": "system", "ts": ts, "text": strip_ansi(line).strip()}]
    if kind == "stderr":
        return [{"kind": "stderr", "ts": ts, "text": strip_ansi(line).strip()}]
    return stdout_entries(line, ts)


def _first_present(event: dict[str, Any], *keys: str) -> object:
    # JavaScript's `a ?? b`: the first key whose value is not null or missing.
    for key in keys:
        value = event.get(key)
        if value is not None:
            return value
    return None


def _input(event: dict[str, Any], *keys: str) -> Any:
    value = _first_present(event, *keys)
    return {} if value is None else value


def read_session_id(event: dict[str, Any]) -> str:
    """The session id an event carries under any of the names Gemini's schemas used."""
    for key in ("session_id", "sessionId", "sessionID", "checkpoint_id", "thread_id"):
        value = event.get(key)
        if type(value) is str and value.strip():
            return value.strip()
    return ""


def read_usage(event: dict[str, Any]) -> tuple[float, float, float]:
    """``(input, output, cached)`` tokens of a result: ``stats`` (stream-json) or ``usage``.

    Gemini's ``input_tokens`` is the whole prompt, cached tokens included.
    """
    source = as_object(_first_present(event, "usage", "usageMetadata", "stats"))
    source = as_object(source.get("usageMetadata")) or source

    def first(*names: str) -> float:
        for name in names:
            number = as_number(source.get(name), -1)
            if number >= 0:
                return number
        return 0

    return (
        first("input_tokens", "inputTokens", "promptTokenCount"),
        first("output_tokens", "outputTokens", "candidatesTokenCount"),
        first("cached", "cached_input_tokens", "cachedInputTokens", "cachedContentTokenCount"),
    )


# -- messages ---------------------------------------------------------------------------


def _texts(content: object) -> list[str]:
    """The text pieces of a message: a string, a list of parts, or ``{text, content: [...]}``."""
    if type(content) is str:
        return [content]
    parts: list[Any]
    texts: list[str] = []
    if type(content) is list:
        parts = content
    else:
        message = as_object(content)
        direct = message.get("text")
        if type(direct) is str:
            texts.append(direct)
        parts = as_list(message.get("content"))
    for part in parts:
        if dig(part, "type") in _TEXT_PARTS:
            texts.append(as_string(part.get("text")).strip() or as_string(part.get("content")))
    return texts


def _text_entries(content: object, ts: str, kind: str) -> list[TranscriptEntry]:
    entries: list[TranscriptEntry] = []
    for piece in _texts(content):
        text = piece.strip()
        if not text:
            continue
        if kind == "user":
            entries.append({"kind": "user", "ts": ts, "text": text})
        elif kind == "thinking":
            entries.append({"kind": "thinking", "ts": ts, "text": text})
        else:
            entries.append({"kind": "assistant", "ts": ts, "text": text})
    return entries


def _message(event: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    """A stream-json ``message``: user prompt or assistant text, streamed as deltas."""
    role = event.get("role")
    content = _first_present(event, "content", "message")
    if role == "assistant":
        if event.get("delta") is True and type(content) is str:
            # A streamed fragment: kept verbatim (its spaces and newlines join the
            # next fragment) and marked, so the host merges the fragments.
            if not content:
                return []
            return [{"kind": "assistant", "ts": ts, "text": content, "delta": True}]
        return _text_entries(content, ts, "assistant")
    if role == "user":
        return _text_entries(content, ts, "user")
    return []  # system notes and other roles are not part of the conversation


def _question_text(part: dict[str, Any]) -> str:
    lines = [f"Question: {as_string(part.get('prompt')).strip()}"]
    for choice in as_list(part.get("choices")):
        key = as_string(dig(choice, "key")).strip()
        label = as_string(dig(choice, "label")).strip()
        description = as_string(dig(choice, "description")).strip()
        lines.append(f"- {key}: {label}" + (f" ({description})" if description else ""))
    return "\n".join(lines)


def _legacy_assistant(message: object, ts: str, names: _Names | None) -> list[TranscriptEntry]:
    """A Claude-style ``assistant`` event, as early Gemini integrations wrote them."""
    if type(message) is str:
        return _text_entries(message, ts, "assistant")
    body = as_object(message)
    entries = _text_entries(as_string(body.get("text")), ts, "assistant")
    for part in as_list(body.get("content")):
        if type(part) is not dict:
            continue
        kind = as_string(part.get("type")).strip()
        if kind in _TEXT_PARTS:
            entries.extend(_text_entries([part], ts, "assistant"))
        elif kind == "thinking":
            entries.extend(_text_entries(as_string(part.get("text")), ts, "thinking"))
        elif kind in _TOOL_CALL_PARTS:
            name = as_string(part.get("name")) or as_string(part.get("tool"), "tool")
            call: ToolCallEntry = {
                "kind": "tool_call",
                "ts": ts,
                "name": name,
                "input": json_or_placeholder(_input(part, "input", "arguments", "args")),
            }
            ident = as_string(part.get("id")) or as_string(part.get("call_id"))
            if ident:
                call["toolUseId"] = ident
                if names is not None:
                    names[ident] = name
            entries.append(call)
        elif kind in _TOOL_RESULT_PARTS:
            ident = next(
                (
                    value
                    for key in ("tool_use_id", "toolUseId", "call_id", "id")
                    if (value := as_string(part.get(key)))
                ),
                "tool_result",
            )
            output = _first_present(part, "output", "result", "text", "response")
            result: ToolResultEntry = {
                "kind": "tool_result",
                "ts": ts,
                "toolUseId": ident,
                "content": output if type(output) is str else content_text(output),
                "isError": part.get("is_error") is True
                or as_string(part.get("status")).lower() == "error",
            }
            if names is not None and ident in names:
                result["toolName"] = names[ident]
            entries.append(result)
        elif kind == "question":
            entries.append({"kind": "assistant", "ts": ts, "text": _question_text(part)})
    return entries


# -- tools, errors, results -----------------------------------------------------------------


def _tool_use(event: dict[str, Any], ts: str, names: _Names | None) -> TranscriptEntry:
    name = as_string(event.get("tool_name")) or as_string(event.get("name"), "tool")
    call: ToolCallEntry = {
        "kind": "tool_call",
        "ts": ts,
        "name": name,
        "input": json_or_placeholder(_input(event, "parameters", "args", "input")),
    }
    ident = as_string(event.get("tool_id"))
    if ident:
        call["toolUseId"] = ident
        if names is not None:
            names[ident] = name
    return call


def _tool_result(event: dict[str, Any], ts: str, names: _Names | None) -> TranscriptEntry:
    ident = as_string(event.get("tool_id"))
    status = as_string(event.get("status")).lower()
    output = event.get("output")
    content = output if type(output) is str else content_text(output)
    error = event.get("error")
    message = error_text(error) if error is not None else ""
    kind = as_string(dig(error, "type")) if type(error) is dict else ""
    if message and message not in content:
        problem = _typed_error(error)
        content = f"{content}\n{problem}" if content else problem
    elif kind and kind not in content:  # the output says it; the type tells what failed
        content = f"{content}\n({kind})"
    result: ToolResultEntry = {
        "kind": "tool_result",
        "ts": ts,
        "toolUseId": ident,
        "content": content,
        "isError": status == "error" or (status != "success" and error is not None),
    }
    if names is not None and ident in names:
        result["toolName"] = names[ident]
    return result


def _typed_error(error: object) -> str:
    """An error's message, led by its ``type`` (``FatalTurnLimitedError: ...``) when it has one."""
    text = error_text(error)
    kind = as_string(dig(error, "type")) if type(error) is dict else ""
    if kind and text and kind not in text:
        return f"{kind}: {text}"
    return text


def _error(event: dict[str, Any], ts: str) -> TranscriptEntry:
    text = _typed_error(_first_present(event, "error", "message", "detail")) or "error"
    code = event.get("code")
    if type(code) in (int, str) and code != "" and str(code) not in text:
        text += f" (code {code})"  # an HTTP status like 429 says what to do next
    if event.get("severity") == "warning":
        # Loop detection, a blocked agent step, a refusal notice: the run goes on.
        return {"kind": "system", "ts": ts, "text": f"warning: {text}"}
    return {"kind": "stderr", "ts": ts, "text": text}


def _result(event: dict[str, Any], ts: str) -> TranscriptEntry:
    status = as_string(event.get("status"))
    subtype = as_string(event.get("subtype")) or status or "result"
    is_error = is_error_result(event)
    errors: list[str] = []
    if is_error:
        text = _typed_error(_first_present(event, "error", "message", "result"))
        if text:
            errors.append(text)
    input_tokens, output_tokens, cached_tokens = read_usage(event)
    cost = _first_present(event, "total_cost_usd", "cost_usd", "cost") or dig(
        event, "stats", "cost_usd"
    )
    result: ResultEntry = {
        "kind": "result",
        "ts": ts,
        "text": as_string(event.get("result"))
        or as_string(event.get("text"))
        or as_string(event.get("response")),
        "inputTokens": input_tokens,
        "outputTokens": output_tokens,
        "cachedTokens": cached_tokens,
        "costUsd": as_number(cost),
        "subtype": subtype,
        "isError": is_error,
        "errors": errors,
    }
    # The run's tokens in the usage vocabulary, cost source and outcome (contracts 1.5,
    # 1.9): one definition with the summary (ending.py).
    return with_result_fields(result, event)


def _init(event: dict[str, Any], ts: str) -> TranscriptEntry:
    return {
        "kind": "init",
        "ts": ts,
        "model": as_string(event.get("model")) or "unknown",  # never an invented name
        "sessionId": read_session_id(event),
    }


def _entries(
    event: dict[str, Any], line: str, ts: str, names: _Names | None
) -> list[TranscriptEntry]:
    # The event's own time (Gemini stamps every event) replaces the host's clock.
    ts = iso_timestamp(event.get("timestamp")) or ts
    acpx = parse_acpx_event(event, ts)
    if acpx is not None:  # the shared ACP engine's events, wrapped by Paperclip
        return acpx
    kind = event.get("type")
    if kind == "message":
        return _message(event, ts)
    if kind == "tool_use":
        return [_tool_use(event, ts, names)]
    if kind == "tool_result":
        return [_tool_result(event, ts, names)]
    if kind == "init":
        return [_init(event, ts)]
    if kind == "result":
        return [_result(event, ts)]
    if kind == "error":
        return [_error(event, ts)]
    # The Claude-like schema of early Gemini integrations.
    if kind == "system":
        subtype = as_string(event.get("subtype"))
        if subtype == "init":
            return [_init(event, ts)]
        if subtype == "error":
            return [_error(event, ts)]
        return [{"kind": "system", "ts": ts, "text": f"system: {subtype or 'event'}"}]
    if kind == "assistant":
        return _legacy_assistant(event.get("message"), ts, names)
    if kind == "user":
        return _text_entries(event.get("message"), ts, "user")
    if kind == "thinking":
        text = as_string(event.get("text")) or as_string(dig(event, "delta", "text"))
        return _text_entries(text, ts, "thinking")
    if kind == "text":
        return _text_entries(
            as_string(event.get("text")).strip() or as_string(event.get("content")),
            ts,
            "assistant",
        )
    if kind in ("step_finish", "step_complete"):
        return []  # usage bookkeeping of that schema; the result carries the totals
    return stdout_entries(line, ts)


def _line_entries(line: str, ts: str, names: _Names | None) -> list[TranscriptEntry]:
    event = parse_json_object(line)
    if event is not None:
        return _entries(event, line, ts, names)
    glued = glued_event(line)
    if glued is None:
        return _plain_line(line, ts)
    text, event = glued
    entries = _entries(event, line[len(text) :], ts, names)
    notice = text.strip()
    if notice:  # the glued notice is its own entry, at the time of its event
        entries[:0] = _plain_line(notice, entries[0]["ts"] if entries else ts)
    return entries


def parse_stdout_line(line: str, ts: str) -> list[TranscriptEntry]:
    """One Gemini stream-json line to entries (stateless; prefer :func:`create_stdout_parser`)."""
    return _line_entries(line, ts, None)


class GeminiStdoutParser:
    """The stateful Gemini parser: :func:`parse_stdout_line` plus tool names on results.

    Gemini's ``tool_result`` carries only the ``tool_id`` of its ``tool_use``;
    this parser remembers the name of each call so the result shows it.
    """

    __slots__ = ("_names",)

    def __init__(self) -> None:
        self._names: _Names = BoundedMap()

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        return _line_entries(line, ts, self._names)

    def reset(self) -> None:
        self._names.clear()


def create_stdout_parser() -> GeminiStdoutParser:
    """A fresh stateful Gemini parser for one transcript."""
    return GeminiStdoutParser()
