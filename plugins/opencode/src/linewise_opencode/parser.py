"""OpenCode ``opencode run --format json`` lines to TranscriptEntries."""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.entries import (
    AssistantEntry,
    ResultEntry,
    ThinkingEntry,
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
    dig,
    iso_timestamp,
    json_or_placeholder,
    parse_json_object,
    stdout_entries,
    to_json_text,
)
from linewise_contracts.extract import diff_entries as unified_diff_entries
from linewise_contracts.extract import error_text as shared_error_text

from linewise_opencode.ending import step_failed, with_step_fields

__all__ = [
    "OpenCodeStdoutParser",
    "create_stdout_parser",
    "diff_entries",
    "error_text",
    "error_value",
    "parse_stdout_line",
]

# Text parts being streamed as snapshots, by part id, with the text shown so
# far: fewer than the call ids, as each holds a whole text.
_STREAMING_PARTS: Final = 256
# A diff longer than this is cut, with a truncation entry saying how much is left out.
_DIFF_LINES: Final = 400
# Metadata values longer than this stay out of the tool result's header.
_HEADER_VALUE_LIMIT: Final = 200
_FINISHED: Final = ("completed", "error")

_Shown = BoundedMap[str, str]
_Streaming = BoundedMap[str, str]


def error_text(value: object) -> str:
    """The message of an OpenCode error: ``message``, ``data.message``, ``name`` or ``type``."""
    nested = dig(value, "data", "message")
    if type(nested) is str and nested and not as_string(dig(value, "message")):
        return nested  # an API error: {"name": "APIError", "data": {"message": ...}}
    return shared_error_text(value, keys=("message", "name", "type"))


def error_value(event: dict[str, Any]) -> object:
    """An error event's ``error``, or its ``message`` when there is no error object."""
    error = event.get("error")
    return event.get("message") if error is None else error


# -- tools ---------------------------------------------------------------------------------


def _header_value(value: object) -> str | None:
    """A metadata value as one header line, or None when it does not fit on one."""
    if type(value) is bool:
        return "true" if value else "false"
    if type(value) in (int, float):
        return to_json_text(value)
    if type(value) is str and "\n" not in value and len(value) <= _HEADER_VALUE_LIMIT:
        return value
    return None  # objects, lists, multi-line text (diffs, previews of the output)


def _result_content(part: dict[str, Any], state: dict[str, Any], status: str) -> str:
    header = [f"status: {status}"]
    for key, value in as_object(state.get("metadata")).items():
        text = _header_value(value)
        if text is not None:
            header.append(f"{key}: {text}")
    body = (
        as_string(state.get("output"))
        or as_string(state.get("error"))
        or as_string(state.get("title"))
        or f"{as_string(part.get('tool'), 'tool')} {status}"
    )
    return ("\n".join(header) + "\n\n" + body).strip()


def diff_entries(diff: str, ts: str) -> list[TranscriptEntry]:
    """A unified diff (as OpenCode's edit tools report it) as ``diff`` entries, one per line."""
    return unified_diff_entries(diff, ts, limit=_DIFF_LINES, more="more lines")


def _tool_use(event: dict[str, Any], ts: str, shown: _Shown | None) -> list[TranscriptEntry]:
    part = event.get("part")
    if type(part) is not dict:
        return [{"kind": "system", "ts": ts, "text": "tool event"}]
    name = as_string(part.get("tool"), "tool")
    state = as_object(part.get("state"))
    ident = as_string(part.get("callID")) or as_string(part.get("id"))
    status = as_string(state.get("status"))
    entries: list[TranscriptEntry] = []
    if shown is not None and ident and status == "pending" and not state.get("input"):
        # A first snapshot before the model wrote the input: the call is shown,
        # with its input, by the next snapshot of the part.
        return entries
    # The stateful parser shows a call once, however many updates it gets.
    if shown is None or not ident or ident not in shown:
        call: ToolCallEntry = {
            "kind": "tool_call",
            "ts": ts,
            "name": name,
            "input": json_or_placeholder(state.get("input", {})),
        }
        if ident:
            call["toolUseId"] = ident
        entries.append(call)
        if shown is not None and ident:
            shown[ident] = name
    if status not in _FINISHED:
        return entries  # pending or running: the result comes with a later update
    result: ToolResultEntry = {
        "kind": "tool_result",
        "ts": ts,
        "toolUseId": ident or name,
        "content": _result_content(part, state, status),
        "isError": status == "error",
    }
    if shown is not None:
        result["toolName"] = name
    entries.append(result)
    diff = as_object(state.get("metadata")).get("diff")
    if status == "completed" and type(diff) is str and diff.strip():
        entries.extend(diff_entries(diff, ts))
    return entries


# -- steps, text, errors ---------------------------------------------------------------------


