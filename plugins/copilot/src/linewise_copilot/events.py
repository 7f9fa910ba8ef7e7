"""GitHub Copilot CLI's session events to entries: what its session files and stdout share.

A saved session is ``~/.copilot/session-state/<id>/events.jsonl``; ``copilot -p ...
--output-format json`` prints the same events and a few more (:mod:`linewise_copilot.parser`).

Each line is one event ``{type, data, id, timestamp, parentId}``:

- ``session.start``: ``init`` (``sessionId``, ``selectedModel`` or "",
  ``context.cwd``); ``session.resume``: ``system`` "session resumed";
- ``session.model_change`` / ``session.auto_mode_resolved``: ``system`` naming the model;
- ``session.info`` / ``session.warning`` / ``system.notification``:
  ``system``; ``session.error``: ``stderr`` (type, message, HTTP status);
  ``session.truncation`` / ``session.compaction_*``: ``system``; ``abort``:
  ``system`` "aborted: ...";
- ``user.message``: ``user`` (``content``, as typed, not the
  ``transformedContent`` the CLI wrapped around it for the model; each of
  ``attachments`` named on a line of its own);
- ``assistant.message``: ``reasoningText`` as ``thinking``, ``content`` as
  ``assistant``, each of ``toolRequests`` as ``tool_call`` (``toolCallId``);
  ``assistant.reasoning``: ``thinking``;
- ``tool.execution_start``: a ``tool_call`` only when no ``toolRequests``
  showed that call; ``tool.execution_complete``: ``tool_result`` (``result``
  content, or the ``error`` message; an error unless ``success``), with the
  call's ``toolName``;
- ``subagent.started`` / ``subagent.completed`` / ``subagent.failed``:
  ``system`` (``stderr`` when failed) under the tool call that started it;
- ``hook.start`` / ``hook.end``: ``system``;
- ``session.shutdown``: ``result``, tokens summed over ``modelMetrics``
  (or ``tokenDetails``), the shutdown type as subtype.

Events of a subagent carry ``data.parentToolCallId`` (or, in newer versions,
the subagent's ``agentId`` on the envelope: the tool call whose
``subagent.started`` named that agent, or the call of that id): their entries
get it as ``parentToolUseId``. Dropped deliberately, as carrying nothing to show:
``system.message`` (the system prompt the CLI sends, identical for every
session), ``assistant.turn_start`` / ``assistant.turn_end`` (turn
boundaries), ``session.usage_checkpoint`` (running usage; ``session.shutdown``
has the totals) and the ``tool.execution_start`` of a call already shown. Any
other event comes out raw (``stdout``). Every entry carries its event's own
``timestamp``.
"""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.entries import (
    InitEntry,
    ResultEntry,
    ToolCallEntry,
    ToolResultEntry,
    TranscriptEntry,
    model_name,
)
from linewise_contracts.extract import (
    BoundedMap,
    as_list,
    as_number,
    as_object,
    as_string,
    content_text,
    dig,
    iso_timestamp,
    json_or_placeholder,
    parse_json_object,
    stdout_entries,
    with_parent,
)

from linewise_copilot.ending import with_shutdown_fields

__all__ = ["SHUTDOWN_ERROR", "CopilotSessionParser", "model_named"]

_Names = BoundedMap[str, str]

#: What went wrong in a session whose shutdown says ``error`` (Copilot gives no message).
SHUTDOWN_ERROR: Final = "Copilot's session shut down with an error (shutdownType: error)."

# Reasoning texts and streamed ids remembered, to show each once.
_THOUGHTS: Final = 256

_DROPPED: Final = frozenset(
    {
        "system.message",
        "assistant.turn_start",
        "assistant.turn_end",
        "session.usage_checkpoint",
        # Copilot CLI 1.0.63: a message's start (its phase) and each request's token counts,
        # which the run summary reads; nothing a transcript shows.
        "assistant.message_start",
        "assistant.usage",
    }
)


def _system(ts: str, text: str) -> list[TranscriptEntry]:
    return [{"kind": "system", "ts": ts, "text": text}]


