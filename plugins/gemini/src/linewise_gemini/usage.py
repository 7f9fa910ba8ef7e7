"""Gemini CLI's token counts in the usage vocabulary: stream-json ``stats`` and saved chats.

Gemini's prompt count (``input_tokens`` in stream-json, ``input`` in a saved
chat, ``promptTokenCount`` in the API) includes the cached tokens. stream-json
``stats`` also carry Gemini's own ``input``: the prompt without the cached
tokens, the uncached input. Thought tokens are output: a saved chat reports
them (``thoughts``); stream-json counts them only in ``total_tokens``, so
there they are what ``total_tokens`` has beyond the prompt and the output.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from linewise_contracts.extract import as_object
from linewise_contracts.usage import TokenUsage, token_count, without

__all__ = ["chat_tokens", "stats_model_tokens", "stats_tokens"]


def _first(source: Mapping[str, Any], *names: str) -> int | None:
    for name in names:
        count = token_count(source.get(name))
        if count is not None:
            return count
    return None


def _plus(a: int | None, b: int | None) -> int | None:
    return a if b is None else b if a is None else a + b


def stats_tokens(event: Mapping[str, Any]) -> TokenUsage:
    """A ``result`` event's tokens: its ``stats`` (stream-json), ``usage`` or ``usageMetadata``."""
    source = as_object(event.get("stats")) or as_object(event.get("usage"))
    source = (
        as_object(source.get("usageMetadata")) or as_object(event.get("usageMetadata")) or source
    )
    return _tokens(source)


def stats_model_tokens(event: Mapping[str, Any]) -> dict[str, TokenUsage]:
    """Per model, from ``stats.models`` (Gemini CLI 0.2x+ names each model it called)."""
    models = as_object(as_object(event.get("stats")).get("models"))
    return {name: _tokens(numbers) for name, numbers in models.items() if type(numbers) is dict}


def _tokens(source: Mapping[str, Any]) -> TokenUsage:
    prompt = _first(source, "input_tokens", "inputTokens", "promptTokenCount")
    cached = _first(
        source, "cached", "cached_input_tokens", "cachedInputTokens", "cachedContentTokenCount"
    )
    uncached = token_count(source.get("input"))  # Gemini's own uncached input, where it says
    if uncached is None:
        uncached = without(prompt, cached)
    output = _first(source, "output_tokens", "outputTokens", "candidatesTokenCount")
    thoughts = _first(source, "thoughts", "thoughtsTokenCount")
    total = _first(source, "total_tokens", "totalTokens", "totalTokenCount")
    if thoughts is None and total is not None and prompt is not None and output is not None:
        thoughts = without(total, prompt, output)
    return TokenUsage(
        uncached_input=uncached,
        cache_read=cached,
        output=_plus(output, thoughts),
        reasoning=thoughts,
    )


def chat_tokens(record: dict[str, Any]) -> TokenUsage | None:
    """A saved chat reply's ``tokens`` (``input`` with ``cached`` in it, ``thoughts``, ``tool``).

    The tool-use prompt tokens (``tool``) are input Gemini counts beside the
    prompt: they are uncached input too.
    """
    tokens = record.get("tokens")
    if type(tokens) is not dict:
        return None
    cached = token_count(tokens.get("cached"))
    output = token_count(tokens.get("output"))
    thoughts = token_count(tokens.get("thoughts"))
    return TokenUsage(
        uncached_input=_plus(
            without(token_count(tokens.get("input")), cached), token_count(tokens.get("tool"))
        ),
        cache_read=cached,
        output=_plus(output, thoughts),
        reasoning=thoughts,
    )