def _step_finish(event: dict[str, Any], ts: str, *, model: str = "") -> TranscriptEntry:
    """A step's ``result``: the 1.x counts, and what a run summary reads (contracts 1.5,
    1.9: ``ending.py``, one definition with the summaries); ``model`` as
    :func:`.ending.with_step_fields` takes it."""
    part = as_object(event.get("part"))
    tokens = as_object(part.get("tokens"))
    reason = as_string(part.get("reason"), "step")
    result: ResultEntry = {
        "kind": "result",
        "ts": ts,
        "text": reason,
        "inputTokens": as_number(tokens.get("input")),
        # Reasoning tokens are billed as output.
        "outputTokens": as_number(tokens.get("output")) + as_number(tokens.get("reasoning")),
        "cachedTokens": as_number(as_object(tokens.get("cache")).get("read")),
        "costUsd": as_number(part.get("cost")),
        "subtype": reason,
        "isError": step_failed(part),
        "errors": [],
    }
    return with_step_fields(result, part, model=model)


def _done(event: dict[str, Any], ts: str) -> TranscriptEntry:
    reason = as_string(event.get("reason"), "done")
    rejected = [item for item in as_list(event.get("rejected")) if type(item) is str]
    text = f"run finished ({reason})"
    if rejected:
        text += f"; permissions auto-rejected: {', '.join(rejected)}"
    return {"kind": "system", "ts": ts, "text": text}


def _text(kind: str, ts: str, text: str, *, delta: bool = False) -> list[TranscriptEntry]:
    entry: AssistantEntry | ThinkingEntry
    if kind == "thinking":
        entry = {"kind": "thinking", "ts": ts, "text": text}
    else:
        entry = {"kind": "assistant", "ts": ts, "text": text}
    if delta:
        entry["delta"] = True
    return [entry]


def _text_part(
    kind: str, event: dict[str, Any], ts: str, streaming: _Streaming | None
) -> list[TranscriptEntry]:
    """A text or reasoning part; a part re-sent as growing snapshots is shown once, growing.

    A snapshot whose ``time`` has no ``end`` yet is a part still being
    written: it goes out as a ``delta`` fragment, and each later snapshot of
    the same part id adds only what it grew by, so the host merges one message.
    """
    part = as_object(event.get("part"))
    text = as_string(part.get("text"))
    ident = as_string(part.get("id"))
    time = part.get("time")
    unfinished = type(time) is dict and time.get("end") is None
    previous = streaming.get(ident) if streaming is not None and ident else None
    if streaming is None or not ident or (previous is None and not unfinished):
        # A complete part seen once: the reference's entry.
        if streaming is not None and ident:
            streaming[ident] = text
        stripped = text.strip()
        return _text(kind, ts, stripped) if stripped else []
    streaming[ident] = text
    if previous is None:
        return _text(kind, ts, text, delta=True) if text else []
    if text.startswith(previous):
        grown = text[len(previous) :]
        return _text(kind, ts, grown, delta=True) if grown else []
    # The part was rewritten, not grown: its new text is shown whole.
    stripped = text.strip()
    return _text(kind, ts, stripped) if stripped else []


def _entries(
    event: dict[str, Any], line: str, ts: str, state: OpenCodeStdoutParser | None
) -> list[TranscriptEntry]:
    # The event's own time (epoch milliseconds) replaces the host's clock.
    ts = iso_timestamp(event.get("timestamp")) or ts
    kind = event.get("type")
    if kind == "text":
        return _text_part("assistant", event, ts, state._streaming if state else None)
    if kind == "reasoning":
        return _text_part("thinking", event, ts, state._streaming if state else None)
    if kind == "tool_use":
        return _tool_use(event, ts, state._shown if state else None)
    if kind == "step_start":
        session = as_string(event.get("sessionID"))
        return [
            {
                "kind": "system",
                "ts": ts,
                "text": f"step started ({session})" if session else "step started",
            }
        ]
    if kind == "step_finish":
        return [_step_finish(event, ts)]
    if kind == "done":
        return [_done(event, ts)]
    if kind == "error" or "error" in event:
        # Also without a type: the single object OpenCode prints when a run fails
        # or is cancelled before streaming, {"error": {...}, "content": []}.
        text = error_text(error_value(event))
        return [{"kind": "stderr", "ts": ts, "text": text or line}]
    return stdout_entries(line, ts)


def parse_stdout_line(line: str, ts: str) -> list[TranscriptEntry]:
    """One OpenCode JSON line to entries (stateless; prefer :func:`create_stdout_parser`)."""
    event = parse_json_object(line)
    if event is None:
        return stdout_entries(line, ts)
    return _entries(event, line, ts, None)


class OpenCodeStdoutParser:
    """The stateful OpenCode parser, which adds three things to :func:`parse_stdout_line`.

    A tool part can arrive more than once as its state moves from pending or
    running to completed; this parser shows the call once and the result when
    it comes. A text part re-sent as growing snapshots is shown once, growing.
    Its tool results also carry ``toolName``.
    """

    __slots__ = ("_shown", "_streaming")

    def __init__(self) -> None:
        self._shown: _Shown = BoundedMap()  # call id -> tool name, for calls already shown
        self._streaming: _Streaming = BoundedMap(_STREAMING_PARTS)  # part id -> text shown

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        event = parse_json_object(line)
        if event is None:
            return stdout_entries(line, ts)
        return _entries(event, line, ts, self)

    def reset(self) -> None:
        self._shown.clear()
        self._streaming.clear()


def create_stdout_parser() -> OpenCodeStdoutParser:
    """A fresh stateful OpenCode parser for one transcript."""
    return OpenCodeStdoutParser()
