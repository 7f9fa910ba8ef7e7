"""What a ``droid exec`` ``completion`` (or ``result``) says, in the contract's words (1.5, 1.9).

One definition for the result entry (the parser) and the run summary: the
run's tokens in the usage vocabulary (Anthropic's field names), its cost when
it reports one, its turns (``numTurns``) and whether it failed. Each
completion's figures are its own (the summary adds them up), so the entry
names no ``sessionId``; Droid names one model without a per-model split (no
``modelUsage``).
"""

from __future__ import annotations

from typing import Any, cast

from linewise_contracts.entries import ResultEntry, TokenUsageCounts
from linewise_contracts.extract import as_number, as_object
from linewise_contracts.outcomes import Outcome
from linewise_contracts.usage import TokenUsage

__all__ = [
    "count",
    "final_cost",
    "final_failed",
    "final_outcome",
    "final_tokens",
    "final_turns",
    "token_usage",
    "with_final_fields",
]


def count(value: object) -> int | None:
    """A whole count >= 0, else None."""
    number = as_number(value, -1)
    return int(number) if number >= 0 and number == int(number) else None


def token_usage(usage: object, *, camel: bool = False) -> TokenUsage:
    """Droid's usage block in the vocabulary.

    ``droid exec`` reports Anthropic's field names (``input_tokens`` without
    cache reads, ``cache_read_input_tokens``, ``cache_creation_input_tokens``,
    ``output_tokens``); a session's ``.settings.json`` the camelCase ones
    (``inputTokens``, ``cacheReadTokens``, ``cacheCreationTokens``,
    ``outputTokens``, ``thinkingTokens``).
    """
    body = as_object(usage)
    if camel:
        return TokenUsage(
            uncached_input=count(body.get("inputTokens")),
            cache_read=count(body.get("cacheReadTokens")),
            cache_write=count(body.get("cacheCreationTokens")),
            output=count(body.get("outputTokens")),
            reasoning=count(body.get("thinkingTokens")),
        )
    return TokenUsage(
        uncached_input=count(body.get("input_tokens")),
        cache_read=count(body.get("cache_read_input_tokens")),
        cache_write=count(body.get("cache_creation_input_tokens")),
        output=count(body.get("output_tokens")),
        reasoning=count(body.get("reasoning_tokens") or body.get("thinking_tokens")),
    )


def final_tokens(event: dict[str, Any]) -> TokenUsage | None:
    """A completion's tokens; None when it has no ``usage`` block."""
    usage = event.get("usage")
    return token_usage(usage) if type(usage) is dict else None


def final_cost(event: dict[str, Any]) -> float | None:
    """A completion's cost (``total_cost_usd``, else ``costUsd``), 0 included; None if not given."""
    cost = as_number(event.get("total_cost_usd", event.get("costUsd")), -1)
    return cost if cost >= 0 else None


def final_failed(event: dict[str, Any]) -> bool:
    """The completion says the run failed (``is_error`` or ``isError``)."""
    return event.get("is_error") is True or event.get("isError") is True


def final_outcome(event: dict[str, Any]) -> Outcome:
    """``failed`` for a failed completion, else ``completed``."""
    return "failed" if final_failed(event) else "completed"


def final_turns(event: dict[str, Any]) -> int | None:
    """The turns the completion counts (``numTurns``, else ``num_turns``); None without them."""
    return count(event.get("numTurns", event.get("num_turns")))


def with_final_fields(entry: ResultEntry, event: dict[str, Any]) -> ResultEntry:
    """``entry`` with the completion's tokens, cost source, outcome and turns."""
    tokens = final_tokens(event)
    if tokens is not None and tokens.known:
        entry["usage"] = cast("TokenUsageCounts", tokens.to_json())
    entry["costSource"] = "reported" if final_cost(event) is not None else None
    entry["outcome"] = final_outcome(event)
    turns = final_turns(event)
    if turns is not None:
        entry["turns"] = turns
    return entry
