"""Codex CLI ``codex exec --json`` lines to TranscriptEntries."""

from __future__ import annotations

import math
import re
from typing import Any, Final

from linewise_contracts.acpx import parse_acpx_event
from linewise_contracts.activity import plan_activity
from linewise_contracts.entries import (
    JsonValue,
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
    diff_entries,
    dig,
    error_text,
    iso_timestamp,
    json_or_placeholder,
    stdout_entries,
    strip_ansi,
    to_json_text,
    with_parent,
)

from linewise_codex.legacy import is_legacy_event, legacy_entries, legacy_result

# Defined beside the sniff, which detection imports alone.
from linewise_codex.sniff import CODEX_EVENT_TYPES, read_event, read_event_at
from linewise_codex.usage import token_usage, with_session_fields

__all__ = [
    "CODEX_EVENT_TYPES",
    "CodexStdoutParser",
    "create_stdout_parser",
    "parse_stdout_line",
    "read_event",
    "read_event_at",
]

# Items that are tool invocations: a tool_call when they start, a tool_result when they complete.
_TOOL_ITEMS: Final = (
    "command_execution",
    "mcp_tool_call",
    "web_search",
    "collab_tool_call",
    "tool_use",
)
_FAILED: Final = ("failed", "errored", "error", "cancelled", "declined")
#: The collab tool that starts a sub-agent thread (``exec --json``, rollouts), and its
#: app-server name (CollabAgentTool, camelCase).
SPAWN_TOOLS: Final = ("spawn_agent", "spawnAgent")
_PHASES: Final = {
    "item.started": "started",
    "item.updated": "updated",
    "item.completed": "completed",
}
# Tool ids remembered for pairing and de-duplication: bounded so a long run cannot grow them.
_REMEMBERED: Final = 4096
# A diff longer than this many lines is cut with a truncation entry.
_DIFF_LINES: Final = 2000

# Codex's own tracing log on stderr, when a capture mixed it into stdout:
# "2025-09-27T03:52:30.590128Z  INFO codex_core::config: cwd not set" (colours removed first).
_TRACING: Final = re.compile(
    r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z) +(?:TRACE|DEBUG|INFO|WARN|ERROR) +[\w:]+: "
)
_ERROR_KEYS: Final = ("message", "error", "code")


def _text_line(line: str, ts: str) -> list[TranscriptEntry]:
    """A line that is no event: Codex's tracing log as ``stderr`` at its own time, else raw."""
    if "\x1b" in line or line[:1].isdigit():
        plain = strip_ansi(line)
        match = _TRACING.match(plain)
        if match is not None:
            return [{"kind": "stderr", "ts": iso_timestamp(match.group(1)) or ts, "text": plain}]
    return stdout_entries(line, ts)


def _error_text(value: object) -> str:
    """A message from an error value: a str, or an object's message, error or code."""
    if type(value) is not str and type(value) is not dict:
        return ""
    return error_text(value, _ERROR_KEYS)


def _json_text(value: object) -> str:
    if type(value) is str:
        return value
    return "" if value is None else to_json_text(value, pretty=True)


def _first_present(*values: object) -> object:
    return next((value for value in values if value is not None), None)


# -- tool items -----------------------------------------------------------------


def _tool_use_id(item: dict[str, Any]) -> str:
    kind = item.get("type")
    if type(kind) is str and kind == "command_execution":
        ident = item.get("id")
        if type(ident) is str and ident:
            return ident
        return as_string(item.get("command")) or "command_execution"
    if kind == "tool_use":
        return as_string(item.get("id"), as_string(item.get("name"), "unknown") or "tool_use")
    return as_string(item.get("id")) or as_string(kind, "tool")


def _tool_name(item: dict[str, Any]) -> str:
    kind = item.get("type")
    if kind == "mcp_tool_call":
        server, tool = as_string(item.get("server")), as_string(item.get("tool"), "tool")
        return f"{server}.{tool}" if server else tool
    if kind == "collab_tool_call":
        return as_string(item.get("tool"), "collab_tool_call")
    if kind == "tool_use":
        return as_string(item.get("name"), "unknown")
    return as_string(kind, "tool")


