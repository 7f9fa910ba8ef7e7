"""Claude Code session records (``~/.claude/projects/*/*.jsonl``) to TranscriptEntries."""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.entries import InitEntry, ToolResultEntry, TranscriptEntry
from linewise_contracts.extract import (
    BoundedMap,
    as_object,
    as_string,
    iso_timestamp,
    parse_json_object,
    stdout_entries,
    with_parent,
)

# The message content of a session record has stream-json's shapes: its readers are shared.
from linewise_claude.parser import _assistant_entries, _user_entries
from linewise_claude.session.commands import record_text, slash_command
from linewise_claude.session.records import HEADER, SUBAGENT, assistant_model
from linewise_claude.session.side import attachment_entries, record_entries, system_entries
from linewise_claude.session.threads import REMEMBERED, Threads, remember

__all__ = ["ClaudeSessionParser", "create_stdout_parser"]

_NOTHING: Final[frozenset[str]] = frozenset()
_HELD: Final = 64
# ... and at most this many characters of them: the host bounds what one line may give.
_HELD_CHARS: Final = 256 * 1024
_UNANSWERED: Final = "(no result recorded: the session file ends before this call returned)"
# User records the harness wrote (a caveat, a compaction summary, a command's output).
_HARNESS_FLAGS: Final = ("isMeta", "isCompactSummary", "isVisibleInTranscriptOnly")


def _as_error(entry: TranscriptEntry) -> TranscriptEntry:
    """An API error the CLI wrote as an assistant message: stderr, so views show it as one."""
    if entry["kind"] != "assistant":
        return entry
    return {"kind": "stderr", "ts": entry["ts"], "text": entry["text"]}


