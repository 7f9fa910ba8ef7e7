"""Claude Code ``--output-format stream-json`` lines to TranscriptEntries."""

from __future__ import annotations

from typing import Any, Final

import orjson
from linewise_contracts.acpx import parse_acpx_event
from linewise_contracts.entries import (
    InitEntry,
    ResultEntry,
    ToolCallEntry,
    ToolResultEntry,
    TranscriptEntry,
)
from linewise_contracts.extract import (
    BoundedMap,
    as_int,
    as_list,
    as_number,
    as_object,
    as_string,
    content_text,
    diff_entries,
    dig,
    error_text,
    iso_timestamp,
    json_or_placeholder,
    parse_json_object,
    stdout_entries,
    to_json_text,
    with_parent,
)
from linewise_contracts.outcomes import FAILED_OUTCOMES

from linewise_claude.ending import (
    INTERRUPTED,
    cost_source,
    failed,
    message_model,
    result_outcome,
    result_turns,
    result_usage_fields,
)
from linewise_claude.events import side_event_entries, system_event_entries
from linewise_claude.legacy import LegacyUsage, document_events, is_legacy_event, modern_event
from linewise_claude.requests import resolved_request
from linewise_claude.usage import is_internal_error

__all__ = ["ClaudeStdoutParser", "create_stdout_parser", "parse_stdout_line"]

# Tool names remembered for pairing results, and streamed message ids for
# de-duplication: bounded so a very long run cannot grow them without limit.
_REMEMBERED: Final = 4096

_NOTHING: Final[frozenset[str]] = frozenset()
_OMITTED_THINKING: Final = "(thinking omitted: the API returned only its signature)"
_REDACTED_THINKING: Final = "(redacted thinking)"
#: The tools whose call runs a subagent (its entries nest under the call).
_DELEGATE_TOOLS: Final = ("Task", "Agent")
#: orjson's decoder, held here: compiled, a call to it is then direct, not a lookup in orjson.
_loads: Final = orjson.loads


def _line_ts(event: dict[str, Any], ts: str) -> str:
    """The event's own time when it carries one (assistant and user lines), else the host's."""
    own = event.get("timestamp")
    return (iso_timestamp(own) or ts) if own is not None else ts


def _event(line: str) -> dict[str, Any] | None:
    """The JSON object on ``line`` (:func:`parse_json_object`, its common case inline)."""
    try:
        event = _loads(line)
    except orjson.JSONDecodeError:
        return parse_json_object(line)
    return event if type(event) is dict else None


def _parent(event: dict[str, Any]) -> str | None:
    parent = event.get("parent_tool_use_id")
    return parent if type(parent) is str and parent else None


# -- init -------------------------------------------------------------------------------


def _init_entries(event: dict[str, Any], ts: str) -> list[TranscriptEntry]:
    # The rest of the session's configuration (version, tools, MCP servers ...) has no place
    # in the contract's init entry; the plugin README lists it among what entries leave out.
    init: InitEntry = {
        "kind": "init",
        "ts": ts,
        "model": as_string(event.get("model"), "unknown"),
        "sessionId": as_string(event.get("session_id")),
    }
    cwd = event.get("cwd")
    if type(cwd) is str and cwd:
        init["cwd"] = cwd  # contract 1.2
    return [init]


# -- messages --------------------------------------------------------------------------


def _tool_call(block: dict[str, Any], ts: str, names: BoundedMap[str, str] | None) -> ToolCallEntry:
    name = block.get("name")
    if type(name) is not str:
        name = "tool"
    given = block.get("input")
    if given is None and "input" not in block:
        given = {}
    call: ToolCallEntry = {
        "kind": "tool_call",
        "ts": ts,
        "name": name,
        "input": json_or_placeholder(given),
    }
    if name in _DELEGATE_TOOLS:
        call["startsSubagent"] = True  # contract 1.5: the Task/Agent tool runs a subagent
    ident = block.get("id")
    if type(ident) is str:
        call["toolUseId"] = ident
        if names is not None:
            names[ident] = name
    return call