def _tool_input(item: dict[str, Any]) -> JsonValue:
    kind = item.get("type")
    if type(kind) is str and kind == "command_execution":
        ident, command = item.get("id"), item.get("command")  # as_string, inline
        return {
            "id": ident if type(ident) is str else "",
            "command": command if type(command) is str else "",
        }
    if kind == "mcp_tool_call":
        arguments = item.get("arguments")
        return {} if arguments is None else arguments
    if kind == "web_search":
        query: dict[str, JsonValue] = {"query": as_string(item.get("query"))}
        if "action" in item:
            query["action"] = item["action"]
        return query
    if kind == "collab_tool_call":
        keys = ("receiver_thread_ids", "prompt")
        return {key: item[key] for key in keys if item.get(key) is not None}
    tool_input = item.get("input")
    return {} if tool_input is None else tool_input


def _tool_call(item: dict[str, Any], ts: str, ident: str | None = None) -> ToolCallEntry:
    kind = item.get("type")
    if type(kind) is str and kind == "command_execution":
        # The most common call; its input is made here of two strs, plain JSON already.
        tool_input: JsonValue = _tool_input(item)
        name = "command_execution"
    else:
        tool_input = json_or_placeholder(_tool_input(item))
        name = _tool_name(item)
    call: ToolCallEntry = {
        "kind": "tool_call",
        "ts": ts,
        "name": name,
        "toolUseId": _tool_use_id(item) if ident is None else ident,
        "input": tool_input,
    }
    if name in SPAWN_TOOLS and item.get("type") == "collab_tool_call":
        call["startsSubagent"] = True  # contract 1.5: the call starts an agent thread
    return call


def _exit_code(value: object) -> int | float | None:
    number = as_number(value, math.inf)
    if number == math.inf:
        return None
    return int(number) if float(number).is_integer() else number


def _command_output(item: dict[str, Any]) -> tuple[str, bool]:
    command = item.get("command")
    status = item.get("status")
    code = item.get("exit_code")
    output = item.get("aggregated_output")
    if (
        type(command) is str
        and command
        and type(status) is str
        and status
        and type(code) is int
        and -(2**53) <= code <= 2**53
        and type(output) is str
    ):
        # The usual completed command, written at once: what the lines below join to.
        output = output.rstrip()
        failed = code != 0 or status in _FAILED
        if output:
            return f"command: {command}\nstatus: {status}\nexit_code: {code}\n\n{output}", failed
        return f"command: {command}\nstatus: {status}\nexit_code: {code}", failed
    command, status = as_string(command), as_string(status)
    # An int exit code (the usual) is itself; anything else goes through _exit_code.
    exit_code = code if type(code) is int and -(2**53) <= code <= 2**53 else _exit_code(code)
    output = as_string(output).rstrip()
    lines = [f"command: {command}"] if command else []
    if status:
        lines.append(f"status: {status}")
    if exit_code is not None:
        lines.append(f"exit_code: {exit_code}")
    if output:
        lines.extend(("", output) if lines else (output,))
    failed = (exit_code is not None and exit_code != 0) or status in _FAILED
    return "\n".join(lines).strip() or "command completed", failed


def _mcp_output(item: dict[str, Any]) -> tuple[str, bool]:
    error = item.get("error")
    failed = item.get("status") in _FAILED or bool(error)
    result = as_object(item.get("result"))
    text = content_text(result.get("content")) if result.get("content") else ""
    if not text and result.get("structured_content") is not None:
        text = _json_text(result["structured_content"])
    if not text and error is not None:
        text = _error_text(error)
    return text or f"{_tool_name(item)} {'failed' if failed else 'completed'}", failed


def _search_results(item: dict[str, Any]) -> list[str]:
    """Codex 0.157+ lists what a search found: title, address and snippet of each result."""
    lines = []
    for result in as_list(item.get("results")):
        if type(result) is not dict:
            continue
        title = as_string(result.get("title")) or as_string(result.get("domain")) or "result"
        where = as_string(result.get("url")) or as_string(result.get("ref_id"))
        lines.append(f"- {title}" + (f" ({where})" if where else ""))
        snippet = as_string(result.get("snippet"))
        if snippet:
            lines.append(f"  {snippet}")
    return lines


def _web_search_output(item: dict[str, Any]) -> str:
    action = as_object(item.get("action"))
    kind = action.get("type")
    query = as_string(item.get("query"))
    if kind == "open_page":
        head = f"opened {as_string(action.get('url')) or query}"
    elif kind == "find_in_page":
        pattern = as_string(action.get("pattern"))
        head = f"searched {as_string(action.get('url')) or 'the page'} for {pattern!r}"
    else:
        queries = [q for q in as_list(action.get("queries")) if type(q) is str and q != query]
        searched = "\n".join(q for q in [query or as_string(action.get("query")), *queries] if q)
        head = f"searched: {searched}" if searched or kind != "other" else "web search"
    return "\n".join([head, *_search_results(item)])


