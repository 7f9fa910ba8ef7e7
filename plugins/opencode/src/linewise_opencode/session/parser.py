"""OpenCode's stored sessions (adapter type ``opencode_session``): record lines to entries.

The parser reads the lines :func:`linewise_opencode.session.store.session_records`
yields from the SQLite database or a session export (see that module):

- the session line: ``init`` (session id, the model's id or "", ``cwd`` = the
  session's directory);
- a subagent line: ``system`` "subagent session ..." under the ``task`` call
  that started it; that session's messages nest under the same call
  (``parentToolUseId``);
- a message ``{info, parts}``: a user message's ``text`` parts as ``user``
  (``synthetic`` ones, which OpenCode adds itself, as ``system``), ``file``
  parts as ``system``; an assistant message's ``reasoning`` parts as
  ``thinking``, ``text`` as ``assistant``, ``tool`` parts as ``tool_call`` and
  ``tool_result`` (status and one-line metadata, then the output, with
  ``toolName``; edits also as ``diff``; a tool still pending or running when
  the session was saved gets an error result saying so), ``step-finish`` as a
  ``result`` (tokens, cost, finish reason), ``patch`` as ``system`` (the files
  changed), ``retry`` as ``stderr``, ``agent`` / ``subtask`` / ``compaction``
  as ``system``; the message's ``error`` as ``stderr``.

Dropped deliberately, as carrying nothing to show: ``step-start`` and
``snapshot`` parts (a snapshot hash). A part of another type comes out raw
(``stdout``), as does a line that is not a record. Entries carry the
records' own times (the part's ``time``, else the message's).
"""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.entries import InitEntry, ToolCallEntry, ToolResultEntry, TranscriptEntry
from linewise_contracts.extract import (
    BoundedMap,
    as_list,
    as_object,
    as_string,
    dig,
    iso_timestamp,
    json_or_placeholder,
    parse_json_object,
    stdout_entries,
    to_json_text,
    with_parent,
)

from linewise_opencode.parser import _result_content, _step_finish, diff_entries, error_text

__all__ = [
    "OpenCodeSessionParser",
    "create_stdout_parser",
    "record_model",
]


_FINISHED: Final = ("completed", "error")
_DROPPED_PARTS: Final = frozenset({"step-start", "snapshot"})
_Parents = BoundedMap[str, str]


def _model_id(value: object) -> str:
    if type(value) is str:
        return value
    return as_string(dig(value, "id")) or as_string(dig(value, "modelID"))


def _init(session: dict[str, Any], ts: str) -> TranscriptEntry:
    entry: InitEntry = {
        "kind": "init",
        "ts": iso_timestamp(dig(session, "time", "created")) or ts,
        "model": _model_id(session.get("model")),
        "sessionId": as_string(session.get("id")),
    }
    directory = as_string(session.get("directory"))
    if directory:
        entry["cwd"] = directory
    return entry


