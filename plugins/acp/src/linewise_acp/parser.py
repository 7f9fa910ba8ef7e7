"""Agent Client Protocol (ACP) JSON-RPC lines, as an ACP agent writes them, to TranscriptEntries."""

from __future__ import annotations

from typing import Any, Final

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
    json_or_placeholder,
    parse_json_object,
    stdout_entries,
    to_json_text,
    truncate,
)
from linewise_contracts.extract import diff_entries as unified_diff_entries

from linewise_acp.content import block_text, diffs, envelope, tool_content_text
from linewise_acp.ending import with_result_fields

__all__ = ["AcpStdoutParser", "create_stdout_parser", "parse_stdout_line", "stop_failure"]

# A tool call in one of these states is over: it gets its tool_result.
_FINISHED: Final = ("completed", "failed")
# The streamed message kept for the result entry and the repeat check; a runaway one is cut.
_MESSAGE_LIMIT: Final = 100_000
_DIFF_LINES: Final = 400
_SYSTEM_LIMIT: Final = 4000
_CHUNKS: Final = {"agent_message_chunk": "assistant", "agent_thought_chunk": "thinking"}
#: Stop reasons that end a turn without the agent finishing it, with what they mean.
_STOP_FAILURES: Final = {
    "max_tokens": "stopped at a limit: the model's token limit (max_tokens)",
    "max_turn_requests": "stopped at a limit: the most model requests in one turn "
    "(max_turn_requests)",
    "refusal": "the agent refused to continue (refusal)",
    "cancelled": "the client cancelled the turn (cancelled)",
}


def stop_failure(stop_reason: str) -> str | None:
    """Why a ``session/prompt`` stop reason is not a finished turn; None for ``end_turn``."""
    return _STOP_FAILURES.get(stop_reason)


def _system(ts: str, text: str) -> TranscriptEntry:
    return {"kind": "system", "ts": ts, "text": truncate(text, _SYSTEM_LIMIT)}


def _compact(value: object) -> str:
    return truncate(to_json_text(value), 500)


# -- tool calls -----------------------------------------------------------------------------


def _tool_input(update: dict[str, Any]) -> Any:
    tool_input: dict[str, Any] = {}
    for key in ("title", "kind", "rawInput", "locations"):
        if update.get(key) is not None:
            tool_input[key] = update[key]
    return json_or_placeholder(tool_input)


def _tool_name(update: dict[str, Any]) -> str:
    # ACP 1.21 gives a tool call its tool's `name`; before, only a title and a kind.
    return (
        as_string(update.get("name"))
        or as_string(update.get("title"))
        or as_string(update.get("kind"))
        or "tool"
    )


def _tool_call(update: dict[str, Any], ts: str) -> ToolCallEntry:
    call: ToolCallEntry = {
        "kind": "tool_call",
        "ts": ts,
        "name": _tool_name(update),
        "input": _tool_input(update),
    }
    ident = as_string(update.get("toolCallId"))
    if ident:
        call["toolUseId"] = ident
    return call


def _diff_text(item: dict[str, Any]) -> str:
    path = as_string(item.get("path"), "?")
    old = item.get("oldText")
    new = as_string(item.get("newText"))
    old_lines = as_string(old).splitlines()
    new_lines = new.splitlines()
    head = ["--- /dev/null" if old is None else f"--- {path}", f"+++ {path}"]
    hunk = [f"@@ -1,{len(old_lines)} +1,{len(new_lines)} @@"]
    body = ["-" + line for line in old_lines] + ["+" + line for line in new_lines]
    return "\n".join(head + hunk + body)


def _diff_entries(content: object, ts: str) -> list[TranscriptEntry]:
    entries: list[TranscriptEntry] = []
    for item in diffs(content):
        entries.extend(unified_diff_entries(_diff_text(item), ts, limit=_DIFF_LINES))
    return entries


def _tool_result(
    update: dict[str, Any], ts: str, names: BoundedMap[str, str] | None, *, with_diffs: bool = True
) -> list[TranscriptEntry]:
    status = as_string(update.get("status"))
    ident = as_string(update.get("toolCallId"))
    content = update.get("content")
    text = tool_content_text(content)
    raw = update.get("rawOutput")
    if raw is not None:
        raw_text = raw if type(raw) is str else to_json_text(raw)
        text = f"{text}\n{raw_text}" if text and raw_text not in text else text or raw_text
    result: ToolResultEntry = {
        "kind": "tool_result",
        "ts": ts,
        "toolUseId": ident or _tool_name(update),
        "content": text or status,
        "isError": status == "failed",
    }
    name = names.get(ident) if names is not None and ident else None
    if name:
        result["toolName"] = name
    return [result, *(_diff_entries(content, ts) if with_diffs else [])]


