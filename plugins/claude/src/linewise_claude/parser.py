"""Claude Code ``--output-format stream-json`` lines to TranscriptEntries."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Final

from linewise_contracts.acpx import parse_acpx_event
from linewise_contracts.entries import ToolCallEntry, ToolResultEntry, TranscriptEntry
from linewise_contracts.extract import (
    as_int,
    as_list,
    as_number,
    as_object,
    as_string,
    content_text,
    dig,
    json_or_placeholder,
    parse_json_object,
    to_json_text,
    truncate,
)

__all__ = ["ClaudeStdoutParser", "create_stdout_parser", "parse_stdout_line"]

# Long hook outputs (whole context files) are shortened in system entries.
_SYSTEM_TEXT_LIMIT: Final = 2000
# Tool names remembered for pairing results, and streamed message ids for
# de-duplication: bounded so a very long run cannot grow them without limit.
_REMEMBERED: Final = 4096

_NOTHING: Final[frozenset[str]] = frozenset()
# A tuple, not a set: a block's "type" may be any JSON value, even an unhashable one.
_TOOL_USE_BLOCKS: Final = ("tool_use", "server_tool_use", "mcp_tool_use")
_OMITTED_THINKING: Final = "(thinking omitted: the API returned only its signature)"
_REDACTED_THINKING: Final = "(redacted thinking)"


def _stdout(line: str, ts: str) -> list[TranscriptEntry]:
    return [{"kind": "stdout", "ts": ts, "text": line}]


def _system(ts: str, text: str) -> TranscriptEntry:
    return {"kind": "system", "ts": ts, "text": truncate(text, _SYSTEM_TEXT_LIMIT)}


def _error_text(value: object) -> str:
    if type(value) is str:
        return value
    message = dig(value, "message")
    return message if type(message) is str else to_json_text(value)


def _iso_from_epoch(value: object) -> str | None:
    seconds = as_number(value, -1)
    if seconds < 0 or seconds > 32503680000:  # beyond year 3000: not a timestamp
        return None
    return datetime.fromtimestamp(seconds, UTC).isoformat().replace("+00:00", "Z")


# -- system events -------------------------------------------------------------


def _system_text(event: dict[str, Any]) -> str:
    subtype = as_string(event.get("subtype"))
    if subtype == "api_retry":
        attempt = as_int(event.get("attempt"))
        most = as_int(event.get("max_retries"))
        delay = as_number(event.get("retry_delay_ms"), -1)
        status = event.get("error_status")
        error = as_string(event.get("error"))
        why = " ".join(part for part in (f"HTTP {status}" if status else "", error) if part)
        wait = f" in {delay / 1000:.1f}s" if delay >= 0 else ""
        return f"API retry {attempt}/{most}{wait}" + (f" ({why})" if why else "")
    if subtype == "compact_boundary":
        meta = as_object(event.get("compact_metadata"))
        trigger = as_string(meta.get("trigger"), "unknown")
        before, after = meta.get("pre_tokens"), meta.get("post_tokens")
        sizes = f": {before} → {after} tokens" if before is not None and after is not None else ""
        return f"context compacted ({trigger}){sizes}"
    if subtype == "status":
        return f"status: {as_string(event.get('status'), 'idle')}"
    if subtype in ("hook_started", "hook_response"):
        name = as_string(event.get("hook_name")) or as_string(event.get("hook_event"), "hook")
        if subtype == "hook_started":
            return f"hook {name} started"
        outcome = as_string(event.get("outcome"))
        code = event.get("exit_code")
        status = ", ".join(
            part for part in (outcome, f"exit {code}" if code is not None else "") if part
        )
        output = as_string(event.get("output")) or as_string(event.get("stdout"))
        errors = as_string(event.get("stderr"))
        text = f"hook {name} finished" + (f" ({status})" if status else "")
        for part in (output, errors):
            if part.strip():
                text += "\n" + part.strip()
        return text
    if subtype == "notification":
        return f"notification: {as_string(event.get('text')) or as_string(event.get('key'))}"
    if subtype == "thinking_tokens":
        return f"thinking… ~{as_int(event.get('estimated_tokens'))} tokens"
    if subtype.startswith("task_"):
        return _task_text(subtype, event)
    rest = {k: v for k, v in event.items() if k not in ("type", "subtype", "uuid", "session_id")}
    return f"{subtype or 'system'}: {to_json_text(rest)}" if rest else subtype or "system"


def _task_text(subtype: str, event: dict[str, Any]) -> str:
    description = as_string(event.get("description")) or as_string(event.get("task_id"), "task")
    if subtype == "task_started":
        agent = as_string(event.get("subagent_type"))
        return f"task started: {description}" + (f" ({agent})" if agent else "")
    if subtype == "task_progress":
        usage = as_object(event.get("usage"))
        tools = as_int(usage.get("tool_uses"))
        tokens = as_int(usage.get("total_tokens"))
        return f"task progress: {description} ({tools} tool uses, {tokens} tokens)"
    if subtype == "task_updated":
        patch = as_object(event.get("patch"))
        status = as_string(patch.get("status"))
        return f"task {as_string(event.get('task_id'))} updated" + (f": {status}" if status else "")
    if subtype == "task_notification":
        status = as_string(event.get("status"), "finished")
        summary = as_string(event.get("summary"))
        return f"task {status}" + (f": {summary}" if summary else "")
    return f"{subtype}: {description}"


def _rate_limit_text(event: dict[str, Any]) -> str:
    info = as_object(event.get("rate_limit_info"))
    status = as_string(info.get("status"), "unknown")
    window = as_string(info.get("rateLimitType"))
    text = f"rate limit {status}"
    if window:
        text += f": {window} window"
    utilization = as_number(info.get("utilization"), -1)
    if utilization >= 0:
        text += f" {utilization:.0%} used"
    resets = _iso_from_epoch(info.get("resetsAt"))
    if resets:
        text += f", resets {resets}"
    return text


# -- messages --------------------------------------------------------------------


def _content(event: dict[str, Any]) -> object:
    message = event.get("message")
    return message.get("content") if type(message) is dict else None


def _assistant_entries(
    event: dict[str, Any], ts: str, skip: frozenset[str], names: dict[str, str] | None
) -> list[TranscriptEntry]:
    content = _content(event)
    if type(content) is str:
        return [{"kind": "assistant", "ts": ts, "text": content}] if content else []
    entries: list[TranscriptEntry] = []
    if type(content) is not list:
        return entries
    for block in content:
        if type(block) is not dict:
            continue
        kind = block.get("type")
        if kind == "text":
            text = block.get("text")
            if type(text) is str and text and "text" not in skip:
                entries.append({"kind": "assistant", "ts": ts, "text": text})
        elif kind in _TOOL_USE_BLOCKS:
            name = as_string(block.get("name"), "tool")
            call: ToolCallEntry = {
                "kind": "tool_call",
                "ts": ts,
                "name": name,
                "input": json_or_placeholder(block.get("input", {})),
            }
            ident = block.get("id")
            if type(ident) is str:
                call["toolUseId"] = ident
                if names is not None:
                    _remember(names, ident, name)
            entries.append(call)
        elif kind == "thinking":
            if "thinking" not in skip:
                text = as_string(block.get("thinking"))
                entries.append({"kind": "thinking", "ts": ts, "text": text or _OMITTED_THINKING})
        elif kind == "redacted_thinking":
            entries.append({"kind": "thinking", "ts": ts, "text": _REDACTED_THINKING})
        elif type(kind) is not str or not kind:
            continue
        elif kind.endswith("_tool_result"):
            # Server-side tools (web search, code execution, MCP) report inline.
            entries.append(_tool_result(block, ts, names))
        elif kind == "image":
            entries.append({"kind": "assistant", "ts": ts, "text": content_text([block])})
        else:
            entries.append(_system(ts, f"assistant {kind} block: {to_json_text(block)}"))
    return entries


def _tool_result(block: dict[str, Any], ts: str, names: dict[str, str] | None) -> TranscriptEntry:
    ident = as_string(block.get("tool_use_id"))
    content = block.get("content")
    result: ToolResultEntry = {
        "kind": "tool_result",
        "ts": ts,
        "toolUseId": ident,
        "content": content if type(content) is str else content_text(content),
        "isError": block.get("is_error") is True,
    }
    if names is not None and ident in names:
        result["toolName"] = names[ident]
    return result


def _user_entries(
    event: dict[str, Any], ts: str, names: dict[str, str] | None
) -> list[TranscriptEntry]:
    content = _content(event)
    if type(content) is str:
        return [{"kind": "user", "ts": ts, "text": content}] if content.strip() else []
    entries: list[TranscriptEntry] = []
    if type(content) is not list:
        return entries
    for block in content:
        if type(block) is str:
            if block.strip():
                entries.append({"kind": "user", "ts": ts, "text": block})
            continue
        if type(block) is not dict:
            continue
        kind = block.get("type")
        if kind == "tool_result":
            entries.append(_tool_result(block, ts, names))
        elif kind == "text":
            text = as_string(block.get("text"))
            if text.strip():
                entries.append({"kind": "user", "ts": ts, "text": text})
        elif type(kind) is str and kind:
            entries.append({"kind": "user", "ts": ts, "text": content_text([block])})
    return entries


def _result_entry(event: dict[str, Any], ts: str) -> TranscriptEntry:
    usage = as_object(event.get("usage"))
    return {
        "kind": "result",
        "ts": ts,
        "text": as_string(event.get("result")),
        "inputTokens": as_number(usage.get("input_tokens")),
        "outputTokens": as_number(usage.get("output_tokens")),
        "cachedTokens": as_number(usage.get("cache_read_input_tokens")),
        "costUsd": as_number(event.get("total_cost_usd")),
        "subtype": as_string(event.get("subtype")),
        "isError": event.get("is_error") is True,
        "errors": [_error_text(error) for error in as_list(event.get("errors"))],
    }


def _stream_delta(event: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    """``--include-partial-messages``: text and thinking deltas become delta entries."""
    inner = as_object(event.get("event"))
    if inner.get("type") != "content_block_delta":
        return []
    delta = as_object(inner.get("delta"))
    kind = delta.get("type")
    if kind == "text_delta":
        text = as_string(delta.get("text"))
        return [{"kind": "assistant", "ts": ts, "text": text, "delta": True}] if text else []
    if kind == "thinking_delta":
        text = as_string(delta.get("thinking"))
        return [{"kind": "thinking", "ts": ts, "text": text, "delta": True}] if text else []
    return []  # tool input, signature and citation deltas: the final message carries them


def _remember(store: dict[str, Any], key: str, value: Any) -> None:
    # Insertion-ordered dict as a bounded memory: the oldest key goes first.
    store[key] = value
    if len(store) > _REMEMBERED:
        del store[next(iter(store))]


def _entries(
    event: dict[str, Any],
    line: str,
    ts: str,
    skip: frozenset[str] = _NOTHING,
    names: dict[str, str] | None = None,
) -> list[TranscriptEntry]:
    kind = event.get("type")
    if kind == "assistant":
        return _assistant_entries(event, ts, skip, names)
    if kind == "user":
        return _user_entries(event, ts, names)
    if kind == "stream_event":
        return _stream_delta(event, ts)
    if kind == "system":
        if event.get("subtype") == "init":
            return [
                {
                    "kind": "init",
                    "ts": ts,
                    "model": as_string(event.get("model"), "unknown"),
                    "sessionId": as_string(event.get("session_id")),
                }
            ]
        return [_system(ts, _system_text(event))]
    if kind == "result":
        return [_result_entry(event, ts)]
    if kind == "rate_limit_event":
        return [_system(ts, _rate_limit_text(event))]
    if kind in ("control_request", "control_response", "control_cancel_request"):
        subtype = as_string(dig(event, "request", "subtype")) or as_string(
            dig(event, "response", "subtype")
        )
        return [_system(ts, f"{kind}" + (f": {subtype}" if subtype else ""))]
    if kind in ("keep_alive", "ping"):
        return []
    shared = parse_acpx_event(event, ts)  # Paperclip's ACP engine events, shared by several CLIs
    return shared if shared is not None else _stdout(line, ts)


def parse_stdout_line(line: str, ts: str) -> list[TranscriptEntry]:
    """One Claude stream-json line to entries (stateless; prefer :func:`create_stdout_parser`)."""
    event = parse_json_object(line)
    if event is None:
        return _stdout(line, ts)
    return _entries(event, line, ts)


class ClaudeStdoutParser:
    """The stateful Claude parser, which adds two things to :func:`parse_stdout_line`.

    With ``--include-partial-messages`` Claude streams text and thinking as
    ``stream_event`` deltas and then repeats them in the complete ``assistant``
    message; this parser emits the deltas and skips the repeat. It also
    remembers tool names by id, so tool results carry ``toolName``.
    """

    __slots__ = ("_current", "_names", "_streamed")

    def __init__(self) -> None:
        self._names: dict[str, str] = {}
        # message id -> block kinds ("text", "thinking") already streamed as deltas
        self._streamed: dict[str, frozenset[str]] = {}
        self._current: str | None = None  # id of the message being streamed

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        event = parse_json_object(line)
        if event is None:
            return _stdout(line, ts)
        kind = event.get("type")
        if kind == "user":
            return _user_entries(event, ts, self._names)
        if kind == "assistant":
            skip = _NOTHING
            if self._streamed:
                ident = dig(event, "message", "id")
                if type(ident) is str:
                    skip = self._streamed.get(ident, skip)
            return _assistant_entries(event, ts, skip, self._names)
        if kind == "stream_event":
            return self._stream_event(event, ts)
        return _entries(event, line, ts, _NOTHING, self._names)

    def _stream_event(self, event: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        inner = as_object(event.get("event"))
        if inner.get("type") == "message_start":
            ident = dig(inner, "message", "id")
            self._current = ident if type(ident) is str else None
            return []
        entries = _stream_delta(event, ts)
        if entries and self._current is not None:
            block = "text" if entries[0]["kind"] == "assistant" else "thinking"
            seen = self._streamed.get(self._current, frozenset())
            if block not in seen:
                _remember(self._streamed, self._current, seen | {block})
        return entries

    def reset(self) -> None:
        self._names.clear()
        self._streamed.clear()
        self._current = None


def create_stdout_parser() -> ClaudeStdoutParser:
    """A fresh stateful Claude parser for one transcript."""
    return ClaudeStdoutParser()