def _tool(part: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    name = as_string(part.get("tool"), "tool")
    state = as_object(part.get("state"))
    ident = as_string(part.get("callID")) or as_string(part.get("id")) or name
    status = as_string(state.get("status"), "pending")
    call: ToolCallEntry = {
        "kind": "tool_call",
        "ts": iso_timestamp(dig(state, "time", "start")) or ts,
        "name": name,
        "input": json_or_placeholder(state.get("input", {})),
        "toolUseId": ident,
    }
    end = iso_timestamp(dig(state, "time", "end")) or ts
    if status in _FINISHED:
        content = _result_content(part, state, status)
    else:
        content = (
            f"status: {status}\n\n(no result: the tool was {status} when the session was saved)"
        )
    result: ToolResultEntry = {
        "kind": "tool_result",
        "ts": end,
        "toolUseId": ident,
        "toolName": name,
        "content": content,
        "isError": status != "completed",
    }
    entries: list[TranscriptEntry] = [call, result]
    diff = as_object(state.get("metadata")).get("diff")
    if status == "completed" and type(diff) is str and diff.strip():
        entries.extend(diff_entries(diff, end))
    return entries


def _text(kind: str, text: str, ts: str) -> list[TranscriptEntry]:
    text = text.strip()
    if not text:
        return []
    if kind == "user":
        return [{"kind": "user", "ts": ts, "text": text}]
    if kind == "thinking":
        return [{"kind": "thinking", "ts": ts, "text": text}]
    if kind == "assistant":
        return [{"kind": "assistant", "ts": ts, "text": text}]
    return [{"kind": "system", "ts": ts, "text": text}]


def _part(part: dict[str, Any], role: str, ts: str, model: str = "") -> list[TranscriptEntry]:
    kind = as_string(part.get("type"))
    ts = iso_timestamp(dig(part, "time", "start")) or ts
    if kind in _DROPPED_PARTS:
        return []
    if kind == "text":
        synthetic = part.get("synthetic") is True
        who = "system" if synthetic else ("user" if role == "user" else "assistant")
        return _text(who, as_string(part.get("text")), ts)
    if kind == "reasoning":
        return _text("thinking", as_string(part.get("text")), ts)
    if kind == "tool":
        return _tool(part, ts)
    if kind == "step-finish":
        # A stored step is no turn count the summary gives: no ``turns``.
        return [_step_finish({"part": part}, ts, model=model)]
    if kind == "patch":
        files = [name for name in as_list(part.get("files")) if type(name) is str]
        return _text("system", "files changed: " + ", ".join(files) if files else "", ts)
    if kind == "file":
        name = as_string(part.get("filename")) or as_string(part.get("url"), "file")
        return _text("system", f"attached file: {name}", ts)
    if kind == "retry":
        attempt = part.get("attempt")
        problem = error_text(part.get("error")) or "error"
        return [{"kind": "stderr", "ts": ts, "text": f"retry {attempt}: {problem}"}]
    if kind in ("agent", "subtask", "compaction"):
        detail = as_string(part.get("name")) or as_string(part.get("description"))
        return _text("system", f"{kind}: {detail}" if detail else kind, ts)
    return stdout_entries(to_json_text(part), ts)


def record_model(record: dict[str, Any]) -> str:
    """The model a session line or an assistant message names."""
    model = dig(record, "session", "model")
    if type(model) is dict:
        model = model.get("id")
    info = as_object(record.get("info"))
    return (
        as_string(model)
        or as_string(info.get("modelID"))
        or as_string(dig(info, "model", "modelID"))
    )


def _message(record: dict[str, Any], ts: str, model: str = "") -> list[TranscriptEntry]:
    """A stored message's entries; its steps' tokens belong to ``model`` (the message's own,
    else the session's)."""
    info = as_object(record.get("info"))
    role = as_string(info.get("role"))
    ts = iso_timestamp(dig(info, "time", "created")) or ts
    entries: list[TranscriptEntry] = []
    for part in as_list(record.get("parts")):
        if type(part) is dict:
            entries.extend(_part(part, role, ts, model))
    error = info.get("error")
    if error is not None:
        done = iso_timestamp(dig(info, "time", "completed")) or ts
        entries.append({"kind": "stderr", "ts": done, "text": error_text(error) or "error"})
    return entries


class OpenCodeSessionParser:
    """Reads one stored OpenCode session; remembers which sessions are subagents of which call,
    and the session's model (its ``init``'s, else the first record naming one)."""

    __slots__ = ("_init_model", "_named_model", "_parents")

    def __init__(self) -> None:
        self._parents: _Parents = BoundedMap(256)  # subagent session id -> task call id
        self._init_model = ""
        self._named_model = ""

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        record = parse_json_object(line)
        if record is None:
            return stdout_entries(line, ts)
        if not (self._init_model or self._named_model):
            self._named_model = record_model(record)
        kind = record.get("type")
        session = record.get("session")
        if kind == "session" and type(session) is dict:
            init = _init(session, ts)
            if init["kind"] == "init" and init["model"]:
                self._init_model = init["model"]
            return [init]
        if kind == "subagent" and type(session) is dict:
            child = as_string(session.get("id"))
            parent = as_string(record.get("parentToolUseId"))
            if child and parent:
                self._parents[child] = parent
            when = iso_timestamp(dig(session, "time", "created")) or ts
            title = as_string(session.get("title"))
            text = f"subagent session {child}" + (f": {title}" if title else "")
            return with_parent([{"kind": "system", "ts": when, "text": text}], parent)
        if type(record.get("info")) is dict and type(record.get("parts")) is list:
            model = record_model(record) or self._init_model or self._named_model
            entries = _message(record, ts, model)
            owner = as_string(dig(record, "info", "sessionID"))
            return with_parent(entries, self._parents.get(owner))
        return stdout_entries(line, ts)

    def reset(self) -> None:
        self._parents.clear()
        self._init_model = self._named_model = ""


def create_stdout_parser() -> OpenCodeSessionParser:
    """A parser for one stored OpenCode session."""
    return OpenCodeSessionParser()
