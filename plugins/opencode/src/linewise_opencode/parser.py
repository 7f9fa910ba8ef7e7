"""OpenCode ``opencode run --format json`` lines to TranscriptEntries."""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.entries import (
    ToolCallEntry,
    ToolResultEntry,
    TranscriptEntry,
)
from linewise_contracts.extract import (
    as_list,
    as_number,
    as_object,
    as_string,
    json_or_placeholder,
    parse_json_object,
    to_json_text,
)
from linewise_contracts.extract import diff_entries as unified_diff_entries

__all__ = [
    "OpenCodeStdoutParser",
    "create_stdout_parser",
    "diff_entries",
    "error_text",
    "error_value",
    "parse_stdout_line",
]

# Call ids already shown and tool names by call id: bounded so a very long run
# cannot grow them without limit.
_REMEMBERED: Final = 4096
# A diff longer than this is cut, with a truncation entry saying how much is left out.
_DIFF_LINES: Final = 400
# Metadata values longer than this stay out of the tool result's header.
_HEADER_VALUE_LIMIT: Final = 200
_FINISHED: Final = ("completed", "error")


def _stdout(line: str, ts: str) -> list[TranscriptEntry]:
    return [{"kind": "stdout", "ts": ts, "text": line}]


def error_text(value: object) -> str:
    """The message of an OpenCode error: ``message``, ``data.message``, ``name`` or ``type``."""
    if type(value) is str:
        return value
    if type(value) is not dict:
        return ""
    data = as_object(value.get("data"))
    for text in (value.get("message"), data.get("message"), value.get("name"), value.get("type")):
        if type(text) is str and text:
            return text
    return to_json_text(value)


def error_value(event: dict[str, Any]) -> object:
    """An error event's ``error``, or its ``message`` when there is no error object."""
    error = event.get("error")
    return event.get("message") if error is None else error


def _remember(store: dict[str, str], key: str, value: str) -> None:
    # Insertion-ordered dict as a bounded memory: the oldest key goes first.
    store[key] = value
    if len(store) > _REMEMBERED:
        del store[next(iter(store))]


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


def _tool_use(
    event: dict[str, Any], ts: str, shown: dict[str, str] | None
) -> list[TranscriptEntry]:
    part = event.get("part")
    if type(part) is not dict:
        return [{"kind": "system", "ts": ts, "text": "tool event"}]
    name = as_string(part.get("tool"), "tool")
    state = as_object(part.get("state"))
    ident = as_string(part.get("callID")) or as_string(part.get("id"))
    status = as_string(state.get("status"))
    entries: list[TranscriptEntry] = []
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
            _remember(shown, ident, name)
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


def _step_finish(event: dict[str, Any], ts: str) -> TranscriptEntry:
    part = as_object(event.get("part"))
    tokens = as_object(part.get("tokens"))
    reason = as_string(part.get("reason"), "step")
    return {
        "kind": "result",
        "ts": ts,
        "text": reason,
        "inputTokens": as_number(tokens.get("input")),
        # Reasoning tokens are billed as output.
        "outputTokens": as_number(tokens.get("output")) + as_number(tokens.get("reasoning")),
        "cachedTokens": as_number(as_object(tokens.get("cache")).get("read")),
        "costUsd": as_number(part.get("cost")),
        "subtype": reason,
        "isError": reason == "error" or part.get("status") == "error",
        "errors": [],
    }


def _done(event: dict[str, Any], ts: str) -> TranscriptEntry:
    reason = as_string(event.get("reason"), "done")
    rejected = [item for item in as_list(event.get("rejected")) if type(item) is str]
    text = f"run finished ({reason})"
    if rejected:
        text += f"; permissions auto-rejected: {', '.join(rejected)}"
    return {"kind": "system", "ts": ts, "text": text}


def _entries(
    event: dict[str, Any], line: str, ts: str, shown: dict[str, str] | None
) -> list[TranscriptEntry]:
    kind = event.get("type")
    if kind == "text":
        text = as_string(as_object(event.get("part")).get("text")).strip()
        return [{"kind": "assistant", "ts": ts, "text": text}] if text else []
    if kind == "reasoning":
        text = as_string(as_object(event.get("part")).get("text")).strip()
        return [{"kind": "thinking", "ts": ts, "text": text}] if text else []
    if kind == "tool_use":
        return _tool_use(event, ts, shown)
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
    return _stdout(line, ts)


def parse_stdout_line(line: str, ts: str) -> list[TranscriptEntry]:
    """One OpenCode JSON line to entries (stateless; prefer :func:`create_stdout_parser`)."""
    event = parse_json_object(line)
    if event is None:
        return _stdout(line, ts)
    return _entries(event, line, ts, None)


class OpenCodeStdoutParser:
    """The stateful OpenCode parser, which adds two things to :func:`parse_stdout_line`.

    A tool part can arrive more than once as its state moves from pending or
    running to completed; this parser shows the call once and the result when
    it comes. Its tool results also carry ``toolName``.
    """

    __slots__ = ("_shown",)

    def __init__(self) -> None:
        self._shown: dict[str, str] = {}  # call id -> tool name, for calls already shown

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        event = parse_json_object(line)
        if event is None:
            return _stdout(line, ts)
        return _entries(event, line, ts, self._shown)

    def reset(self) -> None:
        self._shown.clear()


def create_stdout_parser() -> OpenCodeStdoutParser:
    """A fresh stateful OpenCode parser for one transcript."""
    return OpenCodeStdoutParser()
