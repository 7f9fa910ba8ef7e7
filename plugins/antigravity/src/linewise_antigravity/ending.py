"""What an Antigravity (``agy``) run's usage and ``result`` say, in the contract's words
(contracts 1.5, 1.9).

One definition for the ``result`` entry (the stateful parser, which sees the
run's steps) and the run summary. agy reports usage twice: each step's
``usage`` (its latest update counts, once), this run's own model calls; and
the terminal ``result``'s ``usage``, which for a resumed conversation may
count its earlier turns too. The run's tokens are the steps' when steps report
them (the run's own: the entry names no ``sessionId`` and runs add up), else
the result's (the conversation's so far: the entry names the conversation as
``sessionId``, so a later result of it replaces the earlier). agy reports no
cost; ``num_turns`` is the result's own turns.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal, cast

from linewise_contracts.entries import ResultEntry, TokenUsageCounts
from linewise_contracts.extract import as_number, as_object, as_string
from linewise_contracts.outcomes import Outcome
from linewise_contracts.usage import TokenUsage

__all__ = [
    "Parts",
    "parts_tokens",
    "result_outcome",
    "run_parts",
    "step_key",
    "step_usage",
    "total",
    "with_result_fields",
]

#: One usage block as counts (:func:`step_usage`).
Parts = list[dict[str, int | None]]
#: Where a run's tokens came from: its steps, its result, or nowhere.
Basis = Literal["steps", "result"] | None


def _count(value: object) -> int | None:
    number = as_number(value, -1)
    return int(number) if number >= 0 and number == int(number) else None


def step_usage(usage: object) -> dict[str, int | None]:
    """agy's usage block as counts (None where a field is absent or not a count).

    ``input_tokens`` are the uncached input (``total_tokens`` is input plus
    output, and ``cache_read_tokens`` can exceed it); ``thinking_tokens`` are
    part of ``output_tokens``.
    """
    body = as_object(usage)
    return {
        field: _count(body.get(field))
        for field in (
            "input_tokens",
            "output_tokens",
            "thinking_tokens",
            "cache_read_tokens",
            "total_tokens",
        )
    }


def step_key(step: Mapping[str, Any]) -> str | None:
    """The key of a step whose update reports usage (its conversation and index), else None."""
    index = step.get("step_index")
    if type(index) is not int or type(step.get("usage")) is not dict:
        return None
    return f"{as_string(step.get('conversation_id'))}:{index}"


def total(parts: Iterable[dict[str, int | None]], field: str) -> int | None:
    """``field`` added up over the parts that report it; None when none does."""
    values = [part[field] for part in parts if part[field] is not None]
    return sum(v for v in values if v is not None) if values else None


def run_parts(
    steps: Mapping[str, dict[str, int | None]], result: Mapping[str, Any]
) -> tuple[Parts, Basis]:
    """The usage blocks a run's tokens add up from, and their basis (see the module)."""
    if steps:
        return list(steps.values()), "steps"
    if "usage" in result:
        return [step_usage(result.get("usage"))], "result"
    return [], None


def parts_tokens(parts: Parts) -> TokenUsage:
    """The parts' tokens in the usage vocabulary (thinking is within output)."""
    return TokenUsage(
        uncached_input=total(parts, "input_tokens"),
        cache_read=total(parts, "cache_read_tokens"),
        output=total(parts, "output_tokens"),
        reasoning=total(parts, "thinking_tokens"),
    )


def result_outcome(result: Mapping[str, Any]) -> Outcome | None:
    """``completed`` for status ``SUCCESS``, ``failed`` for another status, None without one."""
    status = as_string(result.get("status"))
    if not status:
        return None
    return "completed" if status == "SUCCESS" else "failed"


def with_result_fields(
    entry: ResultEntry,
    result: Mapping[str, Any],
    steps: Mapping[str, dict[str, int | None]],
    conversation: str = "",
) -> ResultEntry:
    """``entry`` with what a run summary reads: ``usage`` (:func:`run_parts` of ``steps``,
    the latest usage of each step of the run, and ``result``), ``sessionId`` where that usage
    is the conversation's (the result's, else ``conversation``), ``costSource`` null,
    ``outcome`` and ``turns`` (``num_turns``) where the result gives them."""
    parts, basis = run_parts(steps, result)
    tokens = parts_tokens(parts)
    session = as_string(result.get("conversation_id")) or conversation
    if tokens.known and (basis == "steps" or session):
        entry["usage"] = cast("TokenUsageCounts", tokens.to_json())
    if basis == "result" and session:
        entry["sessionId"] = session
    entry["costSource"] = None  # agy reports no cost: costUsd 0 is none
    outcome = result_outcome(result)
    if outcome is not None:
        entry["outcome"] = outcome
    turns = result.get("num_turns")
    if type(turns) is int and turns >= 0:
        entry["turns"] = turns
    return entry