def _said(kind: str, ts: str, text: str) -> TranscriptEntry:
    if kind == "stderr":
        return {"kind": "stderr", "ts": ts, "text": text}
    return {"kind": "assistant", "ts": ts, "text": text}


def _assistant_entries(
    event: dict[str, Any], ts: str, skip: frozenset[str], names: BoundedMap[str, str] | None
) -> list[TranscriptEntry]:
    entries: list[TranscriptEntry] = []
    error = event.get("error")
    command = event.get("local_command_run")
    if error:
        entries.append({"kind": "stderr", "ts": ts, "text": f"API error: {error_text(error)}"})
    if command and type(command) is dict:
        outcome = as_string(dig(event, "local_command_outcome", "kind"))
        run = f"/{as_string(command.get('command'))} {as_string(command.get('args'))}".rstrip()
        entries.append(
            {"kind": "system", "ts": ts, "text": f"local command {run}" + f" {outcome}".rstrip()}
        )
    # Text is stderr when the message reports an API error or a failed local command.
    ended = event.get("local_command_outcome")
    failed = ended is not None and type(ended) is dict and ended.get("kind") == "failed"
    text_kind = "stderr" if error or failed else "assistant"
    message = event.get("message")
    content = message.get("content") if type(message) is dict else None
    if type(content) is str:
        if content:
            entries.append(_said(text_kind, ts, content))
        return entries
    if type(content) is not list:
        content = ()
    for block in content:
        if type(block) is not dict:
            continue
        given = block.get("type")
        # A str to compare (natively, compiled); a type that is no str is no known block.
        kind: str = given if type(given) is str else ""
        if kind == "text":
            text = block.get("text")
            if type(text) is str and text and (not skip or "text" not in skip):
                if text_kind == "assistant":
                    entries.append({"kind": "assistant", "ts": ts, "text": text})
                else:
                    entries.append({"kind": "stderr", "ts": ts, "text": text})
        elif kind in ("tool_use", "server_tool_use", "mcp_tool_use"):
            entries.append(_tool_call(block, ts, names))
        elif kind == "thinking":
            if "thinking" not in skip:
                text = as_string(block.get("thinking"))
                entries.append({"kind": "thinking", "ts": ts, "text": text or _OMITTED_THINKING})
        elif kind == "redacted_thinking":
            entries.append({"kind": "thinking", "ts": ts, "text": _REDACTED_THINKING})
        elif not kind:
            continue
        elif kind.endswith("_tool_result"):
            # Server-side tools (web search, code execution, MCP) report inline.
            entries.append(_tool_result(block, ts, names))
        elif kind == "image":
            entries.append({"kind": "assistant", "ts": ts, "text": content_text([block])})
        else:
            text = f"assistant {kind} block: {to_json_text(block)}"
            entries.append({"kind": "system", "ts": ts, "text": text})
    if event.get("aborted") is True:
        entries.append({"kind": "system", "ts": ts, "text": "message cut off by an interrupt"})
    return entries


def _tool_result(
    block: dict[str, Any], ts: str, names: BoundedMap[str, str] | None
) -> ToolResultEntry:
    ident = block.get("tool_use_id")
    if type(ident) is not str:
        ident = ""
    content = block.get("content")
    text = content if type(content) is str else content_text(content)
    failed = block.get("is_error") is True
    name = names.get(ident) if names is not None else None
    if name is None:
        return {
            "kind": "tool_result",
            "ts": ts,
            "toolUseId": ident,
            "content": text,
            "isError": failed,
        }
    # Made whole: a toolName set afterwards would grow the dict past its first size.
    return {
        "kind": "tool_result",
        "ts": ts,
        "toolUseId": ident,
        "content": text,
        "isError": failed,
        "toolName": name,
    }