def _collab_output(item: dict[str, Any]) -> tuple[str, bool]:
    """Each agent's state ("thread: completed (its message)"), else the threads it addressed."""
    lines = []
    for thread, state in as_object(item.get("agents_states")).items():
        status = as_string(dig(state, "status"), "unknown")
        message = as_string(dig(state, "message"))
        lines.append(f"{thread}: {status}" + (f" ({message})" if message else ""))
    failed = item.get("status") in _FAILED
    if not lines:
        threads = [t for t in as_list(item.get("receiver_thread_ids")) if type(t) is str]
        outcome = "failed" if failed else "completed"
        lines.append(
            f"{_tool_name(item)} {outcome}" + (f": {', '.join(threads)}" if threads else "")
        )
    return "\n".join(lines), failed


def _tool_use_output(item: dict[str, Any]) -> tuple[str, bool]:
    failed = item.get("is_error") is True or item.get("status") in _FAILED
    raw = _first_present(
        *(item.get(key) for key in ("content", "output", "result", "error", "message"))
    )
    text = as_string(raw) or _error_text(raw) or _json_text(raw)
    return (
        text or f"{as_string(item.get('name'), 'unknown')} {'failed' if failed else 'completed'}",
        failed,
    )


def _tool_result(
    item: dict[str, Any], ts: str, ident: str | None = None, name: str | None = None
) -> ToolResultEntry:
    """The result of a tool item; with ``name``, its ``toolName`` (the stateful parser's)."""
    kind = item.get("type")
    if type(kind) is str and kind == "command_execution":
        content, failed = _command_output(item)
    elif kind == "mcp_tool_call":
        content, failed = _mcp_output(item)
    elif kind == "web_search":
        content, failed = _web_search_output(item), item.get("status") in _FAILED
    elif kind == "collab_tool_call":
        content, failed = _collab_output(item)
    else:
        content, failed = _tool_use_output(item)
    ident = _tool_use_id(item) if ident is None else ident
    if name is None:
        return {
            "kind": "tool_result",
            "ts": ts,
            "toolUseId": ident,
            "content": content,
            "isError": failed,
        }
    # Made whole: a toolName set afterwards would grow the dict past its first size.
    return {
        "kind": "tool_result",
        "ts": ts,
        "toolUseId": ident,
        "content": content,
        "isError": failed,
        "toolName": name,
    }


# -- other items ------------------------------------------------------------------


def _changes_text(changes: list[str]) -> str:
    more = f" (+{len(changes) - 6} more)" if len(changes) > 6 else ""
    return ", ".join(changes[:6]) + more


def _diff_entries(changes: list[dict[str, Any]], ts: str) -> list[TranscriptEntry]:
    """Newer Codex versions attach each file's unified diff to the change."""
    entries: list[TranscriptEntry] = []
    budget = _DIFF_LINES
    for change in changes:
        diff = change.get("diff")
        if type(diff) is not str or not diff.strip():
            continue
        lines = diff.splitlines()
        if not lines[0].startswith(("---", "diff ")):
            path = as_string(change.get("path"), "unknown")
            entries.append({"kind": "diff", "ts": ts, "changeType": "file_header", "text": path})
        entries.extend(diff_entries(diff, ts, limit=budget))
        budget = max(budget - len(lines), 0)
    return entries


def _file_change(item: dict[str, Any], ts: str, phase: str) -> list[TranscriptEntry]:
    changes = [change for change in as_list(item.get("changes")) if type(change) is dict]
    described = [
        f"{as_string(change.get('kind'), 'update')} {as_string(change.get('path'), 'unknown')}"
        for change in changes
    ]
    if phase != "completed":
        text = "applying file changes" + (f": {_changes_text(described)}" if described else "")
        return [{"kind": "system", "ts": ts, "text": text}]
    if not described:
        return [{"kind": "system", "ts": ts, "text": "file changes applied"}]
    verb = "file changes failed" if item.get("status") in _FAILED else "file changes"
    entries: list[TranscriptEntry] = [
        {"kind": "system", "ts": ts, "text": f"{verb}: {_changes_text(described)}"}
    ]
    return entries + _diff_entries(changes, ts)