# -- other session updates ------------------------------------------------------------------


def _plan_text(update: dict[str, Any]) -> str:
    marks = {"completed": "[x]", "in_progress": "[~]", "pending": "[ ]"}
    lines = ["plan:"]
    for step in as_list(update.get("entries")):
        text = as_string(dig(step, "content")) or _compact(step)
        status = as_string(dig(step, "status"))
        priority = as_string(dig(step, "priority"))
        mark = marks.get(status, f"[{status}]" if status else "-")
        lines.append(f"{mark} {text}" + (f" ({priority})" if priority else ""))
    return "\n".join(lines) if len(lines) > 1 else "plan: (empty)"


def _commands_text(update: dict[str, Any]) -> str:
    names = [
        "/" + as_string(dig(command, "name"))
        for command in as_list(update.get("availableCommands"))
        if as_string(dig(command, "name"))
    ]
    return "available commands: " + (", ".join(names) if names else "none")


def _usage_text(update: dict[str, Any]) -> str:
    parts = []
    used, size = as_number(update.get("used"), -1), as_number(update.get("size"), -1)
    if used >= 0:
        parts.append(f"context {used:g}" + (f"/{size:g} tokens" if size > 0 else " tokens"))
    cost = as_object(update.get("cost"))
    amount = as_number(cost.get("amount"), -1)
    if amount >= 0:
        parts.append(f"cost so far {amount:g} {as_string(cost.get('currency'), '')}".rstrip())
    return "usage: " + ("; ".join(parts) if parts else _compact(update))


def _other_update_text(kind: str, update: dict[str, Any]) -> str:
    if kind == "plan":
        return _plan_text(update)
    if kind == "available_commands_update":
        return _commands_text(update)
    if kind == "current_mode_update":
        mode = as_string(update.get("currentModeId")) or as_string(update.get("modeId"))
        return f"mode: {mode or '?'}"
    if kind == "usage_update":
        return _usage_text(update)
    if kind == "session_info_update" and as_string(update.get("title")):
        return f"session title: {as_string(update.get('title'))}"
    if kind == "plan_update":
        return _plan_text(update)
    if kind == "compaction_update":
        status = as_string(update.get("status"), "updated").replace("_", " ")
        summary = content_text(update.get("summary")).strip()
        return f"context compaction {status}" + (f":\n{summary}" if summary else "")
    if kind == "state_update":
        state = as_string(update.get("state")) or _compact(update.get("state"))
        return f"session state: {state}"
    if kind == "config_option_update":
        option = as_string(update.get("configId")) or as_string(update.get("id")) or "option"
        value = update.get("value", update.get("currentValue"))
        return f"config {option}: {_compact(value)}"
    rest = {key: value for key, value in update.items() if key != "sessionUpdate"}
    return f"session update {kind or '(no type)'}" + (f": {_compact(rest)}" if rest else "")


def _decoded(data: object) -> str:
    """Terminal output as ACP v2 sends it (base64), as text; undecodable data as it is."""
    import base64
    import binascii

    text = as_string(data)
    try:
        return base64.b64decode(text, validate=True).decode("utf-8", errors="replace")
    except (binascii.Error, ValueError):
        return text


def _streamed_output_text(kind: str, update: dict[str, Any]) -> str:
    if kind == "tool_call_content_chunk":
        ident = as_string(update.get("toolCallId"))
        text = tool_content_text(update.get("content")) or block_text(update.get("content"))
        return f"tool call [{ident}] output: {truncate(text, 2000)}"
    terminal = as_string(update.get("terminalId"), "terminal")
    if kind == "terminal_output_chunk":
        return f"terminal {terminal}: {truncate(_decoded(update.get('data')), 2000)}"
    command = as_string(update.get("command"))
    cwd = as_string(update.get("cwd"))
    output = _decoded(as_object(update.get("output")).get("data"))
    head = f"terminal {terminal}" + (f": $ {command}" if command else "")
    head += f" (in {cwd})" if cwd else ""
    exit_status = as_object(update.get("exitStatus"))
    if "exitCode" in exit_status:
        head += f" exit {_compact(exit_status.get('exitCode'))}"
    return head + (f"\n{truncate(output, 2000)}" if output else "")