def _structured_patch(details: dict[str, Any]) -> str:
    """The unified diff of an Edit/Write result's ``structuredPatch`` hunks."""
    path = as_string(details.get("filePath"))
    lines = [f"--- {path}", f"+++ {path}"] if path else []
    for item in as_list(details.get("structuredPatch")):
        hunk = as_object(item)
        old = f"{as_int(hunk.get('oldStart'))},{as_int(hunk.get('oldLines'))}"
        new = f"{as_int(hunk.get('newStart'))},{as_int(hunk.get('newLines'))}"
        lines.append(f"@@ -{old} +{new} @@")
        lines.extend(line for line in as_list(hunk.get("lines")) if type(line) is str)
    return "\n".join(lines) if len(lines) > 2 or (lines and not path) else ""


def _result_details(result: ToolResultEntry, details: object, ts: str) -> list[TranscriptEntry]:
    """What ``tool_use_result`` says beyond the result text: a diff, a Bash interruption."""
    if type(details) is not dict:
        return []
    extra: list[TranscriptEntry] = []
    stderr = as_string(details.get("stderr"))
    if stderr and stderr not in result["content"]:
        result["content"] += ("\n" if result["content"] else "") + stderr
    if details.get("interrupted") is True:
        result["content"] += ("\n" if result["content"] else "") + "(interrupted)"
    patch = _structured_patch(details)
    if patch:
        # Every line of the diff: entries are data, renderers shorten.
        extra.extend(diff_entries(patch, ts, limit=patch.count("\n") + 1))
    return extra


def _user_entries(
    event: dict[str, Any], ts: str, names: BoundedMap[str, str] | None
) -> list[TranscriptEntry]:
    # Harness-written user turns (hook feedback, a compaction summary) are not the person's,
    # nor are turns whose `origin` (Claude Code 2026) is not "human": a channel, a peer
    # session, a task notification, the coordinator, an auto-continuation ...
    origin = _origin(event)
    text_kind = "system" if event.get("isSynthetic") is True or origin else "user"
    message = event.get("message")
    content = message.get("content") if type(message) is dict else None
    if type(content) is str:
        return [_user_text(text_kind, ts, content, origin)] if content.strip() else []
    entries: list[TranscriptEntry] = []
    details = event.get("tool_use_result")
    if type(content) is not list:
        content = ()
    for block in content:
        if type(block) is str:
            if block.strip():
                entries.append(_user_text(text_kind, ts, block, origin))
            continue
        if type(block) is not dict:
            continue
        kind = block.get("type")
        if kind == "tool_result":
            result = _tool_result(block, ts, names)
            entries.append(result)
            if details is not None and type(details) is dict:
                entries.extend(_result_details(result, details, ts))
        elif kind == "text":
            text = as_string(block.get("text"))
            if text.strip():
                entries.append(_user_text(text_kind, ts, text, origin))
        elif type(kind) is str and kind:
            entries.append(_user_text(text_kind, ts, content_text([block])))
    return entries


def _origin(event: dict[str, Any]) -> str:
    """Who wrote a user turn when it was not the person ("" for a human's or an older CLI's)."""
    origin = event.get("origin")
    if origin is None:  # most turns (and every older CLI's): no call for nothing
        return ""
    kind = as_string(as_object(origin).get("kind")) if type(origin) is dict else as_string(origin)
    return "" if kind in ("", "human") else kind


def _user_text(kind: str, ts: str, text: str, origin: str = "") -> TranscriptEntry:
    if kind == "system" or text.startswith(INTERRUPTED):
        return {"kind": "system", "ts": ts, "text": f"({origin}) {text}" if origin else text}
    return {"kind": "user", "ts": ts, "text": text}


# -- the result ---------------------------------------------------------------------------


