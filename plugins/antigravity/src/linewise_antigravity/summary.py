"""The whole-run summary of an Antigravity CLI run, and the unknown-conversation check."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from typing import Any, Final

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import as_number, as_object, as_string, parse_json_object
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage

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


def _count(value: object) -> int | None:
    number = as_number(value, -1)
    return int(number) if number >= 0 and number == int(number) else None


def step_usage(usage: object) -> dict[str, int | None]:
    """agy's usage block as counts (None where a field is absent or not a count).

    ``input_tokens`` are the uncached input (``total_tokens`` is input plus
    output, and ``cache_read_tokens`` can exceed it); ``thinking_tokens`` are
    part of ``output_tokens``.
    """
    body = as_object(usage)
    return {
        field: _count(body.get(field))
        for field in (
            "input_tokens",
            "output_tokens",
            "thinking_tokens",
            "cache_read_tokens",
            "total_tokens",
        )
    }


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
        if type(index) is int and type(step.get("usage")) is dict:
            self.steps[key] = step_usage(step["usage"])  # a step's latest totals, once
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


def _total(parts: Iterable[dict[str, int | None]], field: str) -> int | None:
    values = [part[field] for part in parts if part[field] is not None]
    return sum(v for v in values if v is not None) if values else None


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
    basis: str | None
    if run.steps:
        parts: list[dict[str, int | None]] = list(run.steps.values())
        basis = "steps"
    elif "usage" in result:
        parts = [step_usage(result.get("usage"))]
        basis = "result"
    else:
        parts, basis = [], None
    status = as_string(result.get("status")) or None
    streamed = "".join(run.streamed).strip()
    response = as_string(result.get("response")).strip()
    details: dict[str, JsonValue] = {
        "status": status,
        "usageBasis": basis,
        "thinkingTokens": _total(parts, "thinking_tokens"),
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
    outcome = None
    if status is not None:
        outcome = "completed" if status == "SUCCESS" else "failed"
    elif run.result is None and (run.streamed or run.steps or run.tool_steps):
        outcome = "cut_off"
    return RunSummary(
        session_id=run.conversation or None,
        model=run.model,
        usage=Usage(
            input_tokens=_total(parts, "input_tokens") or 0,
            output_tokens=_total(parts, "output_tokens") or 0,
            cached_tokens=_total(parts, "cache_read_tokens") or 0,
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
        token_usage=TokenUsage(
            uncached_input=_total(parts, "input_tokens"),
            cache_read=_total(parts, "cache_read_tokens"),
            output=_total(parts, "output_tokens"),
            reasoning=_total(parts, "thinking_tokens"),
        ),
    )