class ClaudeSessionParser:
    """Reads one session's records in order (as :func:`session_records` gives them).

    Remembers tool names by id (results carry ``toolName``), the Task/Agent
    calls each subagent answers to, the session's last record time (records
    without one, such as ``summary``, take it) and whether ``init`` was given.
    Without the header line, ``init`` waits for the first assistant record's
    model, holding the entries before it (at most :data:`_HELD` records').
    """

    __slots__ = (
        "_dated",
        "_held",
        "_held_chars",
        "_init",
        "_last_ts",
        "_models",
        "_names",
        "_open",
        "_pending",
        "_relays",
        "_subagent",
        "_threads",
    )

    def __init__(self) -> None:
        self._names: BoundedMap[str, str] = BoundedMap(REMEMBERED)
        # calls still waiting for their result: id -> (tool name, subagent's parent call)
        # (a dict keeps them in order; bounded by _remember)
        self._open: dict[str, tuple[str, str | None]] = {}
        self._threads = Threads()
        self._subagent: str | None = None
        self._last_ts: str | None = None
        self._init = False
        self._pending: InitEntry | None = None  # init waiting for a model, with _held
        self._held: list[TranscriptEntry] | None = None
        self._dated = False  # whether the held init has a record's time
        self._held_chars = 0  # length of the lines whose entries are held
        self._relays: BoundedMap[str, bool] = BoundedMap(REMEMBERED)  # uuids relayed
        # the subagents (by their call) whose own model was named
        self._models: BoundedMap[str, bool] = BoundedMap(REMEMBERED)

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        if self._held is not None or not self._init:
            self._held_chars += len(line)
        record = parse_json_object(line)
        if record is None:
            return self._out({}, stdout_entries(line, self._last_ts or ts))
        kind = as_string(record.get("type"))
        own = iso_timestamp(record.get("timestamp"))
        if own is not None:
            self._last_ts = own
        ts = own or self._last_ts or ts
        if kind == HEADER:
            return self._header(record, ts)
        if kind == SUBAGENT:
            return self._subagent_start(record, ts)
        entries: list[TranscriptEntry] = [] if self._init else self._first(record, ts)
        data = record.get("data")
        if kind == "progress" and type(data) is dict and data.get("type") == "agent_progress":
            entries.extend(self._relayed(record, data, ts))
        elif not self._shown(record):
            parent = self._threads.parent(record, self._subagent)
            if parent is not None:
                entries.extend(self._subagent_model(record, parent, ts))
            entries.extend(self._tracked(self._body(record, kind, ts), parent))
        return self._out(record, entries)

    def _subagent_model(
        self, record: dict[str, Any], parent: str, ts: str
    ) -> list[TranscriptEntry]:
        """The subagent's own model, named once, at its first assistant record."""
        model = assistant_model(record)
        if not model or parent in self._models:
            return []
        self._models[parent] = True
        return with_parent(
            [{"kind": "system", "ts": ts, "text": f"subagent model {model}"}], parent
        )

    def _shown(self, record: dict[str, Any]) -> bool:
        """Whether the record (from a subagent's file) was relayed already."""
        uuid = record.get("uuid")
        return type(uuid) is str and uuid in self._relays

    def _relayed(
        self, record: dict[str, Any], data: dict[str, Any], ts: str
    ) -> list[TranscriptEntry]:
        """A subagent's message relayed into the main file (``agent_progress``, 2.0 and later).

        It nests under ``parentToolUseID``; the same message in the subagent's own
        file (same ``uuid``) is then not shown twice.
        """
        parent = as_string(record.get("parentToolUseID")) or None
        agent = data.get("agentId")
        if parent and type(agent) is str and agent:
            self._threads.agents[agent] = parent
        inner = as_object(data.get("message"))
        kind = inner.get("type")
        uuid = inner.get("uuid")
        if kind not in ("user", "assistant") or (type(uuid) is str and uuid in self._relays):
            return []  # a progress marker without a message, or one shown already
        if type(uuid) is str:
            self._relays[uuid] = True
        own = iso_timestamp(inner.get("timestamp")) or ts
        return self._tracked(self._body(inner, as_string(kind), own), parent)

    def _tracked(self, body: list[TranscriptEntry], parent: str | None) -> list[TranscriptEntry]:
        """``body`` nested under ``parent``, its calls remembered until their results come."""
        for entry in with_parent(body, parent):
            if entry["kind"] == "tool_call" and "toolUseId" in entry:
                remember(self._open, entry["toolUseId"], (entry["name"], parent))
            elif entry["kind"] == "tool_result":
                self._open.pop(entry["toolUseId"], None)
        return body

    def _first(self, record: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        """Init from the first record; held back while its model is unknown."""
        init = self._init_entry(record, ts)
        if init["model"]:
            return [init]
        self._pending, self._held = init, []
        self._dated = iso_timestamp(record.get("timestamp")) is not None
        return []

    def _out(self, record: dict[str, Any], entries: list[TranscriptEntry]) -> list[TranscriptEntry]:
        if self._held is None:
            return entries
        self._held.extend(entries)
        if self._pending is not None:
            self._complete(self._pending, record)
        full = len(self._held) >= _HELD or self._held_chars >= _HELD_CHARS
        return self._release() if assistant_model(record) or full else []

    def _complete(self, init: InitEntry, record: dict[str, Any]) -> None:
        """Facts the first record lacked (a file-history-snapshot has no id, cwd or time)."""
        model = assistant_model(record)
        if model:
            init["model"] = model
        ident, cwd = record.get("sessionId"), record.get("cwd")
        if not init["sessionId"] and type(ident) is str:
            init["sessionId"] = ident
        if "cwd" not in init and type(cwd) is str and cwd:
            init["cwd"] = cwd
        own = iso_timestamp(record.get("timestamp"))
        if not self._dated and own is not None:
            # Nothing before had a time of its own (a summary, a snapshot): it takes this one.
            self._dated = True
            init["ts"] = own
            for entry in self._held or ():
                entry["ts"] = own

    def _release(self) -> list[TranscriptEntry]:
        held, pending = self._held or [], self._pending
        self._held = self._pending = None
        return [pending, *held] if pending is not None else held

    def finish(self, ts: str) -> list[TranscriptEntry]:
        """Init if still held, and a result for each call the file ends without answering."""
        entries = self._release()
        for ident, (name, parent) in self._open.items():
            result: ToolResultEntry = {
                "kind": "tool_result",
                "ts": self._last_ts or ts,
                "toolUseId": ident,
                "toolName": name,
                "content": _UNANSWERED,
                "isError": False,
            }
            entries.extend(with_parent([result], parent))
        self._open.clear()
        return entries

    def _header(self, record: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        if self._init:
            return []
        entries: list[TranscriptEntry] = [self._init_entry(record, ts)]
        if record.get("parentMissing") is True:
            parent = as_string(record.get("parentSessionId")) or "unknown"
            text = f"subagent of session {parent}, whose session file is missing"
            entries.append({"kind": "system", "ts": ts, "text": text})
        return entries

    def _init_entry(self, record: dict[str, Any], ts: str) -> InitEntry:
        self._init = True
        init: InitEntry = {
            "kind": "init",
            "ts": ts,
            "model": as_string(record.get("model")) or assistant_model(record),
            "sessionId": as_string(record.get("sessionId")),
        }
        cwd = as_string(record.get("cwd"))
        if cwd:
            init["cwd"] = cwd
        return init

    def _subagent_start(self, record: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        agent = as_string(record.get("agentId"))
        parent = as_string(record.get("toolUseId")) or self._threads.agents.get(agent)
        self._subagent = parent or None
        if parent and agent:
            self._threads.agents[agent] = parent  # its records nest under it, wherever listed
        what = as_string(record.get("agentType")) or "subagent"
        description = as_string(record.get("description"))
        text = f"subagent {agent} ({what})" + (f": {description}" if description else "")
        entries: list[TranscriptEntry] = [] if self._init else [self._init_entry(record, ts)]
        entries.extend(with_parent([{"kind": "system", "ts": ts, "text": text}], self._subagent))
        return self._out(record, entries)

    def _body(self, record: dict[str, Any], kind: str, ts: str) -> list[TranscriptEntry]:
        if kind == "assistant":
            self._threads.delegated(record)
            entries = _assistant_entries(record, ts, _NOTHING, self._names)
            if record.get("isApiErrorMessage") is True:
                return [_as_error(entry) for entry in entries]
            return entries
        if kind == "user":
            self._threads.answered(record)
            command = slash_command(record_text(record))
            if command is not None:
                return [{"kind": "system", "ts": ts, "text": f"slash command {command}"}]
            return _user_entries(self._as_stream_json(record), ts, self._names)
        if kind == "system":
            return system_entries(record, ts)
        if kind == "attachment":
            return attachment_entries(record, ts)
        return record_entries(record, kind or "record", ts)

    @staticmethod
    def _as_stream_json(record: dict[str, Any]) -> dict[str, Any]:
        """The user record with stream-json's names for what the session file calls otherwise."""
        view = dict(record)
        if "toolUseResult" in record:
            view["tool_use_result"] = record["toolUseResult"]
        if any(record.get(flag) is True for flag in _HARNESS_FLAGS):
            view["isSynthetic"] = True
        return view

    def reset(self) -> None:
        self._names.clear()
        self._open.clear()
        self._relays.clear()
        self._models.clear()
        self._threads = Threads()
        self._subagent = None
        self._last_ts = None
        self._init = False
        self._pending = self._held = None
        self._held_chars = 0
        self._dated = False


def create_stdout_parser() -> ClaudeSessionParser:
    """A fresh parser for one Claude Code session."""
    return ClaudeSessionParser()