def _todo_plan(item: dict[str, Any], ts: str) -> TranscriptEntry:
    """A ``todo_list`` item as contract 1.3's plan card (each item done or pending)."""
    steps = [
        ("completed" if step.get("completed") is True else "pending", as_string(step.get("text")))
        for step in as_list(item.get("items"))
        if type(step) is dict
    ]
    return plan_activity(ts, steps, plan_id=as_string(item.get("id")))  # type: ignore[return-value]


def _explicit_result(item: dict[str, Any], ts: str) -> ToolResultEntry:
    """A ``tool_result`` item (Paperclip's tool shapes): its payload wins over the tool_use's."""
    raw = _first_present(item.get("content"), item.get("output"), item.get("result"))
    return {
        "kind": "tool_result",
        "ts": ts,
        "toolUseId": as_string(item.get("tool_use_id"), as_string(item.get("id"))),
        "content": _json_text(raw),
        "isError": item.get("is_error") is True or item.get("status") == "error",
    }


def _item_entries(item: dict[str, Any], ts: str, phase: str) -> list[TranscriptEntry]:
    given = item.get("type")
    kind = given if type(given) is str else ""  # as_string, inline
    if kind in ("agent_message", "plan"):
        text = as_string(item.get("text"))
        return [{"kind": "assistant", "ts": ts, "text": text}] if text else []
    if kind == "reasoning":
        text = as_string(item.get("text"))
        if text:
            return [{"kind": "thinking", "ts": ts, "text": text}]
        return [{"kind": "system", "ts": ts, "text": f"reasoning {phase}"}]
    if kind in _TOOL_ITEMS:
        if phase == "completed":
            return [_tool_result(item, ts)]
        return [_tool_call(item, ts)]
    if kind == "file_change":
        return _file_change(item, ts, phase)
    if kind == "todo_list":
        return [_todo_plan(item, ts)]
    if kind == "tool_result" and phase == "completed":
        return [_explicit_result(item, ts)]
    if kind == "error":
        # Codex reports non-fatal warnings (config, deprecations, model reroutes) as error items.
        text = _error_text(_first_present(item.get("message"), item.get("error"), item))
        return [{"kind": "stderr", "ts": ts, "text": text or "error"}]
    ident, status = as_string(item.get("id")), as_string(item.get("status"))
    meta = " ".join(
        part
        for part in (f"id={ident}" if ident else "", f"status={status}" if status else "")
        if part
    )
    return [
        {
            "kind": "system",
            "ts": ts,
            "text": f"item {phase}: {kind or 'unknown'}" + (f" ({meta})" if meta else ""),
        }
    ]


# -- turns and the stream -----------------------------------------------------------


def _turn_result(event: dict[str, Any], ts: str, failed: bool) -> ResultEntry:
    """A turn's end as a ``result``, as the reference parser makes it (the wire's fields)."""
    usage = as_object(event.get("usage"))
    message = (
        _error_text(_first_present(event.get("error"), event.get("message"))) if failed else ""
    )
    errors = [message] if message else []
    if not failed:
        errors = [text for text in map(_error_text, as_list(event.get("errors"))) if text]
    return _wire_result(event, ts, failed, usage, errors)


def _thread_result(event: dict[str, Any], ts: str, failed: bool, thread: str) -> ResultEntry:
    """:func:`_turn_result` with the contract 1.5 fields, for a turn of ``thread``.

    A completed turn's usage is its thread's running total, so the result
    carries it in the usage vocabulary only with the thread as its
    ``sessionId`` (the latest of a thread counts); Codex reports no cost
    (``costSource`` null). Only the stateful parser knows the thread (from
    ``thread.started``): a single line's result keeps the reference's fields.
    """
    usage = as_object(event.get("usage"))
    result = _turn_result(event, ts, failed)
    return with_session_fields(
        result,
        usage=token_usage(usage) if not failed else None,
        outcome="failed" if result["isError"] else "completed",
        cost=event.get("total_cost_usd"),
        session=thread,
    )


def _wire_result(
    event: dict[str, Any], ts: str, failed: bool, usage: dict[str, Any], errors: list[str]
) -> ResultEntry:
    return {
        "kind": "result",
        "ts": ts,
        "text": as_string(event.get("result")),
        "inputTokens": as_number(usage.get("input_tokens")),
        "outputTokens": as_number(usage.get("output_tokens")),
        "cachedTokens": as_number(
            usage.get("cached_input_tokens"), as_number(usage.get("cache_read_input_tokens"))
        ),
        "costUsd": as_number(event.get("total_cost_usd")),
        "subtype": as_string(event.get("subtype"), "turn.failed" if failed else ""),
        "isError": True if failed else event.get("is_error") is True,
        "errors": errors,
    }