def _vendor_text(method: str, params: dict[str, Any]) -> str:
    """A vendor's ``_x/...`` notification, shown (Kiro's metadata in words)."""
    if method == "_kiro.dev/metadata":
        parts = []
        share = as_number(params.get("contextUsagePercentage"), -1)
        if share >= 0:
            parts.append(f"context {share:g}% used")
        for item in as_list(params.get("meteringUsage")):
            value = as_number(dig(item, "value"), -1)
            if value >= 0:
                parts.append(f"{value:g} {as_string(dig(item, 'unit')) or 'units'} metered")
        duration = as_number(params.get("turnDurationMs"), -1)
        if duration >= 0:
            parts.append(f"turn {duration / 1000:.1f}s")
        return "Kiro: " + (", ".join(parts) if parts else "metadata")
    rest = {key: value for key, value in params.items() if key != "sessionId"}
    return f"{method}" + (f": {_compact(rest)}" if rest else "")


# -- requests and responses -----------------------------------------------------------------


def _permission_text(params: dict[str, Any]) -> str:
    call = as_object(params.get("toolCall"))
    what = as_string(call.get("title")) or as_string(call.get("toolCallId")) or "a tool call"
    options = [
        as_string(dig(option, "name")) or as_string(dig(option, "optionId"))
        for option in as_list(params.get("options"))
    ]
    text = f"permission requested: {what}"
    return text + (f" (options: {', '.join(o for o in options if o)})" if options else "")


