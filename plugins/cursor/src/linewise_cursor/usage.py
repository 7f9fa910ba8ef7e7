"""cursor-agent's token counts in the usage vocabulary.

cursor-agent 2026.08 reports ``usage`` on its ``result`` as ``inputTokens``,
``outputTokens``, ``cacheReadTokens`` and ``cacheWriteTokens``: four
disjoint counts, the shape of Cursor's own usage export (input without cache
reads or writes beside them), so ``inputTokens`` is the uncached input.
Snake-case ``usage`` of other builds is read by each field's own convention:
``cache_read_input_tokens`` beside the input (Anthropic's), and
``cached_input_tokens`` inside it (OpenAI's). The OpenCode-like
``step_finish`` of older builds has ``tokens.input`` without the cache.
"""

from __future__ import annotations

from typing import Any

from linewise_contracts.extract import as_object
from linewise_contracts.usage import TokenUsage, token_count, without

__all__ = ["result_tokens", "step_tokens"]


def _first(usage: dict[str, Any], *names: str) -> int | None:
    for name in names:
        count = token_count(usage.get(name))
        if count is not None:
            return count
    return None


def result_tokens(event: dict[str, Any]) -> TokenUsage:
    """A ``result`` event's ``usage``; unknown (all None) when it has none."""
    usage = as_object(event.get("usage"))
    inside = token_count(usage.get("cached_input_tokens"))  # OpenAI-style: part of the input
    if inside is None:
        inside = token_count(usage.get("cachedInputTokens"))
    read = _first(usage, "cacheReadTokens", "cache_read_input_tokens")
    return TokenUsage(
        uncached_input=without(_first(usage, "inputTokens", "input_tokens"), inside),
        cache_read=read if inside is None else inside + (read or 0),
        cache_write=_first(usage, "cacheWriteTokens", "cache_write_input_tokens"),
        output=_first(usage, "outputTokens", "output_tokens"),
        reasoning=_first(usage, "reasoningTokens", "reasoning_tokens"),
    )


def step_tokens(tokens: dict[str, Any]) -> TokenUsage:
    """An older build's ``step_finish`` ``part.tokens`` (OpenCode's shape, reasoning inside)."""
    cache = as_object(tokens.get("cache"))
    return TokenUsage(
        uncached_input=token_count(tokens.get("input")),
        cache_read=token_count(cache.get("read")),
        cache_write=token_count(cache.get("write")),
        output=token_count(tokens.get("output")),
        reasoning=token_count(tokens.get("reasoning")),
    )
