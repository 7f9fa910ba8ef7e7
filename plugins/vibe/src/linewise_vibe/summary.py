"""Whole-run summaries of Vibe's streaming output and of a Vibe session log."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from linewise_contracts.entries import JsonValue
from linewise_contracts.extract import (
    as_list,
    as_object,
    as_string,
    content_text,
    parse_json_object,
)
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage

from linewise_vibe.sniff import SESSION_RECORD

__all__ = ["summarize_run", "token_usage"]


def _count(value: object) -> int | None:
    return value if type(value) is int and value >= 0 else None


def token_usage(stats: dict[str, Any]) -> TokenUsage:
    """Vibe's ``AgentStats`` in the vocabulary.

    Vibe counts ``session_prompt_tokens`` and ``session_completion_tokens`` with
    no cache split, so the prompt tokens are the uncached input as far as Vibe
    says, and cache reads and writes are unknown.
    """
    return TokenUsage(
        uncached_input=_count(stats.get("session_prompt_tokens")),
        output=_count(stats.get("session_completion_tokens")),
    )


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """Summarise Vibe's messages: the last assistant text, tool calls, and a session's meta.

    ``--output streaming`` prints messages only (no usage, no end event): the
    outcome is unknown. A session log's meta record gives the session id,
    title, its stats' tokens and, with ``end_time``, that the session ended.
    """
    meta: dict[str, Any] = {}
    model: str | None = None
    final: str | None = None
    tool_calls = 0
    last_role: str | None = None
    for line in lines:
        message = parse_json_object(line)
        if message is None:
            continue
        if message.get("type") == SESSION_RECORD:
            meta = as_object(message.get("meta"))
            model = as_string(message.get("model")) or None
            continue
        role = as_string(message.get("role"))
        if role in ("user", "assistant", "tool"):
            last_role = role
        if role == "assistant":
            final = content_text(message.get("content")).strip() or final
            tool_calls += len(as_list(message.get("tool_calls")))
    stats = as_object(meta.get("stats"))
    tokens = token_usage(stats) if stats else TokenUsage()
    ended = bool(meta.get("end_time"))
    details: dict[str, JsonValue] = {"toolCalls": tool_calls}
    for key in ("title", "git_branch", "git_commit", "parent_session_id"):
        if as_string(meta.get(key)):
            details[key] = as_string(meta.get(key))
    return RunSummary(
        session_id=as_string(meta.get("session_id")) or None,
        model=model,
        usage=Usage(input_tokens=tokens.uncached_input or 0, output_tokens=tokens.output or 0),
        final_text=final,
        outcome="completed" if ended and last_role == "assistant" else None,
        complete=ended,
        details=details,
        token_usage=tokens,
    )
