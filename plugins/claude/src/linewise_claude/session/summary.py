"""The summary of a Claude Code session file: model, tokens, last answer."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from linewise_contracts.extract import as_list, as_object, as_string, parse_json_object
from linewise_contracts.summary import RunSummary
from linewise_contracts.usage import TokenUsage

from linewise_claude.session.commands import slash_command
from linewise_claude.session.records import HEADER, assistant_model
from linewise_claude.usage import assistant_tokens, wire_usage

__all__ = ["summarize_session"]

# Distinct API messages counted in one summary; a longer session counts the first ones.
_MAX_MESSAGES: Final = 200_000


def _text(message: dict[str, Any]) -> str:
    parts = [
        as_string(as_object(block).get("text"))
        for block in as_list(message.get("content"))
        if as_object(block).get("type") == "text"
    ]
    return "\n".join(part for part in parts if part)


def summarize_session(lines: Iterable[str]) -> RunSummary:
    """What a session came to: its id, model, tokens and last answer.

    A session file records each API message's usage (repeated on every record
    of that message: it is counted once, by message id), per model in
    ``model_usage`` (subagents on another model apart), but no cost, so
    ``cost_usd`` stays unknown. ``complete`` says the session is at rest: its
    last prompt got an answer with no tool call left waiting (False when it
    stopped mid-turn, or was never answered). The outcome follows the end:
    ``completed`` when at rest, ``interrupted`` when a person stopped the last
    turn ("[Request interrupted by user"), else ``cut_off``.
    """
    session: str | None = None
    model: str | None = None
    usage: dict[str, tuple[str, TokenUsage]] = {}
    final: str | None = None
    prompts = 0
    answered = interrupted = False
    for line in lines:
        record = parse_json_object(line)
        if record is None:
            continue
        kind = record.get("type")
        ident = record.get("sessionId")
        if session is None and type(ident) is str and ident:
            session = ident
        if kind == HEADER:
            model = as_string(record.get("model")) or model
            continue
        message = as_object(record.get("message"))
        if kind == "user" and record.get("isSidechain") is not True:
            prompt = type(message.get("content")) is str and record.get("isMeta") is not True
            prompt = prompt and slash_command(message["content"]) is None
            prompts += prompt
            interrupted = _interrupted(message) or (interrupted and not prompt)
            # A prompt, or tool results the model reads next: the turn goes on.
            answered = answered and not (prompt or _has_block(message, "tool_result"))
        if kind != "assistant":
            continue
        # Subagents' tokens count (they are the session's spending); their model and words not.
        key = as_string(message.get("id")) or as_string(record.get("uuid"))
        if key and (key in usage or len(usage) < _MAX_MESSAGES):
            usage[key] = (as_string(message.get("model")), assistant_tokens(message))
        if record.get("isSidechain") is True:
            continue
        model = assistant_model(record) or model
        text = _text(message)
        final = text or final
        if _has_block(message, "tool_use"):
            answered = False
        elif text:
            answered = True
            interrupted = False
    tokens = TokenUsage()
    per_model: dict[str, TokenUsage] = {}
    for named, part in usage.values():
        tokens += part
        if named and not named.startswith("<"):  # "<synthetic>": no model call
            per_model[named] = per_model.get(named, TokenUsage()) + part
    outcome = "completed" if answered else "interrupted" if interrupted else None
    return RunSummary(
        session_id=session,
        model=model,
        usage=wire_usage(tokens),
        final_text=final,
        outcome=outcome if outcome or not prompts else "cut_off",
        complete=answered,
        details={"messages": len(usage), "prompts": prompts},
        token_usage=tokens,
        model_usage=per_model if sum(per_model.values(), TokenUsage()) == tokens else {},
    )


def _interrupted(message: dict[str, Any]) -> bool:
    """A user record saying a person stopped the turn ("[Request interrupted by user...")."""
    content = message.get("content")
    texts = (
        [content]
        if type(content) is str
        else [as_string(as_object(block).get("text")) for block in as_list(content)]
    )
    return any(text.startswith("[Request interrupted by user") for text in texts)


def _has_block(message: dict[str, Any], kind: str) -> bool:
    content = message.get("content")
    return type(content) is list and any(as_object(block).get("type") == kind for block in content)
