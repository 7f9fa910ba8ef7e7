"""The summary of a Codex rollout: session, model, tokens, last answer, how the last turn ended."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import as_int, as_object, as_string, parse_json_object
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage

from linewise_codex.session.items import is_prompt, message_text
from linewise_codex.usage import token_usage

__all__ = ["summarize_session"]

#: Items after which the model goes on (a call, or the output it reads next).
_TOOL_ITEMS = frozenset(
    {
        "function_call",
        "function_call_output",
        "custom_tool_call",
        "custom_tool_call_output",
        "local_shell_call",
        "web_search_call",
    }
)


def _usage(total: dict[str, Any]) -> Usage:
    # Codex's own running totals: cached input is part of input, as in its exec --json usage.
    return Usage(
        input_tokens=as_int(total.get("input_tokens")),
        output_tokens=as_int(total.get("output_tokens")),
        cached_tokens=as_int(total.get("cached_input_tokens")),
    )


def summarize_session(lines: Iterable[str]) -> RunSummary:
    """What a rollout came to, from its records.

    Tokens are the last ``token_count`` total (Codex reports running totals);
    unknown (``token_usage`` all None, ``details["tokens_known"]`` False)
    when the file has none. The outcome is how the last turn ended:
    ``completed`` (its event, or, in versions that write none, an answer after
    the last prompt with no call left to run), ``interrupted`` (a person
    aborted it: ``turn_aborted``, whose reasons are in ``details["interrupts"]``,
    never errors), else ``cut_off``; a rollout has no cost.
    """
    session: str | None = None
    model: str | None = None
    total: dict[str, Any] | None = None
    final: str | None = None
    outcome: str | None = None
    answered = False
    interrupts: list[str] = []
    prompts = 0
    for line in lines:
        record = parse_json_object(line)
        if record is None:
            continue
        kind = record.get("type")
        payload = as_object(record.get("payload"))
        sort = as_string(payload.get("type"))
        if kind == "session_meta" and session is None:
            session = as_string(payload.get("id")) or None
        elif kind == "turn_context":
            model = as_string(payload.get("model")) or model
        elif kind == "response_item" and sort == "message":
            if payload.get("role") == "assistant":
                final = message_text(payload) or final
                answered = answered or bool(message_text(payload).strip())
            if is_prompt(payload):
                prompts += 1
                outcome = None  # a new turn: how the last one ended is not known yet
                answered = False
        elif kind == "response_item" and sort in _TOOL_ITEMS:
            answered = False  # the model reads the call's output and goes on
        elif kind == "event_msg" and sort == "token_count":
            total = as_object(as_object(payload.get("info")).get("total_token_usage")) or total
        elif kind == "event_msg" and sort in ("task_complete", "turn_complete"):
            outcome = "completed"
        elif kind == "event_msg" and sort == "turn_aborted":
            outcome = "interrupted"
            interrupts.append(as_string(payload.get("reason"), "unknown"))
    complete = outcome is not None or answered
    if outcome is None:
        outcome = "completed" if answered else ("cut_off" if prompts else None)
    details: dict[str, JsonValue] = {"tokens_known": total is not None, "prompts": prompts}
    if interrupts:
        details["interrupts"] = list(interrupts[-20:])
    return RunSummary(
        session_id=session,
        model=model,
        usage=_usage(total or {}),
        final_text=final,
        outcome=outcome,
        complete=complete,
        details=details,
        token_usage=token_usage(total) if total is not None else TokenUsage(),
    )
