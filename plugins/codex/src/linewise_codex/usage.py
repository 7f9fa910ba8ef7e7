"""Codex's token counts in the usage vocabulary: one mapping for ``exec --json`` and rollouts."""

from __future__ import annotations

from linewise_contracts.usage import TokenUsage, token_count, without

__all__ = ["token_usage"]


def token_usage(usage: dict[str, object]) -> TokenUsage:
    """A Codex usage object (``turn.completed`` usage, a ``token_count`` total) in the vocabulary.

    Codex's ``input_tokens`` include its ``cached_input_tokens`` (cache reads) and,
    from 0.139, its ``cache_write_input_tokens``; ``output_tokens`` include the
    ``reasoning_output_tokens``. So the uncached input is what is left of
    ``input_tokens`` without the two cache counts.
    """
    cached = token_count(usage.get("cached_input_tokens"))
    written = token_count(usage.get("cache_write_input_tokens"))
    return TokenUsage(
        uncached_input=without(token_count(usage.get("input_tokens")), cached, written),
        cache_read=cached,
        cache_write=written,
        output=token_count(usage.get("output_tokens")),
        reasoning=token_count(usage.get("reasoning_output_tokens")),
    )