def _result_entries(
    event: dict[str, Any], ts: str, *, interrupted: bool = False, fields: bool = True
) -> list[TranscriptEntry]:
    """The result's notes, its ``result`` entry and its ``run_terminal``.

    ``interrupted``: a person stopped the session before its result (the
    stateful parser knows; a single line cannot tell). ``fields``: the result
    carries the contract 1.5 summary fields (Claude Code's own meaning of its
    counts); without them it is the 1.4 entry.
    """
    entries: list[TranscriptEntry] = []
    denials = [as_object(denial) for denial in as_list(event.get("permission_denials"))]
    if denials:
        names = ", ".join(
            f"{as_string(d.get('tool_name'), 'tool')} ({as_string(d.get('tool_use_id'))})"
            for d in denials
        )
        entries.append(
            {"kind": "system", "ts": ts, "text": f"tool calls denied ({len(denials)}): {names}"}
        )
    reason = as_string(event.get("terminal_reason"))
    if reason and reason != "completed":
        entries.append({"kind": "system", "ts": ts, "text": f"run ended: {reason}"})
    startup = as_string(event.get("startup_failure_reason"))
    if startup:
        entries.append(
            {"kind": "stderr", "ts": ts, "text": f"Claude Code did not start: {startup}"}
        )
    if "structured_output" in event:
        # --json-schema: the answer as data; shown whole (views shorten it for display).
        shown = to_json_text(event.get("structured_output"), pretty=True)
        entries.append({"kind": "system", "ts": ts, "text": f"structured output:\n{shown}"})
    subtype = as_string(event.get("subtype"))
    # The CLI's own per-result ``usage`` (main loop), as the reference reports it: the
    # wire's numbers. The session's tokens in the usage vocabulary (modelUsage, subagents
    # included) are the 1.5 ``usage`` field (ending.py, one definition with the summary).
    usage = as_object(event.get("usage"))
    outcome = result_outcome(event, interrupted=interrupted)
    result: ResultEntry = {
        "kind": "result",
        "ts": ts,
        "text": as_string(event.get("result")),
        "inputTokens": as_number(usage.get("input_tokens")),
        "outputTokens": as_number(usage.get("output_tokens")),
        "cachedTokens": as_number(usage.get("cache_read_input_tokens")),
        "costUsd": as_number(event.get("total_cost_usd")),
        "subtype": subtype,
        # A run stopped by a limit (error_max_turns, error_max_budget_usd, a max_turns
        # stop reason) failed, whatever is_error says.
        "isError": failed(event) or outcome in FAILED_OUTCOMES,
        "errors": _result_errors(event),
    }
    if fields:
        counts, models = result_usage_fields(event)
        if counts is not None:
            result["usage"] = counts
        result["costSource"] = cost_source(event)
        result["outcome"] = outcome
        turns = result_turns(event)
        if turns is not None:
            result["turns"] = turns
        if models is not None:
            result["modelUsage"] = models
        session = event.get("session_id")
        if type(session) is str and session:
            # The usage and cost of a result are its session's so far (contract 1.5).
            result["sessionId"] = session
    entries.append(result)
    entries.append(_run_terminal(event, subtype, result["isError"], ts))
    return entries


# terminal_reason words that say a person or the caller stopped the run.
_STOPPED: Final = ("abort", "interrupt", "cancel")


def _run_terminal(event: dict[str, Any], subtype: str, is_failed: bool, ts: str) -> TranscriptEntry:
    """The result's end state as contract 1.3's ``run_terminal`` (shown in the run header)."""
    reason = as_string(event.get("terminal_reason"))
    if any(word in reason for word in _STOPPED):
        states = ("interrupted", "cancelled", "yielded")
    elif is_failed:
        states = ("failed", "failed", "blocked")
    else:
        states = ("completed", "succeeded", "done")
    entry: dict[str, Any] = {
        "kind": "run_terminal",
        "ts": ts,
        "turnState": states[0],
        "runState": states[1],
        "disposition": states[2],
    }
    stop = reason or (subtype if is_failed else "") or as_string(event.get("stop_reason"))
    if stop:
        entry["stopReason"] = stop
    return entry  # type: ignore[return-value]


