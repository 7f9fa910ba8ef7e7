"""What a Claude ``result`` event says about its session, in the contract's words (contracts
1.5, 1.9, 1.10).

One definition for the result entry (the parser) and the run summary: the
session's tokens in the usage vocabulary, where its cost came from, how the
session ended, and the model a main-thread message names where the ``init``
named none (:func:`message_model`). The host's run fold reads these from the entry, so the
summary and every view agree on them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, cast

from linewise_contracts.entries import CostSource, TokenUsageCounts, model_name
from linewise_contracts.extract import as_int, as_number, as_string
from linewise_contracts.outcomes import Outcome

from linewise_claude.classify import is_max_turns_result, is_refusal_result
from linewise_claude.usage import result_tokens

__all__ = [
    "INTERRUPTED",
    "cost_source",
    "failed",
    "message_model",
    "result_outcome",
    "result_turns",
    "result_usage_fields",
]

#: Most turns one result can count: beyond it, ``num_turns`` is no count.
MAX_TURNS: Final = 10**9
#: The text Claude Code writes as the user's turn when a person stops the run.
INTERRUPTED: Final = "[Request interrupted by user"


def failed(result: Mapping[str, Any]) -> bool:
    """The result says the session failed: ``is_error``, or an ``error_*`` subtype."""
    return result.get("is_error") is True or as_string(result.get("subtype")).startswith("error")


def result_outcome(result: Mapping[str, Any], *, interrupted: bool) -> Outcome:
    """How the session this result ends came out (:data:`linewise_contracts.outcomes.OUTCOMES`).

    ``interrupted``: a person stopped the run before this result (Claude Code
    then writes an error result; the interruption is what happened).
    """
    if is_max_turns_result(result):
        return "max_turns"
    if as_string(result.get("subtype")) == "error_max_budget_usd":
        return "budget"
    if is_refusal_result(result):
        return "refused"
    if failed(result):
        return "interrupted" if interrupted else "failed"
    return "completed"


def cost_source(result: Mapping[str, Any]) -> CostSource | None:
    """``reported`` when the result has a cost (``total_cost_usd``, 0 included), else None."""
    return "reported" if as_number(result.get("total_cost_usd"), -1) >= 0 else None


def result_usage_fields(
    result: Mapping[str, Any],
) -> tuple[TokenUsageCounts | None, dict[str, TokenUsageCounts] | None]:
    """A result's ``usage`` and ``modelUsage`` fields (contracts 1.5, 1.9), its tokens
    read once: the session's tokens so far in the usage vocabulary, null for a count not
    reported (``modelUsage`` summed over its models, every model call of the session, when
    the result has it, else its ``usage`` block, the main loop; None when neither reports
    a count), and the same per model (None without ``modelUsage``)."""
    tokens, per_model = result_tokens(result)
    counts = cast("TokenUsageCounts", tokens.to_json()) if tokens.known else None
    models = {
        model: cast("TokenUsageCounts", usage.to_json())
        for model, usage in per_model.items()
        if model
    }
    return counts, models or None


def result_turns(result: Mapping[str, Any]) -> int | None:
    """The turns this result counts (``num_turns``: its own, not its session's so far)."""
    turns = as_int(result.get("num_turns"), -1)
    return turns if 0 <= turns <= MAX_TURNS else None


def message_model(message: Mapping[str, Any]) -> str | None:
    """The model an assistant message names; None for none, and for a placeholder such as
    ``<synthetic>`` (a message Claude Code made itself) or "unknown"."""
    named = model_name(message.get("model"))
    return None if named is None or named.startswith("<") else named