def _request_entries(event: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    method = as_string(event.get("method"))
    params = as_object(event.get("params"))
    if method == "session/prompt":
        # Written by the client: a log of both directions shows what the user asked.
        text = "\n".join(block_text(block) for block in as_list(params.get("prompt")))
        return [{"kind": "user", "ts": ts, "text": text}]
    if method == "session/request_permission":
        return [_system(ts, _permission_text(params))]
    if method == "fs/read_text_file":
        path = as_string(params.get("path"), "?")
        line, limit = params.get("line"), params.get("limit")
        extra = f" from line {_compact(line)}" if line is not None else ""
        extra += f", {_compact(limit)} lines" if limit is not None else ""
        return [_system(ts, f"agent reads {path}{extra}")]
    if method == "fs/write_text_file":
        path = as_string(params.get("path"), "?")
        size = len(as_string(params.get("content")))
        return [_system(ts, f"agent writes {path} ({size} characters)")]
    if method == "terminal/create":
        words = [as_string(params.get("command")), *map(as_string, as_list(params.get("args")))]
        cwd = as_string(params.get("cwd"))
        text = "agent runs: " + " ".join(w for w in words if w)
        return [_system(ts, text + (f" (in {cwd})" if cwd else ""))]
    if method == "session/cancel":
        return [_system(ts, "client cancelled the turn")]
    if method.startswith("_"):
        return [_system(ts, _vendor_text(method, params))]
    rest = {key: value for key, value in params.items() if key != "sessionId"}
    return [_system(ts, f"{method or 'request'}" + (f": {_compact(rest)}" if rest else ""))]


def _initialize_text(result: dict[str, Any]) -> str:
    info = as_object(result.get("agentInfo"))
    agent = " ".join(
        part
        for part in (
            as_string(info.get("title")) or as_string(info.get("name")),
            as_string(info.get("version")),
        )
        if part
    )
    text = f"ACP initialized (protocol {_compact(result.get('protocolVersion'))})"
    methods = [as_string(dig(m, "id")) for m in as_list(result.get("authMethods"))]
    if agent:
        text += f"; agent {agent}"
    if any(methods):
        text += f"; auth methods: {', '.join(m for m in methods if m)}"
    return text


def _result_entry(
    result: dict[str, Any], ts: str, text: str, error: str | None = None
) -> TranscriptEntry:
    stop = as_string(result.get("stopReason")) if error is None else "error"
    usage = as_object(result.get("usage"))
    failure = error if error is not None else stop_failure(stop)
    entry: ResultEntry = {
        "kind": "result",
        "ts": ts,
        "text": text,
        # ACP reports no tokens unless the agent sends the (unstable) usage field.
        "inputTokens": as_number(usage.get("inputTokens")),
        "outputTokens": as_number(usage.get("outputTokens")),
        "cachedTokens": as_number(usage.get("cachedReadTokens")),
        "costUsd": 0,
        "subtype": stop,
        "isError": failure is not None,
        "errors": [failure] if failure else [],
    }
    return with_result_fields(entry, result, stop)


def jsonrpc_error_text(error: object) -> str:
    """``JSON-RPC error -32603: message (data)`` for a response's ``error`` object."""
    item = as_object(error)
    message = error_text(item.get("message")) or error_text(error)
    code = item.get("code")
    text = f"JSON-RPC error {code}: {message}" if code is not None else f"error: {message}"
    data = item.get("data")
    if data is not None:
        text += f" ({data if type(data) is str else _compact(data)})"
    return text


class AcpStdoutParser:
    """The stateful ACP parser.

    It remembers tool names by call id (for ``toolName``), shows a call that
    arrives only as an update once, keeps the message being streamed (for the
    ``result`` text, and to spot a final chunk that re-sends the whole message),
    and knows whether a prompt turn is open (so an error response ends it).
    """

    __slots__ = ("_diffs", "_kind", "_last", "_message", "_names", "_size", "_turn", "_whole")

    def __init__(self) -> None:
        self._names: BoundedMap[str, str] = BoundedMap()
        # Per call id, the diffs already shown (the proposed edit of a tool_call):
        # the same diffs in its final update are not shown twice.
        self._diffs: BoundedMap[str, str] = BoundedMap(256)
        # Per v2 messageId, the text streamed or shown: a whole agent_message repeating it
        # is not shown again.
        self._whole: BoundedMap[str, str] = BoundedMap(256)
        self._kind = ""  # kind of the message being streamed ("assistant", "thinking")
        self._message: list[str] = []
        self._size = 0
        self._last = ""  # the last agent message of the turn
        self._turn = False

    def reset(self) -> None:
        self.__init__()  # type: ignore[misc]

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        event = parse_json_object(line)
        if event is None:
            return stdout_entries(line, ts)
        shape, payload = envelope(event)
        if shape == "update":
            return self._update(as_object(payload.get("update")), ts)
        self._close_message()
        if shape == "request":
            return _request_entries(event, ts)
        if shape == "result":
            return self._response(event, ts)
        if shape == "error":
            return self._error(event, ts)
        return stdout_entries(line, ts)

    # -- streamed messages

    def _close_message(self) -> None:
        if self._kind == "assistant" and self._message:
            self._last = "".join(self._message)
        self._kind = ""
        self._message.clear()
        self._size = 0

    def _chunk(self, kind: str, text: str, ts: str) -> list[TranscriptEntry]:
        if self._kind != kind:
            self._close_message()
            self._kind = kind
        # The length first: joining the message on every chunk would be quadratic.
        if len(self._message) >= 2 and len(text) == self._size and text == "".join(self._message):
            # Some bridges end a message with one more chunk holding the whole of it
            # (Codex's final agent_message): it is said once, and the repeat noted.
            self._close_message()
            return [_system(ts, f"the agent re-sent its whole {kind} message as a last chunk")]
        if self._size < _MESSAGE_LIMIT:
            self._message.append(text)
            self._size += len(text)
        if kind == "thinking":
            return [{"kind": "thinking", "ts": ts, "text": text, "delta": True}]
        return [{"kind": "assistant", "ts": ts, "text": text, "delta": True}]

    # -- session updates

    def _update(self, update: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        kind = as_string(update.get("sessionUpdate"))
        self._turn = True
        if kind in _CHUNKS:
            text = block_text(update.get("content"))
            message_id = as_string(update.get("messageId"))
            if message_id and text:
                so_far = self._whole.get(message_id) or ""
                if len(so_far) < _MESSAGE_LIMIT:
                    self._whole[message_id] = so_far + text
            return self._chunk(_CHUNKS[kind], text, ts) if text else []
        self._close_message()
        if kind == "user_message_chunk":
            return [{"kind": "user", "ts": ts, "text": block_text(update.get("content"))}]
        if kind == "tool_call":
            call = _tool_call(update, ts)
            ident = call.get("toolUseId")
            if ident:
                self._names[ident] = call["name"]
            if as_string(update.get("status")) in _FINISHED:
                return [call, *_tool_result(update, ts, self._names)]
            proposed = diffs(update.get("content"))
            if ident and proposed:
                self._diffs[ident] = to_json_text(proposed)
            return [call, *_diff_entries(proposed, ts)]
        if kind == "tool_call_update":
            return self._tool_update(update, ts)
        v2 = self._v2_update(kind, update, ts)
        if v2 is not None:
            return v2
        return [_system(ts, _other_update_text(kind, update))]

    def _v2_update(
        self, kind: str, update: dict[str, Any], ts: str
    ) -> list[TranscriptEntry] | None:
        """ACP's v2 alpha and 1.21 updates that are not plain notes (None for the others)."""
        if kind in ("agent_message", "agent_thought", "user_message"):
            text = "\n".join(block_text(block) for block in as_list(update.get("content")))
            if not text.strip() and type(update.get("content")) is dict:
                text = block_text(update.get("content"))
            ident = as_string(update.get("messageId"))
            if not text.strip() or (ident and self._whole.get(ident) == text):
                return []  # a replay marker, or the whole of a message already streamed
            if ident:
                self._whole[ident] = text
            role = {"agent_message": "assistant", "agent_thought": "thinking"}.get(kind, "user")
            if role == "assistant":
                return [{"kind": "assistant", "ts": ts, "text": text}]
            if role == "thinking":
                return [{"kind": "thinking", "ts": ts, "text": text}]
            return [{"kind": "user", "ts": ts, "text": text}]
        if kind == "compaction_summary_chunk":
            return []  # the completed compaction_update carries the whole summary
        if kind == "notice":
            severity = as_string(update.get("severity"), "info")
            title = as_string(update.get("title"))
            detail = as_string(update.get("description")) or as_string(update.get("message"))
            text = ": ".join(part for part in (title, detail) if part) or "notice"
            if severity in ("error", "critical"):
                return [{"kind": "stderr", "ts": ts, "text": text}]
            return [_system(ts, f"{severity}: {text}" if severity != "info" else text)]
        if kind in ("tool_call_content_chunk", "terminal_output_chunk", "terminal_update"):
            return [_system(ts, _streamed_output_text(kind, update))]
        return None

    def _tool_update(self, update: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        ident = as_string(update.get("toolCallId"))
        entries: list[TranscriptEntry] = []
        if ident and ident not in self._names:
            # An update for a call this log never announced: the call is shown first.
            call = _tool_call(update, ts)
            self._names[ident] = call["name"]
            entries.append(call)
        if as_string(update.get("status")) in _FINISHED:
            shown = self._diffs.pop(ident) if ident in self._diffs else None
            same = shown is not None and shown == to_json_text(diffs(update.get("content")))
            return entries + _tool_result(update, ts, self._names, with_diffs=not same)
        if entries:
            return entries
        changed = {
            key: update[key]
            for key in ("title", "kind", "rawInput", "locations")
            if update.get(key) is not None
        }
        if changed:
            name = self._names.get(ident) or ident
            return [_system(ts, f"tool call {name} [{ident}] updated: {_compact(changed)}")]
        status = as_string(update.get("status"))
        text = tool_content_text(update.get("content"))
        if text:
            return [_system(ts, f"tool call [{ident}] {status or 'output'}: {truncate(text, 500)}")]
        return []  # a bare status change (pending -> in_progress): nothing to show

    # -- responses

    def _response(self, event: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        result = event.get("result")
        item = as_object(result)
        if "stopReason" in item:
            text, self._last, self._turn = self._last.strip(), "", False
            return [_result_entry(item, ts, text)]
        if type(item.get("sessionId")) is str:
            self._turn = False
            model = as_string(dig(item, "models", "currentModelId"))
            return [{"kind": "init", "ts": ts, "model": model, "sessionId": item["sessionId"]}]
        if "protocolVersion" in item or "agentCapabilities" in item:
            return [_system(ts, _initialize_text(item))]
        ident = _compact(event.get("id"))
        if result is None or item == {}:
            return [_system(ts, f"response #{ident}: ok")]
        if "outcome" in item:
            outcome = as_object(item.get("outcome"))
            chosen = as_string(outcome.get("optionId")) or as_string(outcome.get("outcome"))
            return [_system(ts, f"permission answer: {chosen or _compact(outcome)}")]
        return [_system(ts, f"response #{ident}: {_compact(result)}")]

    def _error(self, event: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        text = jsonrpc_error_text(event.get("error"))
        entries: list[TranscriptEntry] = [{"kind": "stderr", "ts": ts, "text": text}]
        if self._turn:
            # The agent was working on a prompt: the error answers session/prompt.
            answer, self._last, self._turn = self._last.strip(), "", False
            entries.append(_result_entry({}, ts, answer, error=text))
        return entries


def parse_stdout_line(line: str, ts: str) -> list[TranscriptEntry]:
    """One ACP line to entries (stateless; prefer :func:`create_stdout_parser`)."""
    return AcpStdoutParser().parse_line(line, ts)


def create_stdout_parser() -> AcpStdoutParser:
    """A fresh stateful ACP parser for one transcript."""
    return AcpStdoutParser()
