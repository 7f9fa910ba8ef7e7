"""The whole-run summary of an Antigravity CLI run, and the unknown-conversation check."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from typing import Any, Final

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import as_object, as_string, parse_json_object
from linewise_contracts.summary import RunSummary, Usage

from linewise_antigravity.ending import (
    parts_tokens,
    result_outcome,
    run_parts,
    step_key,
    step_usage,
    total,
)
from linewise_antigravity.parser import result_errors, tool_error_text

__all__ = ["is_unknown_session_error", "step_usage", "summarize_run"]

_UNKNOWN_CONVERSATION: Final = re.compile(
    r"\b(?:unknown|no) (?:conversation|session)(?: found)?\b"
    r"|\b(?:conversation|session) not found\b"
    r"|\b(?:failed to|cannot|could not) resume\b",
    re.IGNORECASE,
)
_QUOTA: Final = re.compile(
    r"RESOURCE_EXHAUSTED|quota (?:reached|exceeded|exhausted)|\b429\b|too many requests",
    re.IGNORECASE,
)
_ERRORS_KEPT: Final = 1000


def is_unknown_session_error(stdout: str, stderr: str = "") -> bool:
    """True when agy could not resume the conversation it was given (``--conversation``)."""
    return bool(_UNKNOWN_CONVERSATION.search(stdout) or _UNKNOWN_CONVERSATION.search(stderr))


class _Run:
    """What one pass over the lines has seen so far."""

    def __init__(self) -> None:
        self.conversation: str | None = None
        self.model: str | None = None
        self.cwd: str | None = None
        self.steps: dict[str, dict[str, int | None]] = {}  # latest usage of each step
        self.result: dict[str, Any] | None = None
        self.streamed: list[str] = []
        self.errors: list[str] = []
        self.errors_omitted = 0
        self.tool_steps: set[str] = set()
        self.failed_tools: set[str] = set()
        self.denied = 0
        self.other_text: deque[str] = deque(maxlen=20)

    def error(self, text: str) -> None:
        text = text.strip()
        if not text or text in self.errors:
            return
        if len(self.errors) < _ERRORS_KEPT:
            self.errors.append(text)
        else:
            self.errors_omitted += 1

    def event(self, event: dict[str, Any]) -> None:
        kind = event.get("event")
        if kind == "init":
            init = as_object(event.get("init"))
            self.conversation = as_string(event.get("conversation_id")) or self.conversation
            self.model = as_string(init.get("model")) or self.model
            self.cwd = as_string(init.get("cwd")) or self.cwd
        elif kind == "step_update":
            self.step(as_object(event.get("step_update")))
        elif kind == "result":
            result = as_object(event.get("result"))
            self.result = result
            self.conversation = as_string(result.get("conversation_id")) or self.conversation
            for error in result_errors(result):
                self.error(error)
            denied = result.get("denied_actions")
            self.denied += len(denied) if type(denied) is list else 0

    def step(self, step: dict[str, Any]) -> None:
        self.conversation = as_string(step.get("conversation_id")) or self.conversation
        index = step.get("step_index")
        key = f"{as_string(step.get('conversation_id'))}:{index}"
        counted = step_key(step)
        if counted is not None:
            self.steps[counted] = step_usage(step["usage"])  # a step's latest totals, once
        step_type = step.get("step_type")
        if step_type == "agent_response":
            self.streamed.append(as_string(step.get("text_delta")) or as_string(step.get("text")))
        elif step_type == "tool" and type(index) is int:
            self.tool_steps.add(key)
            if step.get("state") == "ERROR":
                self.failed_tools.add(key)
        if step.get("state") == "ERROR":
            info = as_object(step.get("tool_info"))
            error = tool_error_text(info.get("error")) or tool_error_text(step.get("error"))
            if step_type != "tool":
                self.error(error or f"{step_type or 'step'} step failed")


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """Summarise a whole ``agy -p --output-format stream-json`` run.

    Usage is the sum of each step's latest usage when steps report it (this
    run's own model calls); otherwise the terminal ``result``'s usage, which
    for a resumed conversation may count the earlier turns too (``details``
    says which: ``usageBasis``). agy reports no cost. The terminal response is
    the final text; without a ``result`` the run was cut off and the streamed
    text stands in. The ``result``'s own usage is kept in
    ``details["conversationUsage"]`` when the steps' is used.
    """
    run = _Run()
    for line in lines:
        event = parse_json_object(line)
        if event is None:
            if line.strip():
                run.other_text.append(line.strip())
            continue
        run.event(event)

    result = run.result or {}
    parts, basis = run_parts(run.steps, result)
    status = as_string(result.get("status")) or None
    streamed = "".join(run.streamed).strip()
    response = as_string(result.get("response")).strip()
    details: dict[str, JsonValue] = {
        "status": status,
        "usageBasis": basis,
        "thinkingTokens": total(parts, "thinking_tokens"),
        "toolSteps": len(run.tool_steps),
        "failedToolSteps": len(run.failed_tools),
        "deniedActions": run.denied,
        "quotaExhausted": any(_QUOTA.search(error) for error in run.errors),
    }
    if basis == "steps" and "usage" in result:
        conversation: dict[str, JsonValue] = {}
        conversation.update(step_usage(result.get("usage")))
        details["conversationUsage"] = conversation
    if run.cwd:
        details["cwd"] = run.cwd
    if run.errors_omitted:
        details["errorsOmitted"] = run.errors_omitted
    turns = result.get("num_turns")
    outcome = result_outcome(result)
    if outcome is None and run.result is None and (run.streamed or run.steps or run.tool_steps):
        outcome = "cut_off"
    return RunSummary(
        session_id=run.conversation or None,
        model=run.model,
        usage=Usage(
            input_tokens=total(parts, "input_tokens") or 0,
            output_tokens=total(parts, "output_tokens") or 0,
            cached_tokens=total(parts, "cache_read_tokens") or 0,
        ),
        cost_usd=None,
        final_text=response or streamed or None,
        outcome=outcome,
        is_error=bool(run.errors) or (status is not None and status != "SUCCESS"),
        errors=tuple(run.errors),
        unknown_session=is_unknown_session_error("\n".join([*run.other_text, *run.errors])),
        turns=turns if type(turns) is int else None,
        complete=run.result is not None,
        details=details,
        token_usage=parts_tokens(parts),
    )