def _questions_text(event: dict[str, Any]) -> str:
    questions = []
    for question in as_list(event.get("questions")):
        text = as_string(dig(question, "question")) or as_string(dig(question, "header"))
        if text:
            questions.append(text)
    return "the agent asks for input" + (":\n" + "\n".join(questions) if questions else "")


def _entries(event: dict[str, Any], line: str, ts: str) -> list[TranscriptEntry]:
    kind = event.get("type")
    phase = _PHASES.get(kind) if type(kind) is str else None
    if phase is not None:
        item = event.get("item")
        if type(item) is not dict:
            return [{"kind": "system", "ts": ts, "text": f"item {phase}"}]
        return _item_entries(item, ts, phase)
    if kind == "thread.started":
        return [
            {
                "kind": "init",
                "ts": ts,
                # Codex names no model here; an invented one would mislead (it is unknown).
                "model": as_string(event.get("model")),
                "sessionId": as_string(event.get("thread_id")),
            }
        ]
    if kind == "turn.started":
        return [{"kind": "system", "ts": ts, "text": "turn started"}]
    if kind == "turn.completed":
        return [_turn_result(event, ts, failed=False)]
    if kind == "turn.failed":
        return [_turn_result(event, ts, failed=True)]
    if kind == "error":
        # Stream errors, including "Reconnecting... 2/5" retry notices.
        text = _error_text(_first_present(event.get("message"), event.get("error"), event))
        return [{"kind": "stderr", "ts": ts, "text": text or line}]
    if kind == "item.plan.delta":
        text = as_string(event.get("delta"))
        return [{"kind": "assistant", "ts": ts, "text": text, "delta": True}] if text else []
    if kind == "request_user_input":
        return [{"kind": "system", "ts": ts, "text": _questions_text(event)}]
    if is_legacy_event(event):
        return legacy_entries(event["msg"], ts)
    entries = parse_acpx_event(event, ts)
    return entries if entries is not None else stdout_entries(line, ts)


def parse_stdout_line(line: str, ts: str) -> list[TranscriptEntry]:
    """One ``codex exec --json`` line to entries (stateless; prefer :func:`create_stdout_parser`).

    Each event stands alone: a tool item gives its ``tool_call`` when it
    starts and its ``tool_result`` when it completes, as in the reference.
    """
    event, at = read_event_at(line)
    if event is None:
        return _text_line(line, ts)
    try:
        return _entries(event, line, at or ts)
    except RecursionError:
        # Only a line nested about a thousand levels deep makes the JSON encoder give up.
        return stdout_entries(line, ts)


