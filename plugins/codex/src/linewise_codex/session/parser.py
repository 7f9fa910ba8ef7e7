"""Codex rollout records (``~/.codex/sessions/**/rollout-*.jsonl``) to TranscriptEntries."""

from __future__ import annotations

from typing import Any, Final, TypeVar

from linewise_contracts.entries import InitEntry, ToolResultEntry, TranscriptEntry
from linewise_contracts.extract import (
    BoundedMap,
    as_object,
    as_string,
    iso_timestamp,
    parse_json_object,
    stdout_entries,
    to_json_text,
)

from linewise_codex.session.event_msgs import (
    DUPLICATES,
    TOOL_BEGINS,
    TOOL_ENDS,
    event_entries,
    tool_end_entries,
    turn_result,
    usage_delta,
)
from linewise_codex.session.items import BARE_ITEMS, item_entries

__all__ = ["CodexSessionParser", "create_stdout_parser"]

_V = TypeVar("_V")
_REMEMBERED: Final = 4096
# Records read while waiting for the model (the first turn_context) before init goes out.
_HELD: Final = 64
# ... and at most this many characters of them: the host bounds what one line may give.
_HELD_CHARS: Final = 256 * 1024
#: Record types with nothing to show, dropped deliberately (see the package docstring).
_STATE: Final = "record_type"
DROPPED_RECORDS: Final = frozenset({"world_state", "inter_agent_communication_metadata", _STATE})
_CWD_OPEN: Final = "<cwd>"
_CWD_CLOSE: Final = "</cwd>"
_UNANSWERED: Final = "(no result recorded: the session file ends before this call returned)"
_TURN_ENDS: Final = ("task_complete", "turn_complete", "turn_aborted")


