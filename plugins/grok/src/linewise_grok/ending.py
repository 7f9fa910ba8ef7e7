"""What a Grok ``end`` event says about its run, in the contract's words (contracts 1.5, 1.9,
1.10).

One definition for the result entry (the parser) and the run summary: the
run's tokens in the usage vocabulary (the ``end``'s ``usage``, else the
per-response ``usage`` events of the run), its cost (``total_cost_usd``), its
turns (``num_turns``) and its outcome (the stop reason in the contract's
words; a ``max_turns_reached`` event makes it ``max_turns``, an error during
a run that says it completed makes it ``failed``). Concatenated runs add up
(the summary adds them), so the entry names no ``sessionId``. The ``end``'s
``modelUsage`` counts are not read: they leave out the cache writes and
reasoning its ``usage`` has, and the summary does not read them either; its
first model is the run's model (:func:`named_model`, the result's ``model``,
contract 1.10, and the summary's).
"""

from __future__ import annotations

from typing import Any, Final, cast

from linewise_contracts.entries import ResultEntry, TokenUsageCounts, model_name
from linewise_contracts.extract import as_int, as_number, as_object, as_string
from linewise_contracts.outcomes import Outcome
from linewise_contracts.usage import TokenUsage, token_count

__all__ = [
    "OUTCOMES",
    "end_cost",
    "end_turns",
    "named_model",
    "normal",
    "run_outcome",
    "tokens_from",
    "with_end_fields",
]

#: Grok's stop reasons (ACP's, compared normalised) in the contract's words.
OUTCOMES: Final[dict[str, Outcome]] = {
    "endturn": "completed",
    "maxtokens": "max_tokens",
    "maxturnrequests": "max_turns",
    "maxturns": "max_turns",
    "refusal": "refused",
    "cancelled": "interrupted",
}


def normal(stop_reason: str) -> str:
    """A stop reason without case or underscores (Grok 0.2 wrote ``EndTurn``, 1.x ``end_turn``)."""
    return stop_reason.replace("_", "").lower()


def tokens_from(usage: object) -> TokenUsage:
    """A Grok ``usage`` object in the usage vocabulary.

    Headless ``input_tokens`` are the uncached input: cache reads and writes
    (``cache_read_input_tokens``, ``cache_creation_input_tokens``) are beside
    them, and ``reasoning_tokens`` are the reasoning part of ``output_tokens``.
    """
    numbers = as_object(usage)
    return TokenUsage(
        uncached_input=token_count(numbers.get("input_tokens")),
        cache_read=token_count(numbers.get("cache_read_input_tokens")),
        cache_write=token_count(numbers.get("cache_creation_input_tokens")),
        output=token_count(numbers.get("output_tokens")),
        reasoning=token_count(numbers.get("reasoning_tokens")),
    )


def end_cost(event: dict[str, Any]) -> float | None:
    """The ``end``'s ``total_cost_usd``, 0 included; None when it reports none."""
    cost = as_number(event.get("total_cost_usd"), -1)
    return cost if cost >= 0 else None


def end_turns(event: dict[str, Any]) -> int | None:
    """The turns the ``end`` counts (``num_turns``); None without them."""
    turns = as_int(event.get("num_turns"), -1)
    return turns if turns >= 0 else None


def run_outcome(stop_reason: str, *, errors: bool, max_turns: bool) -> Outcome | None:
    """How a run ended: its stop reason's word, ``max_turns`` after a ``max_turns_reached``
    event, ``failed`` when an error came and the stop reason says no worse."""
    if max_turns:
        return "max_turns"
    word = OUTCOMES.get(normal(stop_reason))
    if errors and word in (None, "completed"):
        return "failed"
    return word


def with_end_fields(
    entry: ResultEntry,
    event: dict[str, Any],
    *,
    responses: TokenUsage | None = None,
    errors: bool = False,
    max_turns: bool = False,
) -> ResultEntry:
    """``entry`` with the run's tokens, cost source, turns and outcome.

    ``responses``: the tokens of the run's ``usage`` events, the run's when its
    ``end`` reports none; ``errors`` / ``max_turns``: the run had an ``error``
    / a ``max_turns_reached`` event (the stateful parser knows).
    """
    tokens = tokens_from(event.get("usage")) if "usage" in event else responses
    if tokens is not None and tokens.known:
        entry["usage"] = cast("TokenUsageCounts", tokens.to_json())
    entry["costSource"] = "reported" if end_cost(event) is not None else None
    turns = end_turns(event)
    if turns is not None:
        entry["turns"] = turns
    outcome = run_outcome(
        as_string(event.get("stopReason")).strip(), errors=errors, max_turns=max_turns
    )
    if outcome is not None:
        entry["outcome"] = outcome
    return entry


def named_model(event: dict[str, Any], kind: str) -> str | None:
    """The model an event names: an ``end``'s first ``modelUsage`` model, else the event's
    ``model``; None when it names none (or "unknown")."""
    if kind == "end":
        for name in as_object(event.get("modelUsage")):
            if model_name(name) is not None:
                return name
    return model_name(event.get("model"))
