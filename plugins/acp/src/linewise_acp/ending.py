"""What an ACP ``session/prompt`` response says about its turn, in the contract's words (1.5, 1.9).

One definition for the result entry (the parser) and the run summary: the
turn's tokens in the usage vocabulary (the unstable ``usage`` of the
response, the turn's own: results add up, so the entry names no
``sessionId``), its one turn, and how it ended (the stop reason in the
outcome words). ACP reports no cost on the response: a cost comes, if at
all, from the session's ``usage_update`` notifications (the run summary
reads it there), so the entry says nothing of cost (no ``costSource``; its
``costUsd`` 0 is the wire's "not reported").
"""

from __future__ import annotations

from typing import Any, Final, cast

from linewise_contracts.entries import ResultEntry, TokenUsageCounts
from linewise_contracts.extract import as_object
from linewise_contracts.outcomes import Outcome
from linewise_contracts.usage import TokenUsage, token_count

__all__ = ["OUTCOMES", "prompt_tokens", "response_usage", "stop_outcome", "with_result_fields"]

#: ACP's stop reasons in the contract's words; ``cancelled`` is the client stopping the turn,
#: ``error`` the parser's word for a JSON-RPC error answering the prompt.
OUTCOMES: Final[dict[str, Outcome]] = {
    "end_turn": "completed",
    "max_tokens": "max_tokens",
    "max_turn_requests": "max_turns",
    "refusal": "refused",
    "cancelled": "interrupted",
    "error": "failed",
}


def prompt_tokens(usage: dict[str, Any]) -> TokenUsage:
    """The unstable ``usage`` of a ``session/prompt`` response in the usage vocabulary.

    ACP names the cache counts beside the input (``cachedReadTokens``,
    ``cachedWriteTokens``) and the reasoning beside the output
    (``thoughtTokens``); read as disjoint input counts, and reasoning as the
    part of output it is for the models behind ACP agents.
    """
    return TokenUsage(
        uncached_input=token_count(usage.get("inputTokens")),
        cache_read=token_count(usage.get("cachedReadTokens")),
        cache_write=token_count(usage.get("cachedWriteTokens")),
        output=token_count(usage.get("outputTokens")),
        reasoning=token_count(usage.get("thoughtTokens")),
    )


def response_usage(result: dict[str, Any]) -> TokenUsage | None:
    """A prompt response's (its ``result`` object's) tokens; None without a ``usage``."""
    usage = as_object(result.get("usage"))
    return prompt_tokens(usage) if usage else None


def stop_outcome(stop: str | None) -> Outcome | None:
    """A stop reason (or ``error``) as an outcome word; None for one ACP does not define."""
    return OUTCOMES.get(stop or "")


def with_result_fields(entry: ResultEntry, result: dict[str, Any], stop: str) -> ResultEntry:
    """``entry`` with the turn's usage (when reported) and its outcome. No ``turns``: ACP
    reports no count of turns (a prompt response ends one, which contract 1.9's field, a
    count the CLI reports, is not)."""
    tokens = response_usage(result)
    if tokens is not None and tokens.known:
        entry["usage"] = cast("TokenUsageCounts", tokens.to_json())
    outcome = stop_outcome(stop)
    if outcome is not None:
        entry["outcome"] = outcome
    return entry
