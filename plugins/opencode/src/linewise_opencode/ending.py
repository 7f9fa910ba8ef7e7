"""What an OpenCode ``step_finish`` says about its step, in the contract's words
(contracts 1.5, 1.9).

One definition for the ``result`` entry the parsers make of a step (``run
--format json``'s ``step_finish`` event, a stored message's ``step-finish``
part) and the run summaries: the step's own tokens in the usage vocabulary
(:func:`.usage.step_tokens`), its own cost (OpenCode prices every step), how
it finished, and, on stdout, the one turn (model round trip) it is. A step's
figures are its own, not its session's so far: the entry names no
``sessionId``, so the fold adds the steps up as the summaries do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from linewise_contracts.entries import ResultEntry, TokenUsageCounts, model_name
from linewise_contracts.extract import as_number, as_object, as_string
from linewise_contracts.outcomes import Outcome

from linewise_opencode.outcome import finish_outcome
from linewise_opencode.usage import step_tokens

__all__ = [
    "step_cost",
    "step_failed",
    "step_outcome",
    "step_reason",
    "with_step_fields",
]


def step_reason(part: Mapping[str, Any]) -> str | None:
    """The step's finish reason (the AI SDK's: ``stop``, ``tool-calls``, ...), None without one."""
    return as_string(part.get("reason")) or None


def step_failed(part: Mapping[str, Any]) -> bool:
    """The step ended on an error: its reason ``error`` or its status ``error``."""
    return part.get("reason") == "error" or part.get("status") == "error"


def step_cost(part: Mapping[str, Any]) -> float | None:
    """The step's cost as OpenCode reported it (0 included), None when it gives none."""
    cost = as_number(part.get("cost"), -1)
    return cost if cost >= 0 else None


def step_outcome(part: Mapping[str, Any]) -> Outcome | None:
    """How the run stands after this step, were it the last: the finish reason in the
    contract's words (:func:`.outcome.finish_outcome`); ``cut_off`` for a step that
    finished to call tools (the run goes on with the next step)."""
    reason = step_reason(part)
    complete = reason is not None and reason != "tool-calls"
    return cast(
        "Outcome | None", finish_outcome(reason, failed=step_failed(part), complete=complete)
    )


def with_step_fields(
    entry: ResultEntry, part: Mapping[str, Any], *, model: str = ""
) -> ResultEntry:
    """``entry`` with what a run summary reads: ``usage`` (the step's own tokens, when it
    reports any), ``costSource``, ``outcome`` and, with ``model``, the model and its
    ``modelUsage`` (contracts 1.10, 1.9). No ``turns``: OpenCode reports no count of turns
    (the summary's are its steps, counted, which contract 1.9's field is not)."""
    if "tokens" in part:
        tokens = step_tokens(as_object(part.get("tokens")))
        if tokens.known:
            counts = cast("TokenUsageCounts", tokens.to_json())
            entry["usage"] = counts
            if model:
                entry["modelUsage"] = {model: counts.copy()}  # its own dict, not usage's
    named = model_name(model)
    if named is not None:
        entry["model"] = named  # the step's model (contract 1.10)
    entry["costSource"] = "reported" if step_cost(part) is not None else None
    outcome = step_outcome(part)
    if outcome is not None:
        entry["outcome"] = outcome
    return entry