def _init(data: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    entry: InitEntry = {
        "kind": "init",
        "ts": iso_timestamp(data.get("startTime")) or ts,
        "model": as_string(data.get("selectedModel")),
        "sessionId": as_string(data.get("sessionId")),
    }
    cwd = as_string(dig(data, "context", "cwd"))
    if cwd:
        entry["cwd"] = cwd
    return [entry]


def _arguments(value: object) -> object:
    """Tool arguments: an object, or a JSON text of one (as some versions write them)."""
    if type(value) is str:
        parsed = parse_json_object(value)
        return value if parsed is None else parsed
    return {} if value is None else value


def _call(ident: str, name: str, arguments: object, ts: str) -> ToolCallEntry:
    return {
        "kind": "tool_call",
        "ts": ts,
        "name": name,
        "input": json_or_placeholder(_arguments(arguments)),
        "toolUseId": ident,
    }


def _assistant(data: dict[str, Any], ts: str, state: CopilotSessionParser) -> list[TranscriptEntry]:
    entries: list[TranscriptEntry] = []
    reasoning = as_string(data.get("reasoningText")).strip()
    if reasoning and state.new_thought(reasoning):
        entries.append({"kind": "thinking", "ts": ts, "text": reasoning})
    content = as_string(data.get("content")).strip()
    if content and as_string(data.get("messageId")) not in state.streamed:
        entries.append({"kind": "assistant", "ts": ts, "text": content})
    for request in as_list(data.get("toolRequests")):
        if type(request) is not dict:
            continue
        name = as_string(request.get("name"), "tool")
        ident = as_string(request.get("toolCallId")) or name
        state.names[ident] = name
        entries.append(_call(ident, name, request.get("arguments"), ts))
    return entries


def _reasoning(data: dict[str, Any], ts: str, state: CopilotSessionParser) -> list[TranscriptEntry]:
    text = as_string(data.get("content")).strip()
    streamed = as_string(data.get("reasoningId")) in state.streamed
    if not text or not state.new_thought(text) or streamed:
        return []
    return [{"kind": "thinking", "ts": ts, "text": text}]


def _tool_start(data: dict[str, Any], ts: str, names: _Names) -> list[TranscriptEntry]:
    ident = as_string(data.get("toolCallId"))
    name = as_string(data.get("toolName"), "tool")
    if ident and ident in names:
        return []  # already shown from the assistant message's toolRequests
    ident = ident or name
    names[ident] = name
    return [_call(ident, name, data.get("arguments"), ts)]


def _tool_complete(data: dict[str, Any], ts: str, names: _Names) -> list[TranscriptEntry]:
    ident = as_string(data.get("toolCallId")) or "tool"
    result = data.get("result")
    content = as_string(dig(result, "content")) or (
        content_text(result) if result is not None and type(result) is not dict else ""
    )
    error = data.get("error")
    message = as_string(dig(error, "message")) if type(error) is dict else as_string(error)
    if message and message not in content:
        content = f"{content}\n{message}" if content else message
    entry: ToolResultEntry = {
        "kind": "tool_result",
        "ts": ts,
        "toolUseId": ident,
        "toolName": names.get(ident)
        or as_string(dig(data, "toolTelemetry", "properties", "tool"))
        or "tool",
        "content": content,
        "isError": data.get("success") is not True,
    }
    return [entry]


def _shutdown(data: dict[str, Any], ts: str) -> TranscriptEntry:
    tokens = [0.0, 0.0, 0.0]
    for metrics in as_object(data.get("modelMetrics")).values():
        usage = as_object(dig(metrics, "usage"))
        tokens[0] += as_number(usage.get("inputTokens"))
        tokens[1] += as_number(usage.get("outputTokens"))
        tokens[2] += as_number(usage.get("cacheReadTokens"))
    if not any(tokens):
        details = as_object(data.get("tokenDetails"))
        tokens = [
            as_number(dig(details, name, "tokenCount"))
            for name in ("input", "output", "cache_read")
        ]
    failed = as_string(data.get("shutdownType")) == "error"
    entry: ResultEntry = {
        "kind": "result",
        "ts": ts,
        "text": "",
        "inputTokens": tokens[0],
        "outputTokens": tokens[1],
        "cachedTokens": tokens[2],
        "costUsd": 0,
        "subtype": as_string(data.get("shutdownType"), "shutdown"),
        "isError": failed,
        "errors": [SHUTDOWN_ERROR] if failed else [],
    }
    return with_shutdown_fields(entry, {"type": "session.shutdown", "data": data})


def _session(kind: str, data: dict[str, Any], ts: str) -> list[TranscriptEntry] | None:
    if kind == "session.start":
        return _init(data, ts)
    if kind == "session.resume":
        return _system(ts, "session resumed")
    if kind == "session.model_change":
        return _system(ts, f"model: {as_string(data.get('newModel'), 'unknown')}")
    if kind == "session.auto_mode_resolved":
        return _system(ts, f"auto mode chose {as_string(data.get('chosenModel'), 'a model')}")
    if kind in ("session.info", "session.warning"):
        text = as_string(data.get("message")) or kind
        return _system(ts, text if kind == "session.info" else f"warning: {text}")
    if kind == "session.error":
        text = as_string(data.get("message"), "error")
        kind_text = as_string(data.get("errorType"))
        status = data.get("statusCode")
        text = f"{kind_text}: {text}" if kind_text else text
        if type(status) is int:
            text += f" (status {status})"
        return [{"kind": "stderr", "ts": ts, "text": text}]
    if kind == "session.truncation":
        removed = as_number(data.get("messagesRemovedDuringTruncation"))
        return _system(ts, f"context truncated ({removed:g} messages removed)")
    if kind.startswith("session.compaction"):
        return _system(ts, kind.removeprefix("session.").replace("_", " "))
    if kind == "session.shutdown":
        return [_shutdown(data, ts)]
    return _session_setup(kind, data, ts)


def _names(items: object, field: str = "name") -> list[str]:
    found = []
    for item in as_list(items):
        name = as_string(item) or as_string(dig(item, field))
        state = as_string(dig(item, "status"))
        if name:
            found.append(f"{name} ({state})" if state else name)
    return found


def _session_setup(kind: str, data: dict[str, Any], ts: str) -> list[TranscriptEntry] | None:
    """Copilot CLI 1.0.63's session set-up events: MCP servers, skills, tools, modes."""
    if kind == "session.mcp_server_status_changed":
        server = as_string(data.get("serverName"), "an MCP server")
        return _system(ts, f"MCP server {server}: {as_string(data.get('status'), 'changed')}")
    if kind == "session.mcp_servers_loaded":
        servers = _names(data.get("servers"))
        return _system(ts, "MCP servers: " + (", ".join(servers) if servers else "none"))
    if kind == "session.skills_loaded":
        skills = _names(data.get("skills"))
        shown = ", ".join(skills[:20]) + (
            f" and {len(skills) - 20} more" if len(skills) > 20 else ""
        )
        return _system(ts, "skills loaded: " + (shown or "none"))
    if kind == "session.tools_updated":
        model = as_string(data.get("model"))
        tools = _names(data.get("tools"))
        text = "tools updated" + (f" for {model}" if model else "")
        return _system(ts, text + (f": {len(tools)} tools" if tools else ""))
    if kind == "session.mode_changed":
        mode = as_string(data.get("newMode")) or as_string(data.get("mode"), "changed")
        return _system(ts, f"mode: {mode}")
    return None


def _other(kind: str, data: dict[str, Any], ts: str) -> list[TranscriptEntry] | None:
    if kind == "user.message":
        pieces = [as_string(data.get("content")).strip()]
        for attachment in as_list(data.get("attachments")):
            name = as_string(dig(attachment, "displayName")) or as_string(dig(attachment, "path"))
            kind_text = as_string(dig(attachment, "type"), "file")
            pieces.append(f"[{kind_text} attached: {name}]" if name else f"[{kind_text} attached]")
        text = "\n".join(piece for piece in pieces if piece)
        return [{"kind": "user", "ts": ts, "text": text}] if text else []
    if kind == "system.notification":
        return _system(ts, as_string(data.get("content")) or "notification")
    if kind == "abort":
        return _system(ts, f"aborted: {as_string(data.get('reason'), 'by the user')}")
    if kind.startswith("subagent."):
        name = as_string(data.get("agentDisplayName")) or as_string(data.get("agentName"))
        state = kind.removeprefix("subagent.")
        entries = _system(ts, f"subagent {name or 'agent'} {state}")
        if state == "failed":
            error = as_string(data.get("error")) or "failed"
            entries = [{"kind": "stderr", "ts": ts, "text": f"subagent {name}: {error}"}]
        return with_parent(entries, as_string(data.get("toolCallId")))
    if kind.startswith("hook."):
        hook = as_string(data.get("hookType"), "hook")
        return _system(ts, f"hook {hook} {kind.removeprefix('hook.')}")
    return None


class CopilotSessionParser:
    """Reads Copilot CLI session events.

    Remembers tool names by call id, the reasoning texts shown (the same
    reasoning can come as ``assistant.reasoning`` and again as an
    ``assistant.message``'s ``reasoningText``: it is shown once), and, for the
    stdout parser, the ids of messages and reasoning already streamed as deltas.
    """

    __slots__ = ("agents", "model", "model_wanted", "names", "streamed", "thoughts")

    def __init__(self) -> None:
        self.names: _Names = BoundedMap()
        self.agents: _Names = BoundedMap(_THOUGHTS)  # subagent id -> the call that started it
        self.thoughts: BoundedMap[str, bool] = BoundedMap(_THOUGHTS)
        self.streamed: BoundedMap[str, bool] = BoundedMap(_THOUGHTS)
        # Until a session.start names the model: the first record naming one, which the
        # shutdown results name (contract 1.10), as the summary reads it (model_named).
        self.model_wanted = True
        self.model: str | None = None

    def _note_model(self, kind: str, event: dict[str, Any]) -> None:
        if kind == "session.start":
            if model_named(event):
                self.model_wanted, self.model = False, None  # the init names it
        elif self.model is None:
            self.model = model_name(model_named(event))

    def new_thought(self, text: str) -> bool:
        """Whether ``text`` was not shown yet as reasoning (and remember it)."""
        if text in self.thoughts:
            return False
        self.thoughts[text] = True
        return True

    def parent(self, event: dict[str, Any], data: dict[str, Any]) -> str:
        """The tool call whose subagent wrote ``event`` ("" on the main thread)."""
        parent = as_string(data.get("parentToolCallId"))
        agent = as_string(event.get("agentId"))
        if parent or not agent:
            return parent
        return self.agents.get(agent) or (agent if agent in self.names else "")

    def entries(self, kind: str, data: dict[str, Any], ts: str) -> list[TranscriptEntry] | None:
        """The entries of one event, or None when the type is not known."""
        agent = as_string(data.get("agentId"))
        if kind == "subagent.started" and agent:
            self.agents[agent] = as_string(data.get("toolCallId"))
        if kind in _DROPPED:
            return []
        if kind == "assistant.message":
            return _assistant(data, ts, self)
        if kind == "assistant.reasoning":
            return _reasoning(data, ts, self)
        if kind == "tool.execution_start":
            return _tool_start(data, ts, self.names)
        if kind == "tool.execution_complete":
            return _tool_complete(data, ts, self.names)
        entries = _session(kind, data, ts)
        return _other(kind, data, ts) if entries is None else entries

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        event = parse_json_object(line)
        kind = None if event is None else event.get("type")
        if event is None or type(kind) is not str or type(event.get("data")) is not dict:
            return stdout_entries(line, ts)
        ts = iso_timestamp(event.get("timestamp")) or ts
        data: dict[str, Any] = event["data"]
        if self.model_wanted:
            self._note_model(kind, event)
        entries = self.entries(kind, data, ts)
        if entries is None:
            return stdout_entries(line, ts)
        if kind == "session.shutdown" and self.model_wanted and self.model is not None:
            for entry in entries:
                if entry["kind"] == "result":
                    entry["model"] = self.model
        return with_parent(entries, self.parent(event, data))

    def reset(self) -> None:
        self.agents.clear()
        self.names.clear()
        self.thoughts.clear()
        self.streamed.clear()


def model_named(record: dict[str, Any]) -> str:
    """The model an event names: selected at start, changed to, or used for a message."""
    data = as_object(record.get("data"))
    for key in ("selectedModel", "newModel", "model", "currentModel"):
        model = as_string(data.get(key))
        if model:
            return model
    return ""
