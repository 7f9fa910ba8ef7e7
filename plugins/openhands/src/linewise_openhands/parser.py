"""OpenHands `--headless --json` events (one SDK event per line) to TranscriptEntries."""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.entries import InitEntry, TranscriptEntry
from linewise_contracts.extract import (
    BoundedMap,
    as_list,
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

from linewise_openhands import CONVERSATION_RECORD

__all__ = [
    "CONVERSATION_RECORD",
    "OpenHandsParser",
    "create_stdout_parser",
    "parse_stdout_line",
    "thinking_text",
]

_SYSTEM_TEXT_LIMIT: Final = 2000
_REMEMBERED: Final = 4096


def _system(ts: str, text: str) -> TranscriptEntry:
    return {"kind": "system", "ts": ts, "text": truncate(text, _SYSTEM_TEXT_LIMIT)}


def thinking_text(event: dict[str, Any]) -> str:
    """An event's reasoning: its ``thinking_blocks`` (Anthropic's), else ``reasoning_content``.

    Both say the same when both are there; the blocks are whole, the content
    may be a provider's summary.
    """
    blocks = [
        as_string(as_object(block).get("thinking"))
        for block in as_list(event.get("thinking_blocks"))
        if as_object(block).get("type") == "thinking"
    ]
    joined = "\n\n".join(text for text in blocks if text.strip())
    return joined or as_string(event.get("reasoning_content"))


def _arguments(call: dict[str, Any], action: dict[str, Any]) -> Any:
    raw = call.get("arguments")
    if type(raw) is str:
        decoded = parse_json_object(raw)
        if decoded is not None:
            return decoded
    if action:
        return json_or_placeholder({key: value for key, value in action.items() if key != "kind"})
    return {} if raw is None else json_or_placeholder(raw)


class OpenHandsParser:
    """The stateful OpenHands parser: observations name the action they answer."""

    __slots__ = ("_names",)

    def __init__(self) -> None:
        self._names: BoundedMap[str, str] = BoundedMap(_REMEMBERED)  # tool_call_id -> tool name

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        event = parse_json_object(line)
        if event is None:
            return stdout_entries(line, ts)
        kind = event.get("kind")
        if type(kind) is not str:
            return stdout_entries(line, ts)
        ts = iso_timestamp(event.get("timestamp")) or ts
        if kind == "MessageEvent":
            return _message(event, ts)
        if kind == CONVERSATION_RECORD:
            return [_conversation(event, ts)]
        if kind == "ActionEvent":
            return self._action(event, ts)
        if kind == "ObservationEvent":
            observation = as_object(event.get("observation"))
            text = content_text(observation.get("content"))
            if not text and observation:
                text = to_json_text(
                    {k: v for k, v in observation.items() if k != "kind"}, pretty=True
                )
            return [self._result(event, text, observation.get("is_error") is True, ts)]
        if kind in ("AgentErrorEvent", "UserRejectObservation"):
            reason = as_string(event.get("error")) or as_string(event.get("rejection_reason"))
            text = reason or (
                "rejected by the user" if kind == "UserRejectObservation" else "error"
            )
            if as_string(event.get("tool_call_id")):
                return [self._result(event, text, True, ts)]
            return [{"kind": "stderr", "ts": ts, "text": text}]
        if kind == "SystemPromptEvent":
            prompt = content_text(as_object(event.get("system_prompt")).get("text")) or as_string(
                as_object(event.get("system_prompt")).get("text")
            )
            tools = as_list(event.get("tools"))
            return [_system(ts, f"system prompt ({len(prompt)} characters, {len(tools)} tools)")]
        if kind == "ConversationStateUpdateEvent":
            return _state(event, ts)
        if kind == "PauseEvent":
            return [_system(ts, "conversation paused")]
        if kind in ("Condensation", "CondensationEvent", "CondensationRequest"):
            return [
                _system(
                    ts,
                    "context condensed"
                    if kind != "CondensationRequest"
                    else "context condensation requested",
                )
            ]
        return [_system(ts, f"{kind}: {truncate(to_json_text(event), 300)}")]

    def _action(self, event: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        entries: list[TranscriptEntry] = []
        thinking = thinking_text(event)
        if thinking.strip():
            entries.append({"kind": "thinking", "ts": ts, "text": thinking})
        thought = content_text(event.get("thought"))
        if thought.strip():
            entries.append({"kind": "assistant", "ts": ts, "text": thought})
        call = as_object(event.get("tool_call"))
        action = as_object(event.get("action"))
        ident = as_string(event.get("tool_call_id")) or as_string(call.get("id"))
        name = as_string(event.get("tool_name")) or as_string(call.get("name")) or "tool"
        if action.get("kind") == "FinishAction":
            message = as_string(action.get("message"))
            if message.strip():
                entries.append({"kind": "assistant", "ts": ts, "text": message})
        self._names[ident] = name
        entries.append(
            {
                "kind": "tool_call",
                "ts": ts,
                "name": name,
                "input": _arguments(call, action),
                "toolUseId": ident,
            }
        )
        return entries

    def _result(self, event: dict[str, Any], text: str, failed: bool, ts: str) -> TranscriptEntry:
        ident = as_string(event.get("tool_call_id"))
        name = as_string(event.get("tool_name")) or self._names.get(ident) or "tool"
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


def _message(event: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    message = as_object(event.get("llm_message"))
    text = content_text(message.get("content"))
    source = as_string(event.get("source"))
    entries: list[TranscriptEntry] = []
    thinking = thinking_text(message) or thinking_text(event)
    if source == "agent" and thinking.strip():
        entries.append({"kind": "thinking", "ts": ts, "text": thinking})
    if text.strip():
        if source == "user":
            entries.append({"kind": "user", "ts": ts, "text": text})
        elif source == "agent":
            entries.append({"kind": "assistant", "ts": ts, "text": text})
        else:
            entries.append(_system(ts, f"{source or 'message'}: {text}"))
    return entries


def _conversation(record: dict[str, Any], ts: str) -> TranscriptEntry:
    state = as_object(record.get("state"))
    agent = as_object(state.get("agent"))
    model = as_string(as_object(agent.get("llm")).get("model")) or "unknown"
    entry: InitEntry = {
        "kind": "init",
        "ts": ts,
        "model": model,
        "sessionId": as_string(record.get("id")) or as_string(state.get("id")),
    }
    cwd = as_string(as_object(state.get("workspace")).get("working_dir"))
    if cwd:
        entry["cwd"] = cwd
    return entry


def _state(event: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    key = as_string(event.get("key"))
    value = event.get("value")
    if key == "execution_status":
        return [_system(ts, f"status: {as_string(value) or to_json_text(value)}")]
    if key in ("stats", "full_state"):
        return []  # usage totals: the summary reads them
    shown = value if type(value) is str else to_json_text(value)
    return [_system(ts, f"state {key or '?'}: {truncate(shown, 300)}")]


def parse_stdout_line(line: str, ts: str) -> list[TranscriptEntry]:
    """One OpenHands event line to entries, as a fresh :class:`OpenHandsParser` sees it."""
    return OpenHandsParser().parse_line(line, ts)


def create_stdout_parser() -> OpenHandsParser:
    """A fresh stateful OpenHands parser for one transcript."""
    return OpenHandsParser()
