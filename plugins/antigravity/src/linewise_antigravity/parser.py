"""Antigravity CLI ``agy -p --output-format stream-json`` event lines to TranscriptEntries."""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.entries import InitEntry, ResultEntry, ToolResultEntry, TranscriptEntry
from linewise_contracts.extract import (
    BoundedMap,
    as_int,
    as_list,
    as_object,
    as_string,
    error_text,
    json_or_placeholder,
    parse_json_object,
    stdout_entries,
    to_json_text,
    truncate,
)

from linewise_antigravity.ending import step_key, step_usage, with_result_fields

__all__ = [
    "AgyStdoutParser",
    "create_stdout_parser",
    "parse_stdout_line",
    "result_errors",
    "step_tool_name",
    "tool_error_text",
]

_SYSTEM_TEXT_LIMIT: Final = 2000
# Open tool steps and shown results remembered: bounded so an endless session cannot grow them.
_REMEMBERED: Final = 4096
_TEXT_STEPS: Final = ("agent_response",)
_THINKING_STEPS: Final = ("thinking", "thought")
_STATES: Final = ("ACTIVE", "DONE", "ERROR")


def _system(ts: str, text: str) -> TranscriptEntry:
    return {"kind": "system", "ts": ts, "text": truncate(text, _SYSTEM_TEXT_LIMIT)}


def step_tool_name(step: dict[str, Any]) -> str:
    """The tool a ``tool`` step runs: ``tool_info.name``, else the step's ``tool_name``."""
    info = as_object(step.get("tool_info"))
    return as_string(info.get("name")) or as_string(step.get("tool_name")) or "tool"


def tool_error_text(error: object) -> str:
    """A tool step's ``tool_info.error`` (text, or ``{type, message}``) as one line of text."""
    if type(error) is str:
        return error.strip()
    body = as_object(error)
    message = as_string(body.get("message")).strip()
    kind = as_string(body.get("type")).strip()
    if message:
        return f"{kind}: {message}" if kind else message
    return error_text(error) or ("" if error is None else to_json_text(error))


def _output_text(output: object) -> str:
    if output is None:
        return ""
    return output if type(output) is str else to_json_text(output, pretty=True)


def result_errors(result: dict[str, Any]) -> list[str]:
    """What the terminal ``result`` says went wrong: its ``error``, else its failed status."""
    status = as_string(result.get("status"))
    error = tool_error_text(result.get("error"))
    if error:
        return [error]
    if status and status != "SUCCESS":
        return [f"Antigravity finished with status {status}."]
    return []


def _denied(result: dict[str, Any]) -> list[str]:
    denied = as_list(result.get("denied_actions"))
    return [action if type(action) is str else to_json_text(action) for action in denied if action]


def _result_entry(result: dict[str, Any], ts: str) -> ResultEntry:
    usage = as_object(result.get("usage"))
    status = as_string(result.get("status"))
    errors = result_errors(result)
    return {
        "kind": "result",
        "ts": ts,
        "text": as_string(result.get("response")),
        "inputTokens": as_int(usage.get("input_tokens")),
        "outputTokens": as_int(usage.get("output_tokens")),
        "cachedTokens": as_int(usage.get("cache_read_tokens")),
        # agy reports no cost; the wire format's number stays 0 and summaries say "unknown".
        "costUsd": 0,
        "subtype": status.lower(),
        "isError": bool(status) and status != "SUCCESS",
        "errors": errors,
    }


