"""``codex app-server`` JSON-RPC v2 lines (notifications, server requests, responses) to entries."""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.entries import ResultEntry, RuntimeRequestEntry, TranscriptEntry
from linewise_contracts.extract import (
    BoundedMap,
    as_list,
    as_number,
    as_object,
    as_string,
    json_or_placeholder,
    stdout_entries,
    to_json_text,
)
from linewise_contracts.outcomes import Outcome

from linewise_codex.app_server.activity import (
    REQUEST_KINDS,
    plan_activity,
    runtime_request,
    workspace_change,
)
from linewise_codex.app_server.items import exec_item, item_text

# Defined beside the sniff, which detection imports alone.
from linewise_codex.app_server.sniff import read_message
from linewise_codex.parser import _item_entries, _tool_call, _tool_result, _tool_use_id
from linewise_codex.usage import breakdown_usage, with_session_fields

__all__ = ["CodexAppServerParser", "create_stdout_parser", "parse_stdout_line", "read_message"]

_TOOL_ITEMS: Final = ("command_execution", "mcp_tool_call", "web_search", "collab_tool_call")
#: A turn's status -> its outcome (contract 1.5), as the run summary reads it.
_TURN_OUTCOMES: Final[dict[str, Outcome]] = {
    "completed": "completed",
    "interrupted": "interrupted",
    "failed": "failed",
}
_TEXT_ITEMS: Final = ("agent_message", "reasoning", "plan")
_DELTAS: Final = {
    "item/agentMessage/delta": "assistant",
    "item/plan/delta": "assistant",
    "item/reasoning/summaryTextDelta": "thinking",
    "item/reasoning/textDelta": "thinking",
}
# Notifications whose content another line carries in full (documented in the README):
# a summary section's boundary, the apply_patch tool's reply (the fileChange item says
# how it went), and command output deltas (kept for a completed item without output).
_SILENT: Final = frozenset(
    {
        "item/reasoning/summaryPartAdded",
        "item/fileChange/outputDelta",
        "item/commandExecution/outputDelta",
        "thread/tokenUsage/updated",
    }
)
_REMEMBERED: Final = 4096
# Output deltas kept per command, for a completed item that reports no aggregatedOutput.
_OUTPUT_CHARS: Final = 64_000


def _error_message(value: object) -> str:
    error = as_object(value)
    return as_string(error.get("message")) or as_string(value)


def _user_text(content: object) -> str:
    parts = []
    for part in as_list(content):
        block = as_object(part)
        kind = as_string(block.get("type"))
        if kind == "text":
            parts.append(as_string(block.get("text")))
        elif kind in ("image", "localImage"):
            parts.append(f"[image: {as_string(block.get('url')) or as_string(block.get('path'))}]")
        elif kind:
            parts.append(
                f"[{kind}: {as_string(block.get('name')) or as_string(block.get('path'))}]"
            )
    return "\n".join(part for part in parts if part)


def _other_item(item: dict[str, Any], ts: str, phase: str) -> list[TranscriptEntry]:
    """Items exec has no counterpart for: user input, reviews, compaction, sub-agents."""
    kind = as_string(item.get("type"))
    if kind == "userMessage":
        text = _user_text(item.get("content"))
        return [{"kind": "user", "ts": ts, "text": text}] if text and phase == "completed" else []
    if kind == "exitedReviewMode" and phase == "completed":
        return [{"kind": "assistant", "ts": ts, "text": as_string(item.get("review"))}]
    if kind == "enteredReviewMode":
        text = f"review started: {as_string(item.get('review'), 'changes')}"
    elif kind == "contextCompaction":
        text = "compacting the context" if phase == "started" else "context compacted"
    elif kind == "imageView":
        text = f"viewed image {as_string(item.get('path'))}"
    elif kind == "subAgentActivity":
        who = as_string(item.get("agentPath")) or as_string(item.get("agentThreadId"), "sub-agent")
        thread = as_string(item.get("agentThreadId"))
        what = as_string(item.get("kind"), phase)
        text = f"sub-agent {what}: {who}" + (f" (thread {thread})" if thread else "")
    else:
        ident, status = as_string(item.get("id")), as_string(item.get("status"))
        meta = ", ".join(p for p in (f"id={ident}" if ident else "", status) if p)
        text = f"item {phase}: {kind or 'unknown'}" + (f" ({meta})" if meta else "")
    return [{"kind": "system", "ts": ts, "text": text}]


