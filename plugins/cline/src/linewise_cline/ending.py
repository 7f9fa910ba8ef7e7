"""What a ``cline --json`` ``run_result`` says about its run, in the contract's words (1.5,
1.10).

One definition for the result entry (the parser) and the run summary: the
run's tokens and cost (``aggregateUsage``, else ``usage``: the whole run's),
and its ``finishReason`` as the outcome (``completed``; ``error`` is failed;
``aborted``, a person stopping it, is interrupted). The entry names the task
(``sessionId``) where the stream named one: the summary reads the run's last
``run_result`` only, so a later result of that task replaces this one. A
result without a usage block says nothing of tokens or cost (the summary
then sums the per-request ``usage`` events). Cline counts ``iterations``, not
the turns the contract means, and names one model (``model.id``, the result's
``model``, contract 1.10) without a per-model split: neither ``turns`` nor
``modelUsage``.
"""

from __future__ import annotations

from typing import Any, Final, cast

from linewise_contracts.entries import CostSource, ResultEntry, TokenUsageCounts, model_name
from linewise_contracts.extract import as_number, as_object, as_string
from linewise_contracts.outcomes import Outcome
from linewise_contracts.usage import TokenUsage

__all__ = [
    "OUTCOMES",
    "count",
    "result_cost",
    "result_model",
    "result_outcome",
    "result_usage_block",
    "token_usage",
    "with_result_fields",
]

#: ``finishReason`` in the contract's words.
OUTCOMES: Final[dict[str, Outcome]] = {
    "completed": "completed",
    "error": "failed",
    "aborted": "interrupted",
}


def count(value: object) -> int | None:
    """A whole count >= 0, else None."""
    number = as_number(value, -1)
    return int(number) if number >= 0 and number == int(number) else None


def token_usage(usage: dict[str, Any]) -> TokenUsage:
    """A Cline usage block in the vocabulary.

    ``totalInputTokens``, where Cline gives it, is the whole prompt: the
    uncached input is what remains after cache reads and writes. Without it
    ``inputTokens`` is taken as the uncached input (Anthropic's meaning, which
    Cline's usage fields are named after). ``reasoningTokenCount`` is part of
    the output.
    """
    read = count(usage.get("cacheReadTokens"))
    write = count(usage.get("cacheWriteTokens"))
    total = count(usage.get("totalInputTokens"))
    uncached = count(usage.get("inputTokens"))
    if total is not None:
        rest = total - (read or 0) - (write or 0)
        uncached = rest if rest >= 0 else uncached
    return TokenUsage(
        uncached_input=uncached,
        cache_read=read,
        cache_write=write,
        output=count(usage.get("outputTokens")),
        reasoning=count(usage.get("reasoningTokenCount")),
    )


def result_usage_block(result: dict[str, Any]) -> dict[str, Any]:
    """The run's usage block of a ``run_result`` (``aggregateUsage``, else ``usage``), or {}."""
    return as_object(result.get("aggregateUsage")) or as_object(result.get("usage"))


def result_cost(usage: dict[str, Any]) -> float | None:
    """A usage block's cost (``totalCost``, else ``cost``), 0 included; None when not given."""
    spent = as_number(usage.get("totalCost", usage.get("cost")), -1)
    return spent if spent >= 0 else None


def result_outcome(result: dict[str, Any]) -> Outcome | None:
    """The ``finishReason`` as an outcome word; None for a reason without one."""
    return OUTCOMES.get(as_string(result.get("finishReason")))


def _cost_source(cost: float | None) -> CostSource | None:
    return "reported" if cost is not None else None


def with_result_fields(
    entry: ResultEntry, result: dict[str, Any], task: str | None = None
) -> ResultEntry:
    """``entry`` with the run's tokens and cost (when it has a usage block), its outcome and,
    when the stream named it, its task."""
    usage = result_usage_block(result)
    if usage:
        tokens = token_usage(usage)
        if tokens.known:
            entry["usage"] = cast("TokenUsageCounts", tokens.to_json())
        entry["costSource"] = _cost_source(result_cost(usage))
    outcome = result_outcome(result)
    if outcome is not None:
        entry["outcome"] = outcome
    if task:
        entry["sessionId"] = task
    model = result_model(result)
    if model is not None:
        entry["model"] = model
    return entry


def result_model(result: dict[str, Any]) -> str | None:
    """The model a ``run_result`` names (``model.id``); None when it names none."""
    return model_name(as_string(as_object(result.get("model")).get("id")).strip())
