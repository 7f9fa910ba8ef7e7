"""GitHub Copilot CLI's token counts in the usage vocabulary, from ``session.shutdown``.

A session's ``session.shutdown`` has ``modelMetrics``: per model, ``usage``
with ``inputTokens``, ``outputTokens``, ``cacheReadTokens``,
``cacheWriteTokens`` and ``reasoningTokens``. The cache counts are named
beside the input, as Anthropic's are, and read as apart from it (no capture in
the corpus has a cache read to tell otherwise); reasoning is the part of the
output that was reasoning.
"""

from __future__ import annotations

from typing import Any

from linewise_contracts.extract import as_object, dig
from linewise_contracts.usage import TokenUsage, token_count

__all__ = ["shutdown_tokens"]


def shutdown_tokens(record: dict[str, Any]) -> dict[str, TokenUsage] | None:
    """Per model, the tokens a ``session.shutdown`` record reports; None for another record."""
    if record.get("type") != "session.shutdown":
        return None
    per_model: dict[str, TokenUsage] = {}
    for model, metrics in as_object(dig(record, "data", "modelMetrics")).items():
        usage = as_object(dig(metrics, "usage"))
        if usage:
            per_model[model] = TokenUsage(
                uncached_input=token_count(usage.get("inputTokens")),
                cache_read=token_count(usage.get("cacheReadTokens")),
                cache_write=token_count(usage.get("cacheWriteTokens")),
                output=token_count(usage.get("outputTokens")),
                reasoning=token_count(usage.get("reasoningTokens")),
            )
    return per_model