def _result_errors(event: dict[str, Any]) -> list[str]:
    errors = [
        text
        for text in (error_text(error) for error in as_list(event.get("errors")))
        if not is_internal_error(text)
    ]
    status = event.get("api_error_status")
    if type(status) is int:
        message = as_string(event.get("result")).strip()
        errors.append(f"API error {status}" + (f": {message}" if message else ""))
    return errors


# -- partial messages -----------------------------------------------------------------------


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


def _entries(
    event: dict[str, Any],
    line: str,
    ts: str,
    skip: frozenset[str] = _NOTHING,
    names: BoundedMap[str, str] | None = None,
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
            return _init_entries(event, ts)
        return system_event_entries(event, ts)
    if kind == "result":
        return _result_entries(event, ts)
    if is_legacy_event(event):  # Claude Code before 1.0: a bare API message
        return _entries(modern_event(event), line, ts, skip, names)
    side = side_event_entries(event, ts)
    if side is not None:
        return side
    if kind == "ping":
        return []
    shared = parse_acpx_event(event, ts)  # Paperclip's ACP engine events, shared by several CLIs
    if shared is not None:
        return shared
    if type(kind) is str and kind and "uuid" in event and "session_id" in event:
        # A newer Claude Code event (its envelope: uuid and session_id): a sentence, not raw JSON.
        rest = {k: v for k, v in event.items() if k not in ("type", "uuid", "session_id")}
        return [{"kind": "system", "ts": ts, "text": f"{kind}: {to_json_text(rest)}"}]
    return stdout_entries(line, ts)


def _task_parent(event: dict[str, Any], names: BoundedMap[str, str] | None) -> str | None:
    """The Task/Agent call a ``task_*`` system event reports on: its entries nest under it.

    Background shell commands and monitors are tasks too; their events stay on the
    main thread (``parentToolUseId`` names subagents only).
    """
    if event.get("type") != "system" or not as_string(event.get("subtype")).startswith("task_"):
        return None
    ident = event.get("tool_use_id")
    if type(ident) is not str or not ident:
        return None
    delegated = names is not None and names.get(ident) in _DELEGATE_TOOLS
    if delegated or event.get("subagent_type") or event.get("task_type") == "local_agent":
        return ident
    return None


def _with_context(
    event: dict[str, Any],
    entries: list[TranscriptEntry],
    names: BoundedMap[str, str] | None = None,
) -> list[TranscriptEntry]:
    return with_parent(entries, _parent(event) or _task_parent(event, names))


def parse_stdout_line(line: str, ts: str) -> list[TranscriptEntry]:
    """One Claude stream-json line to entries (stateless; prefer :func:`create_stdout_parser`)."""
    event = parse_json_object(line)
    if event is None:
        document = document_events(line)
        if document is not None:  # --output-format json --verbose: an array of messages
            return [
                entry
                for item in document
                for entry in _with_context(item, _entries(item, line, _line_ts(item, ts)))
            ]
        return stdout_entries(line, ts)
    return _with_context(event, _entries(event, line, _line_ts(event, ts)))


class ClaudeStdoutParser:
    """The stateful Claude parser, which adds two things to :func:`parse_stdout_line`.

    With ``--include-partial-messages`` Claude streams text and thinking as
    ``stream_event`` deltas and then repeats them in the complete ``assistant``
    message; this parser emits the deltas and skips the repeat. It also
    remembers tool names by id, so tool results carry ``toolName``.

    ``summary_fields``: results carry the contract 1.5 summary fields, read
    with Claude Code's meaning of its counts (:func:`create_stdout_parser`
    makes such a parser). A parser of a Claude-compatible CLI that counts
    otherwise (Qwen Code's ``input_tokens`` include the cache reads) makes
    one without them and gets the 1.4 result, its own counts untouched.
    """

    __slots__ = (
        "_current",
        "_fields",
        "_interrupted",
        "_last_result",
        "_legacy",
        "_model_wanted",
        "_named_model",
        "_names",
        "_requests",
        "_sessions",
        "_streamed",
        "_streaming",
    )

    def __init__(self, *, summary_fields: bool = False) -> None:
        self._fields = summary_fields
        self._names: BoundedMap[str, str] = BoundedMap(_REMEMBERED)
        # Permission prompts not answered yet, by control request id and by tool use id.
        # Each maps to the request's entry and its other key.
        self._requests: BoundedMap[str, tuple[dict[str, Any], str]] = BoundedMap(_REMEMBERED)
        # message id -> block kinds ("text", "thinking") already streamed as deltas
        self._streamed: BoundedMap[str, frozenset[str]] = BoundedMap(_REMEMBERED)
        self._current: str | None = None  # id of the message being streamed
        self._streaming = False  # whether any deltas were seen (most runs have none)
        self._legacy = LegacyUsage()  # the pre-1.0 stream's tokens, for its last line
        # A person stopped the session since the last result ("[Request interrupted by user").
        self._interrupted = False
        # The last result's session and result_index; the sessions results named.
        self._last_result: tuple[object, object] | None = None
        self._sessions: BoundedMap[str, bool] = BoundedMap(_REMEMBERED)
        # No init named the model yet: the first main-thread message's names it (results
        # carry it, contract 1.10; the summary reads it the same way).
        self._model_wanted = summary_fields
        self._named_model: str | None = None

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        event = _event(line)
        if event is None:
            document = document_events(line)
            if document is not None:  # --output-format json --verbose: an array of messages
                return [entry for item in document for entry in self._parse_event(item, line, ts)]
            return stdout_entries(line, ts)
        return self._parse_event(event, line, ts)

    def _parse_event(self, event: dict[str, Any], line: str, ts: str) -> list[TranscriptEntry]:
        own = event.get("timestamp")
        if own is not None:
            ts = iso_timestamp(own) or ts
        given = event.get("type")
        # A str to compare (natively, compiled); "" for a type that is no str, which is
        # none of the names below either.
        kind: str = given if type(given) is str else ""
        if kind == "assistant":
            skip = _NOTHING
            if self._streaming:
                ident = dig(event, "message", "id")
                if type(ident) is str:
                    skip = self._streamed.get(ident) or skip
            entries = _assistant_entries(event, ts, skip, self._names)
            if self._model_wanted:
                self._note_model(event)
        elif kind == "user":
            entries = _user_entries(event, ts, self._names)
            if not self._interrupted:
                for entry in entries:
                    if entry["kind"] == "system" and entry["text"].startswith(INTERRUPTED):
                        self._interrupted = True
        elif kind == "result":
            entries = self._result(event, ts)
        elif kind == "stream_event":
            entries = self._stream_event(event, ts)
        elif is_legacy_event(event):  # Claude Code before 1.0: a bare API message
            return self._parse_event(modern_event(event, self._legacy), line, ts)
        else:
            entries = _entries(event, line, ts, _NOTHING, self._names)
            if self._model_wanted and kind == "system" and event.get("subtype") == "init":
                self._model_wanted = not as_string(event.get("model"))
            if kind in ("control_request", "control_response"):
                entries = self._requested(event, entries, ts)
        if self._requests and kind == "user":
            entries = self._answered(event, entries, ts)
        # _with_context, its common case inline: a main-thread message.
        parent = event.get("parent_tool_use_id")
        if parent is not None and type(parent) is str and parent:
            return with_parent(entries, parent)
        if kind == "system":
            return with_parent(entries, _task_parent(event, self._names))
        return entries

    def _result(self, event: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        """The result's entries; its ``sessionId`` only where its figures are that session's.

        A multi-turn session's results carry running totals (``result_index``
        counts them): each names the session, the latest counts. A session
        named again otherwise (a resumed session concatenated after another)
        reports its own figures, which add up: that result names no session.
        """
        entries = _result_entries(event, ts, interrupted=self._interrupted, fields=self._fields)
        self._interrupted = False
        if not self._fields:
            return entries
        if self._named_model is not None:
            for entry in entries:
                if entry["kind"] == "result":
                    entry["model"] = self._named_model
        session, index = event.get("session_id"), event.get("result_index")
        last, self._last_result = self._last_result, (session, index)
        if type(session) is not str or not session:
            return entries
        continues = (
            last is not None
            and last[0] == session
            and type(index) is int
            and type(last[1]) is int
            and index > last[1]
        )
        if session in self._sessions and not continues:
            for entry in entries:
                if entry["kind"] == "result":
                    del entry["sessionId"]
        self._sessions[session] = True
        return entries

    def _note_model(self, event: dict[str, Any]) -> None:
        """The model a main-thread message names, when no init named one (a subagent's
        messages may run on another model)."""
        parent = event.get("parent_tool_use_id")
        if type(parent) is str and parent:
            return
        model = message_model(as_object(event.get("message")))
        if model is not None:
            self._named_model = model
            self._model_wanted = False

    def _requested(
        self, event: dict[str, Any], entries: list[TranscriptEntry], ts: str
    ) -> list[TranscriptEntry]:
        """Remember a permission prompt; a control response to one gives its answered snapshot."""
        if event.get("type") == "control_request":
            for entry in entries:
                if entry["kind"] == "runtime_request":
                    asked: dict[str, Any] = entry  # type: ignore[assignment]
                    tool = as_string(as_object(event.get("request")).get("tool_use_id"))
                    self._requests[asked["requestId"]] = (asked, tool)
                    if tool:
                        self._requests[tool] = (asked, asked["requestId"])
            return entries
        response = as_object(event.get("response"))
        behavior = as_string(as_object(response.get("response")).get("behavior"))
        pending = self._requests.pop(as_string(response.get("request_id")))
        if pending is None or behavior not in ("allow", "deny"):
            return entries
        self._requests.pop(pending[1])
        return [resolved_request(pending[0], ts, behavior=behavior)]  # type: ignore[list-item]

    def _answered(
        self, event: dict[str, Any], entries: list[TranscriptEntry], ts: str
    ) -> list[TranscriptEntry]:
        """A tool result answers the prompt that asked for its call: the answered snapshot first."""
        out: list[TranscriptEntry] = []
        for entry in entries:
            if entry["kind"] == "tool_result":
                pending = self._requests.pop(entry["toolUseId"])
                if pending is not None:
                    self._requests.pop(pending[1])
                    result: dict[str, Any] = entry  # type: ignore[assignment]
                    details = event.get("tool_use_result")
                    answered = resolved_request(pending[0], ts, result=result, details=details)
                    out.append(answered)  # type: ignore[arg-type]
            out.append(entry)
        return out

    def _stream_event(self, event: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        inner = as_object(event.get("event"))
        if inner.get("type") == "message_start":
            ident = dig(inner, "message", "id")
            self._current = ident if type(ident) is str else None
            return []
        entries = _stream_delta(event, ts)
        if entries and self._current is not None:
            block = "text" if entries[0]["kind"] == "assistant" else "thinking"
            seen = self._streamed.get(self._current) or frozenset()
            if block not in seen:
                self._streamed[self._current] = seen | {block}
                self._streaming = True
        return entries

    def reset(self) -> None:
        self._names.clear()
        self._requests.clear()
        self._streamed.clear()
        self._current = None
        self._streaming = False
        self._legacy.take()
        self._interrupted = False
        self._last_result = None
        self._sessions.clear()
        self._model_wanted = self._fields
        self._named_model = None


def create_stdout_parser() -> ClaudeStdoutParser:
    """A fresh stateful Claude parser for one transcript (its results with the 1.5 fields)."""
    return ClaudeStdoutParser(summary_fields=True)