def _envelope(record: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The record's type and payload; 2025 rollouts wrote both bare (see the package docstring)."""
    kind = as_string(record.get("type"))
    if "payload" in record:
        return kind, as_object(record.get("payload"))
    if "record_type" in record:
        return _STATE, {}
    if not kind and "id" in record and "timestamp" in record:
        return "session_meta", record
    if kind in BARE_ITEMS:
        return "response_item", record
    return kind, {}


def _remember(items: dict[str, _V], key: str, value: _V) -> None:
    items[key] = value
    if len(items) > _REMEMBERED:
        del items[next(iter(items))]


class CodexSessionParser:
    """Reads one rollout in order.

    ``init`` waits for the model (the first ``turn_context``, a few records
    in), holding what comes before; tool calls are remembered by ``call_id``
    so results carry ``toolName`` and a tool's end event does not repeat a
    result its output item gave; ``token_count`` totals become the tokens of
    each turn's ``result``.
    """

    __slots__ = (
        "_held",
        "_held_chars",
        "_init",
        "_last_ts",
        "_model",
        "_names",
        "_open",
        "_reasoning",
        "_reported",
        "_shown_reasoning",
        "_total",
    )

    def __init__(self) -> None:
        self._init: InitEntry | None = None  # waiting to go out while _held is not None
        self._held: list[TranscriptEntry] | None = None
        self._held_chars = 0  # length of the lines whose entries are held
        self._model = ""
        self._names: BoundedMap[str, str] = BoundedMap(_REMEMBERED)  # call id -> tool name
        self._open: dict[str, str] = {}  # calls without a result yet, oldest first
        self._total: dict[str, Any] = {}
        self._reported: dict[str, Any] = {}
        self._last_ts: str | None = None
        # agent_reasoning texts since the last reasoning item: a turn aborted before its
        # item was written has them alone (they are shown then, else the item is).
        self._reasoning: list[TranscriptEntry] = []
        self._shown_reasoning: list[str] = []  # this turn's reasoning items' texts

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        if self._held is not None or self._init is None:
            self._held_chars += len(line)
        record = parse_json_object(line)
        if record is None:
            return self._out(stdout_entries(line, self._last_ts or ts))
        own = iso_timestamp(record.get("timestamp"))
        if own is not None:
            self._last_ts = own
        ts = own or self._last_ts or ts
        kind, payload = _envelope(record)
        if self._init is None and kind != "session_meta":
            self._meta({}, ts)  # a rollout without its first record: init waits all the same
        if kind == "session_meta":
            return self._meta(payload, ts)
        if kind == "turn_context":
            return self._turn_context(payload, ts)
        if kind == "response_item":
            entries = item_entries(payload, ts)
            if payload.get("type") == "reasoning":
                self._reasoned(entries)
            self._context_cwd(entries)
        elif kind == "event_msg":
            entries = self._event(payload, ts)
        elif kind == "compacted":
            summary = as_string(payload.get("message")).strip()
            text = f"context compacted: {summary}" if summary else "context compacted"
            entries = [{"kind": "system", "ts": ts, "text": text}]
        elif kind in DROPPED_RECORDS:
            entries = []
        else:
            text = f"codex {kind or 'record'}: {to_json_text(payload or record)}"
            entries = [{"kind": "system", "ts": ts, "text": text}]
        return self._out(self._paired(entries))

    # -- init --------------------------------------------------------------------------

    def _context_cwd(self, entries: list[TranscriptEntry]) -> None:
        """Rollouts of 2025 name no cwd but in the context sent as the user's first message."""
        if self._init is None or "cwd" in self._init or self._held is None:
            return
        for entry in entries:
            text = entry.get("text")
            if entry["kind"] == "system" and type(text) is str:
                start, end = text.find(_CWD_OPEN), text.find(_CWD_CLOSE)
                if 0 <= start < end:
                    self._init["cwd"] = text[start + len(_CWD_OPEN) : end].strip()
                    return

    def _meta(self, meta: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        ident = as_string(meta.get("id")) or as_string(meta.get("session_id"))
        if self._init is None:
            self._init = {"kind": "init", "ts": ts, "model": "", "sessionId": ident}
            cwd = as_string(meta.get("cwd"))
            if cwd:
                self._init["cwd"] = cwd
            self._model = as_string(meta.get("model"))
            if self._model:
                self._init["model"] = self._model
                return [self._init]
            self._held = []
            return []
        if ident and ident != self._init["sessionId"]:
            # A resumed or forked session's file starts with its ancestors' meta records.
            return self._out([{"kind": "system", "ts": ts, "text": f"session {ident}"}])
        return []

    def _turn_context(self, context: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        model = as_string(context.get("model"))
        if not model or model == self._model:
            return self._out([])
        self._model = model
        if self._init is not None and self._held is not None:
            self._init["model"] = model
            return self._release()
        return self._out([{"kind": "system", "ts": ts, "text": f"model: {model}"}])

    def _out(self, entries: list[TranscriptEntry]) -> list[TranscriptEntry]:
        """Entries now, or held until init has its model (at most :data:`_HELD` of them)."""
        if self._held is None:
            return entries
        self._held.extend(entries)
        full = len(self._held) >= _HELD or self._held_chars >= _HELD_CHARS
        return self._release() if full else []

    def _release(self) -> list[TranscriptEntry]:
        held, self._held = self._held or [], None
        return [self._init, *held] if self._init is not None else held

    # -- events and pairing --------------------------------------------------------------

    def _reasoned(self, entries: list[TranscriptEntry]) -> None:
        """Reasoning items shown: the agent_reasoning events repeating them are not kept.

        An item's text is its summaries joined; an event holds one summary (either may
        come first), so an event is shown by an item whose text holds it.
        """
        self._shown_reasoning.extend(str(entry.get("text", "")) for entry in entries)
        del self._shown_reasoning[:-_HELD]
        self._reasoning = [
            entry
            for entry in self._reasoning
            if not any(str(entry.get("text")) in shown for shown in self._shown_reasoning)
        ]

    def _event(self, msg: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        kind = as_string(msg.get("type"))
        if kind == "agent_reasoning":
            text = as_string(msg.get("text"))
            if text and len(self._reasoning) < _HELD:
                self._reasoning.append({"kind": "thinking", "ts": ts, "text": text})
                self._reasoned([])
        if kind in DUPLICATES:
            return []
        if kind == "token_count":
            total = as_object(as_object(msg.get("info")).get("total_token_usage"))
            self._total = total or self._total
            return []
        if kind in _TURN_ENDS:
            usage = usage_delta(self._total, self._reported)
            self._reported = self._total
            # Reasoning of a turn aborted before its item was written: only the event has it.
            kept = self._reasoning if kind == "turn_aborted" else []
            self._reasoning = []
            self._shown_reasoning = []
            return [*kept, turn_result(msg, ts, usage, self._session(), self._total)]
        call_id = as_string(msg.get("call_id"))
        if kind in TOOL_BEGINS and call_id in self._names:
            return []  # the call item came first
        if kind in TOOL_ENDS:
            if call_id and call_id in self._names and call_id not in self._open:
                return []  # the output item already answered it
            return tool_end_entries(msg, kind, ts, called=call_id in self._open)
        return event_entries(msg, kind, ts)

    def _session(self) -> str:
        """The rollout's session id (its first ``session_meta``), "" when it has none."""
        return self._init["sessionId"] if self._init is not None else ""

    def _paired(self, entries: list[TranscriptEntry]) -> list[TranscriptEntry]:
        kept: list[TranscriptEntry] = []
        for entry in entries:
            if entry["kind"] == "tool_call" and "toolUseId" in entry:
                self._names[entry["toolUseId"]] = entry["name"]
                _remember(self._open, entry["toolUseId"], entry["name"])
            elif entry["kind"] == "tool_result":
                ident = entry["toolUseId"]
                if ident in self._names and ident not in self._open:
                    continue  # answered already (by the tool's end event)
                self._open.pop(ident, None)
                name = self._names.get(ident)
                if name is not None:
                    entry["toolName"] = name
            kept.append(entry)
        return kept

    def finish(self, ts: str) -> list[TranscriptEntry]:
        """Init if still held, results for calls never answered, tokens not yet reported."""
        ts = self._last_ts or ts
        entries = self._release() if self._held is not None else []
        for ident, name in self._open.items():
            result: ToolResultEntry = {
                "kind": "tool_result",
                "ts": ts,
                "toolUseId": ident,
                "toolName": name,
                "content": _UNANSWERED,
                "isError": False,
            }
            entries.append(result)
        self._open.clear()
        usage = usage_delta(self._total, self._reported)
        if any(usage.values()):
            self._reported = self._total
            entries.append(
                turn_result({"type": "token_count"}, ts, usage, self._session(), self._total)
            )
        return entries

    def reset(self) -> None:
        self._init = None
        self._held = None
        self._held_chars = 0
        self._model = ""
        self._names.clear()
        self._open.clear()
        self._total = {}
        self._reported = {}
        self._last_ts = None
        self._reasoning = []
        self._shown_reasoning = []


def create_stdout_parser() -> CodexSessionParser:
    """A fresh parser for one Codex rollout."""
    return CodexSessionParser()
