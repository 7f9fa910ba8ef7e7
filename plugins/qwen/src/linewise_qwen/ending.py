"""What a Qwen Code ``result`` event says about its session, in the contract's words
(contracts 1.5, 1.9).

One definition for the result entry (the parser) and the run summary. Qwen
Code writes Claude Code's envelope but counts its own way: ``input_tokens``
includes the cache reads (``cache_read_input_tokens``). Its result's
``usage`` and ``modelUsage`` come from the process's telemetry, the
session's so far (a stream-json session of several prompts reports growing
totals), while ``num_turns`` counts the turns of the prompt the result ends
(``runNonInteractive``'s own counter). So the entry names its ``sessionId``
(the latest result of a session counts) and its ``turns`` add up. Qwen
reports no cost.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, cast

from linewise_contracts.entries import ResultEntry, TokenUsageCounts
from linewise_contracts.extract import as_int, as_object, as_string
from linewise_contracts.outcomes import Outcome
from linewise_contracts.usage import TokenUsage

__all__ = [
    "result_model_usage",
    "result_outcome",
    "result_turns",
    "token_usage",
    "with_result_fields",
]

# Result subtypes (types.ts CLIResultMessage) in the outcome words.
_OUTCOMES: Final[dict[str, Outcome]] = {
    "success": "completed",
    "error_max_turns": "max_turns",
    "error_during_execution": "failed",
    "error_max_structured_output_retries": "failed",
}
#: Most turns one result can count: beyond it, ``num_turns`` is no count.
MAX_TURNS: Final = 10**9


def _count(value: object) -> int | None:
    number = as_int(value, -1)
    return number if number >= 0 else None


def token_usage(usage: Mapping[str, Any], *, camel: bool = False) -> TokenUsage:
    """Qwen's usage in the usage vocabulary.

    Qwen fills ``input_tokens`` from the model's prompt token count, which
    includes the cached part it reports as ``cache_read_input_tokens``, so the
    uncached input is the difference (unlike Claude's, which excludes it).
    ``modelUsage`` entries spell the same counts in camelCase.
    """
    keys = (
        ("inputTokens", "cacheReadInputTokens", "cacheCreationInputTokens", "outputTokens")
        if camel
        else (
            "input_tokens",
            "cache_read_input_tokens",
            "cache_creation_input_tokens",
            "output_tokens",
        )
    )
    given, read, write, output = (_count(usage.get(key)) for key in keys)
    uncached = given
    if given is not None:
        uncached = max(given - (read or 0) - (write or 0), 0)
    return TokenUsage(uncached_input=uncached, cache_read=read, cache_write=write, output=output)


def result_model_usage(result: Mapping[str, Any]) -> dict[str, TokenUsage]:
    """The session's tokens so far per model (the result's ``modelUsage``)."""
    return {
        name: token_usage(as_object(counts), camel=True)
        for name, counts in as_object(result.get("modelUsage")).items()
    }


def result_outcome(result: Mapping[str, Any]) -> Outcome:
    """The result's subtype in the outcome words (an unknown one: ``is_error`` decides)."""
    subtype = as_string(result.get("subtype"))
    return _OUTCOMES.get(subtype, "failed" if result.get("is_error") is True else "completed")


def result_turns(result: Mapping[str, Any]) -> int | None:
    """The turns the result's prompt took (``num_turns``), None when it gives none."""
    turns = _count(result.get("num_turns"))
    return turns if turns is not None and turns <= MAX_TURNS else None


def _counts(tokens: TokenUsage) -> TokenUsageCounts:
    return cast("TokenUsageCounts", tokens.to_json())


def with_result_fields(entry: ResultEntry, result: Mapping[str, Any]) -> ResultEntry:
    """``entry`` with what a run summary reads (contract 1.5 ``usage``, ``costSource``,
    ``outcome``, ``sessionId``; 1.9 ``turns``, ``modelUsage``), as the module says.

    Usage and usage per model only with the session they are the totals of
    (without it a running total would be added up).
    """
    session = as_string(result.get("session_id"))
    tokens = token_usage(as_object(result.get("usage")))
    if session and tokens.known:
        entry["usage"] = _counts(tokens)
    entry["costSource"] = None  # Qwen reports no cost: costUsd 0 is none
    entry["outcome"] = result_outcome(result)
    if session:
        entry["sessionId"] = session
        models = {name: _counts(usage) for name, usage in result_model_usage(result).items()}
        if models:
            entry["modelUsage"] = models
    turns = result_turns(result)
    if turns is not None:
        entry["turns"] = turns
    return entry