class CodexStdoutParser:
    """The stateful Codex parser, which adds to :func:`parse_stdout_line`:

    - A tool item (command, MCP call, web search, collab call) gives one
      ``tool_call`` however many ``item.started`` / ``item.updated`` events it
      has, and a ``tool_result`` carrying ``toolName`` when it completes; a
      completed item whose start was never seen (an excerpt, a log that starts
      mid-run) gets its ``tool_call`` then.
    - A plan streamed as ``item.plan.delta`` is not repeated when its item
      completes; in the legacy shape, a message or reasoning streamed as
      deltas is not repeated by the event that closes it, and a task's
      ``result`` carries the last ``token_count`` totals.
    - Collab calls made by a sub-thread (``sender_thread_id`` is a thread a
      ``spawn_agent`` call created) carry that call's id as ``parentToolUseId``.
    """

    __slots__ = (
        "_legacy_text",
        "_legacy_usage",
        "_names",
        "_open",
        "_spawned",
        "_streamed",
        "_thread_id",
    )

    def __init__(self) -> None:
        self._open: BoundedMap[str, str] = BoundedMap(_REMEMBERED)  # calls shown, results to come
        self._names: BoundedMap[str, str] = BoundedMap(_REMEMBERED)  # name of every call shown
        self._streamed: BoundedMap[str, bool] = BoundedMap(_REMEMBERED)  # plans streamed as deltas
        self._spawned: BoundedMap[str, str] = BoundedMap(_REMEMBERED)  # thread id -> spawn call id
        self._legacy_text: dict[str, list[str]] = {"assistant": [], "thinking": []}
        self._legacy_usage: dict[str, Any] = {}
        self._thread_id = ""  # the thread (session) the turns belong to: its results name it

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        event, at = read_event_at(line)
        if event is None:
            return _text_line(line, ts)
        try:
            return self._parse_event(event, line, at or ts)
        except RecursionError:
            # Only a line nested about a thousand levels deep makes the JSON encoder give up.
            return stdout_entries(line, ts)

    def _parse_event(self, event: dict[str, Any], line: str, ts: str) -> list[TranscriptEntry]:
        kind = event.get("type")
        item = event.get("item")
        phase = _PHASES.get(kind) if type(kind) is str else None
        if phase is not None and type(item) is dict:
            given = item.get("type")
            # A str to compare (natively, compiled); "" for a type that is no str (no tool).
            item_kind: str = given if type(given) is str else ""
            if item_kind in _TOOL_ITEMS:
                return self._tool_item(item, ts, phase)
            plan_done = item_kind == "plan" and phase == "completed"
            if plan_done and self._streamed.pop(as_string(item.get("id")), False):
                return []
            if item_kind == "tool_result" and phase == "completed":
                result = _explicit_result(item, ts)
                name = self._names.get(result["toolUseId"])
                if name is not None:
                    result["toolName"] = name
                return [result]
            return _item_entries(item, ts, phase)  # what _entries does with an item event
        if kind == "item.plan.delta":
            ident = as_string(event.get("item_id"))
            if ident:
                self._streamed[ident] = True
        elif kind == "thread.started":
            # Every `codex exec` numbers its items from item_0: a new run reuses the ids.
            self.reset()
            self._thread_id = as_string(event.get("thread_id"))
        elif kind in ("turn.completed", "turn.failed"):
            return [_thread_result(event, ts, kind == "turn.failed", self._thread_id)]
        elif is_legacy_event(event):
            return self._legacy(event["msg"], ts)
        return _entries(event, line, ts)

    def _tool_item(self, item: dict[str, Any], ts: str, phase: str) -> list[TranscriptEntry]:
        ident = _tool_use_id(item)
        entries: list[TranscriptEntry] = []
        completed = phase == "completed"
        name = self._open.pop(ident, None) if completed else self._open.get(ident)
        if name is None:
            call = _tool_call(item, ts, ident)
            name = call["name"]
            self._names[ident] = name
            entries.append(call)
        if completed:
            entries.append(_tool_result(item, ts, ident, name))
        else:
            self._open[ident] = name
        kind = item.get("type")
        if type(kind) is not str or kind != "collab_tool_call":
            return entries
        if item.get("tool") == "spawn_agent":
            for thread in as_list(item.get("receiver_thread_ids")):
                if type(thread) is str and thread:
                    self._spawned[thread] = ident
        return with_parent(entries, self._spawned.get(as_string(item.get("sender_thread_id"))))

    def _legacy(self, msg: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        kind = as_string(msg.get("type"))
        entries = legacy_entries(msg, ts)
        if kind in ("agent_message_delta", "agent_reasoning_delta"):
            streamed = self._legacy_text[
                "assistant" if kind == "agent_message_delta" else "thinking"
            ]
            streamed.append(as_string(msg.get("delta")))
        elif kind in ("agent_message", "agent_reasoning"):
            streamed = self._legacy_text["assistant" if kind == "agent_message" else "thinking"]
            text = as_string(msg.get("message" if kind == "agent_message" else "text"))
            repeats = bool(streamed) and "".join(streamed).strip() == text.strip()
            streamed.clear()
            if repeats:
                return []
        elif kind == "token_count":
            total = dig(msg, "info", "total_token_usage")
            if type(total) is dict:
                self._legacy_usage = total
        elif kind in ("task_complete", "turn_complete"):
            entries = [legacy_result(msg, ts, self._legacy_usage, self._thread_id)]
        elif kind == "session_configured":
            self._thread_id = as_string(msg.get("session_id"))
        for entry in entries:  # a begin event's call names the result of its end event
            if entry["kind"] == "tool_call" and "toolUseId" in entry:
                self._names[entry["toolUseId"]] = entry["name"]
            elif entry["kind"] == "tool_result":
                name = self._names.get(entry["toolUseId"])
                if name is not None:
                    entry["toolName"] = name
        return entries

    def reset(self) -> None:
        self._open.clear()
        self._names.clear()
        self._streamed.clear()
        self._spawned.clear()
        for streamed in self._legacy_text.values():
            streamed.clear()
        self._legacy_usage = {}
        self._thread_id = ""


def create_stdout_parser() -> CodexStdoutParser:
    """A fresh stateful Codex parser for one transcript."""
    return CodexStdoutParser()
