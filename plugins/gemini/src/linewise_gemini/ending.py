"""What a Gemini ``result`` event says about its run, in the contract's words (contracts 1.5, 1.9).

One definition for the result entry (the parser) and the run summary: the
run's tokens in the usage vocabulary (:mod:`.usage`), per model where
``stats.models`` accounts for them, whether a cost was reported (Gemini CLI
reports none; a wrapper may add one) and how the run ended. The host's run
fold reads these from the entry, so the summary and every view agree on them.

A Gemini ``result`` ends one ``gemini -p`` invocation and its ``stats`` are
that invocation's own (a log of several runs adds them up): the entry names
no ``sessionId``, so the fold adds the results up as the summary does.
Gemini counts no turns: no ``turns``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final, cast

from linewise_contracts.entries import CostSource, ResultEntry, TokenUsageCounts
from linewise_contracts.extract import as_number, as_string, dig
from linewise_contracts.outcomes import Outcome
from linewise_contracts.usage import TokenUsage

from linewise_gemini.usage import stats_model_tokens, stats_tokens

__all__ = [
    "cost_source",
    "is_error_result",
    "is_turn_limit_result",
    "result_cost",
    "result_model_usage",
    "result_outcome",
    "with_result_fields",
]

_TURN_LIMIT_VALUES: Final = re.compile(r"^(?:turn_limit|max_turns)", re.IGNORECASE)
_TURN_LIMIT_ERROR_TYPES: Final = frozenset({"FatalTurnLimitedError", "MaxSessionTurnsError"})
# Gemini exits with 53 when --max-session-turns (or the settings' limit) is used up.
_TURN_LIMIT_EXIT_CODE: Final = 53


def is_turn_limit_result(result: Mapping[str, Any] | None, exit_code: int | None = None) -> bool:
    """True when the run stopped on its turn limit (structured fields or exit code 53 only).

    ``status``, ``stopReason``/``stop_reason`` or ``subtype`` naming a turn
    limit count, and so does a result error of type ``FatalTurnLimitedError``;
    free error text ("max_turns reached") does not.
    """
    if exit_code == _TURN_LIMIT_EXIT_CODE:
        return True
    if not result:
        return False
    for key in ("status", "stopReason", "stop_reason", "subtype"):
        value = result.get(key)
        if type(value) is str and _TURN_LIMIT_VALUES.match(value.strip()):
            return True
    return dig(result, "error", "type") in _TURN_LIMIT_ERROR_TYPES


def is_error_result(result: Mapping[str, Any]) -> bool:
    """The result says the run failed: ``is_error``, or ``status``/``subtype`` ``error``."""
    return (
        result.get("is_error") is True
        or as_string(result.get("status")).lower() == "error"
        or as_string(result.get("subtype")).lower() == "error"
    )


def result_outcome(result: Mapping[str, Any]) -> Outcome:
    """How the run this result ends came out: ``max_turns``, ``failed`` or ``completed``."""
    if is_turn_limit_result(result):
        return "max_turns"
    return "failed" if is_error_result(result) else "completed"


def result_cost(result: Mapping[str, Any]) -> float | None:
    """The cost a wrapper wrote on the result (Gemini CLI reports none), 0 included."""
    for value in (
        result.get("total_cost_usd"),
        result.get("cost_usd"),
        result.get("cost"),
        dig(result, "stats", "cost_usd"),
    ):
        number = as_number(value, -1)
        if number >= 0:
            return number
    return None


def cost_source(result: Mapping[str, Any]) -> CostSource | None:
    """``reported`` when the result carries a cost, else None (``costUsd`` 0 is no cost)."""
    return "reported" if result_cost(result) is not None else None


def result_model_usage(result: Mapping[str, Any]) -> dict[str, TokenUsage]:
    """The run's tokens per model (``stats.models``) when they account for every token of
    the result (:func:`.usage.stats_tokens`), else empty: a partial breakdown is none."""
    models = {name: tokens for name, tokens in stats_model_tokens(result).items() if name}
    tokens = stats_tokens(result)
    if not models or not tokens.known or sum(models.values(), TokenUsage()) != tokens:
        return {}
    return models


def _counts(tokens: TokenUsage) -> TokenUsageCounts:
    return cast("TokenUsageCounts", tokens.to_json())


def with_result_fields(entry: ResultEntry, result: Mapping[str, Any]) -> ResultEntry:
    """``entry`` with what a run summary reads (contract 1.5 ``usage``, ``costSource``,
    ``outcome``; 1.9 ``modelUsage``): the run's own figures, so results add up."""
    tokens = stats_tokens(result)
    if tokens.known:
        entry["usage"] = _counts(tokens)
    entry["costSource"] = cost_source(result)
    entry["outcome"] = result_outcome(result)
    models = result_model_usage(result)
    if models:
        entry["modelUsage"] = {name: _counts(usage) for name, usage in models.items()}
    return entry
