"""Token counts of a Claude result event: one definition for the result entry and the summary."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from linewise_contracts.extract import as_int, as_object, dig
from linewise_contracts.summary import Usage
from linewise_contracts.usage import TokenUsage, token_count

__all__ = [
    "assistant_tokens",
    "is_internal_error",
    "message_tokens",
    "model_tokens",
    "model_usage_totals",
    "result_tokens",
    "result_usage",
    "wire_usage",
]

# Claude Code's own diagnostics in a result's ``errors`` ("[ede_diagnostic] result_type=user
# ..."): internal state, not an error a user can act on.
_INTERNAL_ERROR: Final = "[ede_diagnostic]"


def is_internal_error(text: str) -> bool:
    """True for an internal diagnostic string in ``errors`` that users must not be shown."""
    return text.lstrip().startswith(_INTERNAL_ERROR)


def message_tokens(usage: object) -> TokenUsage:
    """An API ``usage`` block (an assistant message's, a result's) in the usage vocabulary.

    Claude's ``input_tokens`` are the uncached input: cache reads
    (``cache_read_input_tokens``) and cache writes
    (``cache_creation_input_tokens``) are counted beside them, not in them.
    ``output_tokens`` include the thinking tokens that newer releases report in
    ``output_tokens_details.thinking_tokens``.
    """
    numbers = as_object(usage)
    return TokenUsage(
        uncached_input=token_count(numbers.get("input_tokens")),
        cache_read=token_count(numbers.get("cache_read_input_tokens")),
        cache_write=token_count(numbers.get("cache_creation_input_tokens")),
        output=token_count(numbers.get("output_tokens")),
        reasoning=token_count(dig(numbers, "output_tokens_details", "thinking_tokens")),
    )


# The usage some Claude-compatible back ends (GLM through a proxy, seen in real logs) put on
# every streamed assistant message: two zeros, no cache fields. A message with content cannot
# have cost 0 input and 0 output tokens, so these are placeholders, not counts.
_PLACEHOLDER_KEYS: Final = frozenset({"input_tokens", "output_tokens"})


def assistant_tokens(message: Mapping[str, Any]) -> TokenUsage:
    """An assistant message's ``usage`` in the usage vocabulary; placeholder zeros are unknown.

    ``{"input_tokens": 0, "output_tokens": 0}`` and nothing else, on a message
    that has content, is what some Claude-compatible back ends send instead of
    counts: every figure is then unknown (None), never 0. Any other block,
    zeros included, is taken as reported (:func:`message_tokens`).
    """
    usage = message.get("usage")
    if (
        isinstance(usage, Mapping)
        and usage.keys() == _PLACEHOLDER_KEYS
        and usage.get("input_tokens") == 0
        and usage.get("output_tokens") == 0
        and message.get("content")
    ):
        return TokenUsage()
    return message_tokens(usage)


def model_tokens(numbers: object) -> TokenUsage:
    """One model's entry of a result's ``modelUsage`` (camelCase) in the usage vocabulary."""
    entry = as_object(numbers)
    return TokenUsage(
        uncached_input=token_count(entry.get("inputTokens")),
        cache_read=token_count(entry.get("cacheReadInputTokens")),
        cache_write=token_count(entry.get("cacheCreationInputTokens")),
        output=token_count(entry.get("outputTokens")),
        reasoning=token_count(entry.get("thinkingTokens")),
    )


def result_tokens(result: Mapping[str, Any]) -> tuple[TokenUsage, dict[str, TokenUsage]]:
    """A result's tokens in the vocabulary, and per model where it has ``modelUsage``.

    The total is the sum over ``modelUsage`` (every model call of the session:
    main loop, subagents, internal calls) when present, else the ``usage`` block
    (the main loop only).
    """
    per_model = {
        name: model_tokens(numbers)
        for name, numbers in as_object(result.get("modelUsage")).items()
        if type(numbers) is dict
    }
    if per_model:
        return sum(per_model.values(), TokenUsage()), per_model
    return message_tokens(result.get("usage")), {}


def wire_usage(tokens: TokenUsage) -> Usage:
    """The wire-format :class:`Usage` of Claude's tokens: cache writes count as input."""
    return Usage(
        input_tokens=(tokens.uncached_input or 0) + (tokens.cache_write or 0),
        output_tokens=tokens.output or 0,
        cached_tokens=tokens.cache_read or 0,
    )


def model_usage_totals(model_usage: object) -> Usage | None:
    """Usage summed over ``modelUsage`` (every model the run used, subagents included).

    Cache writes count as input; cache reads are the cached tokens. None when
    ``modelUsage`` is missing or empty.
    """
    models = as_object(model_usage)
    if not models:
        return None
    total = Usage()
    for numbers in models.values():
        entry = as_object(numbers)
        total += Usage(
            input_tokens=as_int(entry.get("inputTokens"))
            + as_int(entry.get("cacheCreationInputTokens")),
            output_tokens=as_int(entry.get("outputTokens")),
            cached_tokens=as_int(entry.get("cacheReadInputTokens")),
        )
    return total


def result_usage(result: Mapping[str, Any]) -> Usage:
    """A result event's usage: ``modelUsage`` totals when present, else its ``usage`` block.

    ``modelUsage`` covers every model call of the session so far (main loop,
    subagents, internal calls); ``usage`` only the main loop. Input counts
    cache writes, ``cached`` is cache reads, in both cases.
    """
    totals = model_usage_totals(result.get("modelUsage"))
    if totals is not None:
        return totals
    usage = as_object(result.get("usage"))
    return Usage(
        input_tokens=as_int(usage.get("input_tokens"))
        + as_int(usage.get("cache_creation_input_tokens")),
        output_tokens=as_int(usage.get("output_tokens")),
        cached_tokens=as_int(usage.get("cache_read_input_tokens")),
    )
