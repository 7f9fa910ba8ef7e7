"""OpenCode's token counts in the usage vocabulary, for ``run --format json`` and stores.

A step's ``tokens`` are apart by kind: ``input`` is the uncached input,
``cache.read`` and ``cache.write`` the cache reads and writes. Whether
``output`` already holds the ``reasoning`` tokens depends on the OpenCode
release and provider; the step's ``total`` tells: where ``total`` is
``input + output + cache.read + cache.write`` the reasoning is inside
``output``, else (``total`` adds ``reasoning`` on top, or there is no
``total``, as OpenCode's own accounting has it) it is counted beside and
added to output here.
"""

from __future__ import annotations

from typing import Any

from linewise_contracts.extract import as_list, as_object
from linewise_contracts.usage import TokenUsage, token_count

__all__ = ["message_tokens", "step_tokens"]


def step_tokens(tokens: object) -> TokenUsage:
    """A step's ``tokens`` object; every generated token (reasoning too) is output."""
    numbers = as_object(tokens)
    cache = as_object(numbers.get("cache"))
    uncached = token_count(numbers.get("input"))
    read, written = token_count(cache.get("read")), token_count(cache.get("write"))
    output = token_count(numbers.get("output"))
    reasoning = token_count(numbers.get("reasoning"))
    total = token_count(numbers.get("total"))
    apart = TokenUsage(uncached_input=uncached, cache_read=read, cache_write=written, output=output)
    if reasoning is not None and output is not None and total != apart.total:
        output += reasoning  # counted beside output, not in it
    return TokenUsage(
        uncached_input=uncached,
        cache_read=read,
        cache_write=written,
        output=output,
        reasoning=reasoning,
    )


def message_tokens(record: dict[str, Any]) -> TokenUsage | None:
    """A stored message's tokens: its ``step-finish`` parts added up; None when it has none."""
    steps = [
        part
        for part in as_list(record.get("parts"))
        if type(part) is dict and part.get("type") == "step-finish" and "tokens" in part
    ]
    if not steps:
        return None
    return sum((step_tokens(part.get("tokens")) for part in steps), TokenUsage())