def _usage_counts(usage: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """A ``tokenUsage`` notification's running total (``total``, and True), else its ``last``
    call (and False)."""
    total = as_object(usage.get("total"))
    return (total, True) if total else (as_object(usage.get("last")), False)


def _turn_result(params: dict[str, Any], ts: str, usage: dict[str, Any]) -> ResultEntry:
    turn = as_object(params.get("turn"))
    status = as_string(turn.get("status"), "completed")
    message = _error_message(turn.get("error"))
    return {
        "kind": "result",
        "ts": ts,
        "text": "",
        "inputTokens": as_number(usage.get("inputTokens")),
        "outputTokens": as_number(usage.get("outputTokens")),
        "cachedTokens": as_number(usage.get("cachedInputTokens")),
        "costUsd": 0,  # Codex reports no cost; the run summary says unknown
        "subtype": f"turn/{status}",
        "isError": status == "failed",
        "errors": [message] if message else [],
    }


def _thread_result(
    params: dict[str, Any], ts: str, usage: dict[str, Any], thread: str
) -> ResultEntry:
    """:func:`_turn_result` with the contract 1.5 fields (``usage`` in the vocabulary).

    ``thread``: the turn's thread when ``usage`` is its running total (the
    result names it, the latest of a thread counts); "" when ``usage`` is the
    turn's last model call only, which the result carries as its own figures.
    """
    result = _turn_result(params, ts, usage)
    status = as_string(as_object(params.get("turn")).get("status"), "completed")
    return with_session_fields(
        result,
        usage=breakdown_usage(usage) if usage else None,
        outcome=_TURN_OUTCOMES.get(status, "failed" if result["isError"] else "completed"),
        cost=None,
        session=thread,
        own=not thread,
    )


def _ident(value: object) -> str:
    """A JSON-RPC id (a str or a number) as text."""
    if type(value) is str:
        return value
    return "" if value is None else to_json_text(value)


def _system(ts: str, text: str) -> list[TranscriptEntry]:
    return [{"kind": "system", "ts": ts, "text": text}]


class CodexAppServerParser:
    """The stateful ``codex app-server`` parser (see the plugin README for every method).

    Pairs a tool item's ``item/started`` and ``item/completed`` into one call
    and one result (with ``toolName``), shows a message streamed as deltas
    once, puts a turn's token usage on its ``result``, numbers the revisions
    of a turn's diff, and re-issues an approval request as resolved when
    ``serverRequest/resolved`` names it.
    """

    __slots__ = (
        "_names",
        "_open",
        "_output",
        "_requests",
        "_revisions",
        "_streamed",
        "_threads",
        "_tools",
        "_usage",
    )

    def __init__(self) -> None:
        self._open: BoundedMap[str, str] = BoundedMap(_REMEMBERED)
        self._names: BoundedMap[str, str] = BoundedMap(_REMEMBERED)
        self._streamed: BoundedMap[str, bool] = BoundedMap(_REMEMBERED)
        self._output: BoundedMap[str, str] = BoundedMap(256)
        self._requests: BoundedMap[str, RuntimeRequestEntry] = BoundedMap(_REMEMBERED)
        self._tools: BoundedMap[str, str] = BoundedMap(_REMEMBERED)  # JSON-RPC id -> call id
        self._revisions: BoundedMap[str, int] = BoundedMap(_REMEMBERED)
        # thread -> its latest counts, and whether they are its running total
        self._usage: BoundedMap[str, tuple[dict[str, Any], bool]] = BoundedMap(256)
        self._threads: BoundedMap[str, bool] = BoundedMap(_REMEMBERED)  # threads announced

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        message = read_message(line)
        if message is None:
            return stdout_entries(line, ts)
        try:
            return self._message(message, line, ts)
        except RecursionError:
            return stdout_entries(line, ts)

    def reset(self) -> None:
        for remembered in (
            self._open,
            self._names,
            self._streamed,
            self._output,
            self._requests,
            self._tools,
            self._revisions,
            self._usage,
            self._threads,
        ):
            remembered.clear()

    def _message(self, message: dict[str, Any], line: str, ts: str) -> list[TranscriptEntry]:
        method = message.get("method")
        params = as_object(message.get("params"))
        if type(method) is str:
            if "id" in message:
                return self._request(method, _ident(message["id"]), params, ts)
            return self._notification(method, params, ts)
        if "id" in message and ("result" in message or "error" in message):
            return self._response(message, ts)
        return stdout_entries(line, ts)

    # -- requests and responses -------------------------------------------------------

    def _request(
        self, method: str, ident: str, params: dict[str, Any], ts: str
    ) -> list[TranscriptEntry]:
        if method in REQUEST_KINDS:
            entry = runtime_request(method, ident, params, ts)
            self._requests[ident] = entry
            return [entry]
        if method == "item/tool/call":
            call = as_string(params.get("callId"), ident)
            name = as_string(params.get("tool"), "tool")
            self._tools[ident] = call
            self._names[call] = name
            arguments = params.get("arguments")
            tool_input = json_or_placeholder({} if arguments is None else arguments)
            return [
                {
                    "kind": "tool_call",
                    "ts": ts,
                    "name": name,
                    "toolUseId": call,
                    "input": tool_input,
                }
            ]
        if method == "turn/start":  # the client's side, when a capture holds both
            text = _user_text(params.get("input"))
            if text:
                return [{"kind": "user", "ts": ts, "text": text}]
        return _system(ts, f"request {method} (id {ident})")

    def _response(self, message: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        ident = _ident(message["id"])
        call = self._tools.pop(ident, None)
        error = message.get("error")
        if call is not None:
            result = as_object(message.get("result"))
            items = as_list(result.get("contentItems"))
            texts = [as_string(as_object(i).get("text")) for i in items]
            content = "\n".join(t for t in texts if t) or (
                _error_message(error) if error is not None else to_json_text(result, pretty=True)
            )
            failed = error is not None or result.get("success") is False
            entry: TranscriptEntry = {
                "kind": "tool_result",
                "ts": ts,
                "toolUseId": call,
                "content": content,
                "isError": failed,
                "toolName": self._names.get(call) or "tool",
            }
            return [entry]
        if error is not None:
            return [
                {
                    "kind": "stderr",
                    "ts": ts,
                    "text": f"request {ident} failed: {_error_message(error)}",
                }
            ]
        result = as_object(message.get("result"))
        thread = as_object(result.get("thread"))
        if thread.get("id") is not None:
            self._threads[as_string(thread.get("id"))] = True
            model = as_string(result.get("model")) or as_string(thread.get("model"))
            return [
                {"kind": "init", "ts": ts, "model": model, "sessionId": as_string(thread.get("id"))}
            ]
        return _system(ts, f"response to request {ident}")

    # -- notifications ------------------------------------------------------------------

    def _notification(self, method: str, params: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        if method in ("item/started", "item/completed"):
            item = params.get("item")
            phase = "started" if method == "item/started" else "completed"
            if type(item) is not dict:
                return _system(ts, f"item {phase}")
            return self._item(item, ts, phase)
        delta = _DELTAS.get(method)
        if delta is not None:
            text = as_string(params.get("delta"))
            self._streamed[as_string(params.get("itemId"))] = True
            if not text:
                return []
            if delta == "assistant":
                return [{"kind": "assistant", "ts": ts, "text": text, "delta": True}]
            return [{"kind": "thinking", "ts": ts, "text": text, "delta": True}]
        if method == "item/commandExecution/outputDelta":
            ident = as_string(params.get("itemId"))
            kept = self._output.get(ident) or ""
            if len(kept) < _OUTPUT_CHARS:
                self._output[ident] = (kept + as_string(params.get("delta")))[:_OUTPUT_CHARS]
            return []
        if method == "thread/tokenUsage/updated":
            counts, total = _usage_counts(as_object(params.get("tokenUsage")))
            if counts:
                self._usage[as_string(params.get("threadId"))] = (counts, total)
            return []
        if method in _SILENT:
            return []
        if method == "thread/started":
            thread = as_object(params.get("thread"))
            if self._threads.get(as_string(thread.get("id"))):
                return []  # the thread/start response announced it, with its model
            self._threads[as_string(thread.get("id"))] = True
            return [
                {
                    "kind": "init",
                    "ts": ts,
                    "model": as_string(thread.get("model")),
                    "sessionId": as_string(thread.get("id")),
                }
            ]
        if method == "turn/started":
            turn = as_string(as_object(params.get("turn")).get("id"))
            return _system(ts, "turn started" + (f" ({turn})" if turn else ""))
        if method == "turn/completed":
            owner = as_string(params.get("threadId"))
            usage, total = self._usage.pop(owner, None) or ({}, False)
            return [_thread_result(params, ts, usage, owner if total else "")]
        if method == "turn/diff/updated":
            entry, unsafe = workspace_change(params, ts, 1)
            revision = (self._revisions.get(entry["changeSetId"]) or 0) + 1
            self._revisions[entry["changeSetId"]] = revision
            entry["revision"] = revision
            entries: list[TranscriptEntry] = [entry]
            if unsafe:
                entries += _system(ts, f"{unsafe} changed file(s) with an unsafe path not shown")
            return entries
        if method == "turn/plan/updated":
            return [plan_activity(params, ts)]
        if method == "serverRequest/resolved":
            ident = _ident(params.get("requestId"))
            pending = self._requests.pop(ident, None)
            if pending is None:
                return _system(ts, f"request {ident} resolved")
            resolved: RuntimeRequestEntry = {**pending, "ts": ts, "status": "resolved"}
            return [resolved]
        if method == "error":
            text = _error_message(params.get("error")) or "error"
            retry = " (Codex retries)" if params.get("willRetry") is True else ""
            return [{"kind": "stderr", "ts": ts, "text": text + retry}]
        if method == "model/rerouted":
            old, new = as_string(params.get("fromModel")), as_string(params.get("toModel"))
            reason = as_string(params.get("reason"))
            return _system(
                ts, f"model rerouted from {old} to {new}" + (f" ({reason})" if reason else "")
            )
        where = as_string(params.get("threadId"))
        return _system(ts, method + (f" (thread {where})" if where else ""))

    def _item(self, item: dict[str, Any], ts: str, phase: str) -> list[TranscriptEntry]:
        translated = exec_item(item)
        if translated is None:
            return _other_item(item, ts, phase)
        kind = translated["type"]
        if kind in _TOOL_ITEMS:
            return self._tool_item(translated, ts, phase)
        if kind in _TEXT_ITEMS:
            streamed = self._streamed.pop(as_string(item.get("id")), False)
            if phase == "started" or streamed or not item_text(item):
                # Its text arrives as deltas or with the completed item; shown once.
                return []
        return _item_entries(translated, ts, phase)

    def _tool_item(self, item: dict[str, Any], ts: str, phase: str) -> list[TranscriptEntry]:
        ident = _tool_use_id(item)
        completed = phase == "completed"
        entries: list[TranscriptEntry] = []
        name = self._open.pop(ident, None) if completed else self._open.get(ident)
        if name is None:
            call = _tool_call(item, ts, ident)
            name = call["name"]
            self._names[ident] = name
            entries.append(call)
        if not completed:
            self._open[ident] = name
            return entries
        output = self._output.pop(ident, None)
        if item["type"] == "command_execution" and not item.get("aggregated_output") and output:
            item = {**item, "aggregated_output": output}
        result = _tool_result(item, ts, ident)
        result["toolName"] = name
        entries.append(result)
        return entries


def create_stdout_parser() -> CodexAppServerParser:
    """A fresh stateful app-server parser for one transcript."""
    return CodexAppServerParser()


def parse_stdout_line(line: str, ts: str) -> list[TranscriptEntry]:
    """One app-server line to entries, on its own (prefer :func:`create_stdout_parser`)."""
    return CodexAppServerParser().parse_line(line, ts)
