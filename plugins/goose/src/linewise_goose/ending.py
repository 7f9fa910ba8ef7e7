"""What a Goose ``complete`` event says about its run, in the contract's words (contracts
1.5, 1.10).

One definition for the result entry (the parser) and the run summary: the
run's tokens in the usage vocabulary, its cost when goose priced it, and its
model (the last ``model_change`` before it, contract 1.10's ``model``). A
``complete`` is the run finishing (``completed``); its figures are its own
(the summary adds them up, so the entry names no ``sessionId``). Goose
reports no turn count and no per-model split.
"""

from __future__ import annotations

from typing import Any, cast

from linewise_contracts.entries import ResultEntry, TokenUsageCounts, model_name
from linewise_contracts.extract import as_number, as_string
from linewise_contracts.usage import TokenUsage

__all__ = ["changed_model", "complete_cost", "token_usage", "with_complete_fields"]


def _count(value: object) -> int | None:
    """A whole count >= 0, else None."""
    number = as_number(value, -1)
    return int(number) if number >= 0 and number == int(number) else None


def token_usage(complete: dict[str, object]) -> TokenUsage:
    """The ``complete`` event's counts in the vocabulary.

    Goose's ``input_tokens`` is the whole prompt (its providers add the cache
    reads and writes into it, so ``total_tokens`` is input plus output); the
    uncached input is what remains after ``cache_read_input_tokens`` and
    ``cache_write_input_tokens``. Without those two fields the cache is unknown
    and the whole input counts as uncached.
    """
    total_input = _count(complete.get("input_tokens"))
    read = _count(complete.get("cache_read_input_tokens"))
    write = _count(complete.get("cache_write_input_tokens"))
    uncached = total_input
    if total_input is not None and (read is not None or write is not None):
        rest = total_input - (read or 0) - (write or 0)
        uncached = rest if rest >= 0 else total_input
    return TokenUsage(
        uncached_input=uncached,
        cache_read=read,
        cache_write=write,
        output=_count(complete.get("output_tokens")),
    )


def complete_cost(event: dict[str, Any]) -> float | None:
    """The ``complete`` event's ``cost_usd``, 0 included; None when goose did not price the run."""
    spent = as_number(event.get("cost_usd"), -1)
    return spent if spent >= 0 else None


def with_complete_fields(entry: ResultEntry, event: dict[str, Any]) -> ResultEntry:
    """``entry`` with the run's tokens (when reported), its cost source and ``completed``."""
    tokens = token_usage(event)
    if tokens.known:
        entry["usage"] = cast("TokenUsageCounts", tokens.to_json())
    entry["costSource"] = "reported" if complete_cost(event) is not None else None
    entry["outcome"] = "completed"
    return entry


def changed_model(event: dict[str, Any]) -> str | None:
    """The model a ``model_change`` event names; None when it names none (or "unknown")."""
    return model_name(as_string(event.get("model")).strip())