class AgyStdoutParser:
    """The stateful Antigravity parser: each step shown once, every tool step paired.

    ``agy`` sends one ``step_update`` each time a step changes: an
    ``agent_response`` or ``thinking`` step streams ``text_delta`` pieces
    while ACTIVE; a ``tool`` step arrives ACTIVE with its parameters and again
    DONE (or ERROR) with its output. The call is shown at the first update of
    its step, the result at the step's end, even when the CLI skipped the
    ACTIVE update. Steps without an index (older builds) pair a result with
    the earliest open call of the same tool.
    """

    __slots__ = ("_conversation", "_finished", "_open", "_steps", "_unindexed", "_usage")

    def __init__(self) -> None:
        self._conversation = ""
        # The latest usage of each step of the run so far (ending.py): the result's tokens.
        self._usage: dict[str, dict[str, int | None]] = {}
        # toolUseId of each open tool step, by the step's key, oldest first (bounded in _tool).
        self._open: dict[str, tuple[str, str]] = {}  # (toolUseId, tool name)
        self._finished: BoundedMap[str, bool] = BoundedMap(_REMEMBERED)
        self._steps: BoundedMap[str, str] = BoundedMap(_REMEMBERED)  # last state shown per step
        self._unindexed = 0

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        event = parse_json_object(line)
        if event is None:
            return stdout_entries(line, ts)
        kind = event.get("event")
        if kind == "step_update":
            step = event.get("step_update")
            if type(step) is dict:
                return self._step(step, as_string(event.get("conversation_id")), ts)
        elif kind == "init":
            return self._init(event, ts)
        elif kind == "result":
            result = event.get("result")
            if type(result) is dict:
                return self._result(result, ts)
        return stdout_entries(line, ts)

    def _init(self, event: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        init = as_object(event.get("init"))
        self._conversation = as_string(event.get("conversation_id")) or self._conversation
        entry: InitEntry = {
            "kind": "init",
            "ts": ts,
            "model": as_string(init.get("model")) or "unknown",
            "sessionId": self._conversation,
        }
        cwd = as_string(init.get("cwd"))
        if cwd:
            entry["cwd"] = cwd
        facts = []
        mode = as_string(init.get("permission_mode"))
        if mode:
            facts.append(f"permission mode {mode}")
        tools = init.get("tools")
        if type(tools) is list:
            facts.append(f"{len(tools)} tool" + ("" if len(tools) == 1 else "s"))
        return (
            [entry, _system(ts, "Antigravity session: " + ", ".join(facts))] if facts else [entry]
        )

    def _key(self, step: dict[str, Any], conversation: str, what: str) -> str | None:
        index = step.get("step_index")
        if type(index) is not int:
            return None
        owner = as_string(step.get("conversation_id")) or conversation or self._conversation
        return f"{owner or 'agy'}:{index}:{what}"

    def _step(self, step: dict[str, Any], conversation: str, ts: str) -> list[TranscriptEntry]:
        counted = step_key(step)
        if counted is not None:
            self._usage[counted] = step_usage(step["usage"])  # its latest totals, once
        step_type = as_string(step.get("step_type"))
        state = as_string(step.get("state"))
        if step_type in _TEXT_STEPS or step_type in _THINKING_STEPS:
            text = as_string(step.get("text_delta")) or as_string(step.get("text"))
            entries: list[TranscriptEntry] = []
            if text and step_type in _TEXT_STEPS:
                entries.append({"kind": "assistant", "ts": ts, "text": text, "delta": True})
            elif text:
                entries.append({"kind": "thinking", "ts": ts, "text": text, "delta": True})
            if state == "ERROR":
                entries.append({"kind": "stderr", "ts": ts, "text": _step_error(step)})
            return entries
        if step_type == "tool":
            return self._tool(step, conversation, ts)
        if step_type == "user_input":
            text = as_string(step.get("text")) or as_string(step.get("text_delta"))
            return [{"kind": "user", "ts": ts, "text": text}] if text.strip() else []
        return self._other(step, step_type, state, conversation, ts)

    def _tool(self, step: dict[str, Any], conversation: str, ts: str) -> list[TranscriptEntry]:
        info = as_object(step.get("tool_info"))
        name = step_tool_name(step)
        state = as_string(step.get("state"))
        key = self._key(step, conversation, "tool")
        explicit = _explicit_id(step, info)
        if key is None:
            key = explicit or self._unindexed_key(name)
        entries: list[TranscriptEntry] = []
        opened = self._open.get(key)
        ident = opened[0] if opened else None
        if ident is None:
            if key in self._finished:
                return []  # a repeated update of a step already finished
            ident = explicit or _tool_use_id(key)
            if len(self._open) >= _REMEMBERED:
                del self._open[next(iter(self._open))]  # a step that never finished
            self._open[key] = (ident, name)
            params = info.get("parameters")
            entries.append(
                {
                    "kind": "tool_call",
                    "ts": ts,
                    "name": name,
                    "input": {} if params is None else json_or_placeholder(params),
                    "toolUseId": ident,
                }
            )
        if state in ("DONE", "ERROR"):
            self._open.pop(key, None)
            self._finished[key] = True
            entries.append(_tool_result(ident, name, info, state, ts))
        return entries

    def _unindexed_key(self, name: str) -> str:
        # No index and no id: a result closes the earliest open call of its tool.
        for key in self._open:
            if key.startswith(f"unindexed:{name}:"):
                return key
        self._unindexed += 1
        return f"unindexed:{name}:{self._conversation or 'agy'}:tool-{self._unindexed}"

    def _other(
        self, step: dict[str, Any], step_type: str, state: str, conversation: str, ts: str
    ) -> list[TranscriptEntry]:
        subagent = as_object(step.get("subagent_info"))
        if subagent:
            ident = as_string(subagent.get("conversation_id"))
            log = as_string(subagent.get("log_uri"))
            text = (
                "subagent conversation " + (ident or "(no id)") + (f" · log {log}" if log else "")
            )
            return [_system(ts, text)]
        if state == "ERROR":
            return [{"kind": "stderr", "ts": ts, "text": _step_error(step)}]
        key = self._key(step, conversation, step_type or "step")
        if key is not None and self._steps.get(key) == state:
            return []  # the same step in the same state again: already shown
        if key is not None:
            self._steps[key] = state
        text = as_string(step.get("text")) or as_string(step.get("text_delta"))
        head = f"{step_type or 'step'} step" + (f" ({state.lower()})" if state in _STATES else "")
        return [_system(ts, f"{head}: {text}" if text.strip() else head)]

    def _result(self, result: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        entries: list[TranscriptEntry] = []
        # Tool steps the CLI never finished: their calls get a result saying so.
        for ident, name in self._open.values():
            entries.append(
                {
                    "kind": "tool_result",
                    "ts": ts,
                    "toolUseId": ident,
                    "toolName": name,
                    "content": "(the run ended before this tool step finished)",
                    "isError": True,
                }
            )
        self._open.clear()
        denied = _denied(result)
        if denied:
            entries.append(
                {"kind": "stderr", "ts": ts, "text": "denied actions: " + "; ".join(denied)}
            )
        # The summary fields (contracts 1.5, 1.9), one definition with the summary: ending.py.
        entry = _result_entry(result, ts)
        entries.append(with_result_fields(entry, result, self._usage, self._conversation))
        self._usage = {}  # a later run (a resumed conversation) counts its own steps
        return entries

    def reset(self) -> None:
        self._conversation = ""
        self._usage = {}
        self._open.clear()
        self._finished.clear()
        self._steps.clear()
        self._unindexed = 0


def _explicit_id(step: dict[str, Any], info: dict[str, Any]) -> str:
    for body, field in (
        (info, "toolUseId"),
        (info, "tool_use_id"),
        (info, "call_id"),
        (info, "id"),
        (step, "toolUseId"),
        (step, "tool_use_id"),
    ):
        value = as_string(body.get(field))
        if value:
            return value
    return ""


def _tool_use_id(key: str) -> str:
    """``conversation:index`` for an indexed step, ``conversation:tool-N`` for one without."""
    if key.startswith("unindexed:"):
        return key.split(":", 2)[2]
    return key.removesuffix(":tool")


def _step_error(step: dict[str, Any]) -> str:
    step_type = as_string(step.get("step_type")) or "step"
    error = tool_error_text(step.get("error")) or tool_error_text(
        as_object(step.get("tool_info")).get("error")
    )
    return f"{step_type} step failed" + (f": {error}" if error else "")


def _tool_result(
    ident: str, name: str, info: dict[str, Any], state: str, ts: str
) -> ToolResultEntry:
    error = info.get("error")
    message = tool_error_text(error) if error is not None else ""
    output = _output_text(info.get("output"))
    failed = state == "ERROR" or error is not None
    content = output or message or ("(tool step failed)" if failed else "")
    return {
        "kind": "tool_result",
        "ts": ts,
        "toolUseId": ident,
        "toolName": name,
        "content": content,
        "isError": failed,
    }


def parse_stdout_line(line: str, ts: str) -> list[TranscriptEntry]:
    """One agy event line to entries, as a fresh :class:`AgyStdoutParser` sees it.

    Without the lines before it a tool step's end cannot know its call was
    shown, so it shows both. Prefer :func:`create_stdout_parser`.
    """
    return AgyStdoutParser().parse_line(line, ts)


def create_stdout_parser() -> AgyStdoutParser:
    """A fresh stateful Antigravity parser for one transcript."""
    return AgyStdoutParser()
