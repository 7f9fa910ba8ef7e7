"""Token counts of a Claude result event: one definition for the result entry and the summary."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from linewise_contracts.extract import as_int, as_object
from linewise_contracts.summary import Usage

__all__ = ["is_internal_error", "model_usage_totals", "result_usage"]

# Claude Code's own diagnostics in a result's ``errors`` ("[ede_diagnostic] result_type=user
# ..."): internal state, not an error a user can act on.
_INTERNAL_ERROR: Final = "[ede_diagnostic]"


def is_internal_error(text: str) -> bool:
    """True for an internal diagnostic string in ``errors`` that users must not be shown."""
    return text.lstrip().startswith(_INTERNAL_ERROR)


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
