"""What a cursor-agent ``result`` (or Cursor Cloud result) says, in the contract's words (1.5).

One definition for the result entry (the parser) and the run summary: the
result's tokens in the usage vocabulary, its cost and where it came from, and
how the run it ends came out. cursor-agent reports each result's own usage
(results add up: no ``sessionId`` on the entry) and no turn count, model
breakdown or, in the builds seen, cost.
"""

from __future__ import annotations

from typing import Any, Final, cast

from linewise_contracts.entries import CostSource, ResultEntry, TokenUsageCounts
from linewise_contracts.extract import as_number, as_object, as_string, dig
from linewise_contracts.outcomes import Outcome
from linewise_contracts.usage import TokenUsage

from linewise_cursor.usage import result_tokens, step_tokens

__all__ = [
    "cloud_failed",
    "cloud_outcome",
    "cost_source",
    "result_cost",
    "result_failed",
    "result_outcome",
    "result_subtype",
    "result_usage",
    "step_cost",
    "step_usage",
    "usage_counts",
    "with_cloud_fields",
    "with_result_fields",
    "with_step_fields",
]

#: A result subtype that says the run failed (beside ``is_error``).
_FAILED_SUBTYPES: Final = ("error", "failed")


def result_subtype(event: dict[str, Any]) -> str | None:
    """The result's own word for how it ended (``subtype``, else ``status``), None without one."""
    return as_string(event.get("subtype")) or as_string(event.get("status")) or None


def result_failed(event: dict[str, Any]) -> bool:
    """The result says the run failed: ``is_error``, or an ``error``/``failed`` subtype."""
    return event.get("is_error") is True or as_string(event.get("subtype")).lower() in (
        _FAILED_SUBTYPES
    )


def result_outcome(event: dict[str, Any]) -> Outcome | None:
    """``failed`` for a failed result, ``completed`` for one that names how it ended."""
    if result_failed(event):
        return "failed"
    return "completed" if result_subtype(event) is not None else None


def result_usage(event: dict[str, Any]) -> TokenUsage | None:
    """The result's own tokens; None when it has no ``usage`` block (tokens unknown)."""
    usage = event.get("usage")
    if type(usage) is not dict or not usage:
        return None
    return result_tokens(event)


def result_cost(event: dict[str, Any]) -> float | None:
    """The result's reported cost (``total_cost_usd``, ``cost_usd`` or ``cost``), 0 included."""
    cost = as_number(
        event.get("total_cost_usd"),
        as_number(event.get("cost_usd"), as_number(event.get("cost"), -1)),
    )
    return cost if cost >= 0 else None


def step_usage(event: dict[str, Any]) -> TokenUsage | None:
    """An older build's ``step_finish`` tokens; None when it has no ``part.tokens``."""
    tokens = as_object(dig(event, "part", "tokens"))
    return step_tokens(tokens) if tokens else None


def step_cost(event: dict[str, Any]) -> float | None:
    """An older build's ``step_finish`` ``part.cost``, 0 included; None when not reported."""
    cost = as_number(dig(event, "part", "cost"), -1)
    return cost if cost >= 0 else None


def cloud_failed(event: dict[str, Any]) -> bool:
    """A Cursor Cloud result failed unless its status is ``finished``."""
    return as_string(event.get("status"), "error") != "finished"


def cloud_outcome(event: dict[str, Any]) -> Outcome:
    """``completed`` for a ``finished`` Cursor Cloud run, else ``failed``."""
    return "failed" if cloud_failed(event) else "completed"


def cost_source(cost: float | None) -> CostSource | None:
    """``reported`` for a cost the CLI reported (0 included), None when it reported none."""
    return "reported" if cost is not None else None


def usage_counts(tokens: TokenUsage | None) -> TokenUsageCounts | None:
    """Tokens as the entry's ``usage`` field; None when none was reported."""
    if tokens is None or not tokens.known:
        return None
    return cast("TokenUsageCounts", tokens.to_json())


def with_result_fields(entry: ResultEntry, event: dict[str, Any]) -> ResultEntry:
    """``entry`` with the contract 1.5 fields of its ``result`` event (the result's own figures)."""
    counts = usage_counts(result_usage(event))
    if counts is not None:
        entry["usage"] = counts
    entry["costSource"] = cost_source(result_cost(event))
    outcome = result_outcome(event)
    if outcome is not None:
        entry["outcome"] = outcome
    return entry


def with_step_fields(entry: ResultEntry, event: dict[str, Any]) -> ResultEntry:
    """``entry`` with the contract 1.5 fields of its ``step_finish``: the step's tokens and cost.

    A step is not the end of the run (the summary reads no outcome from it),
    so the entry names none.
    """
    counts = usage_counts(step_usage(event))
    if counts is not None:
        entry["usage"] = counts
    entry["costSource"] = cost_source(step_cost(event))
    return entry


def with_cloud_fields(entry: ResultEntry, event: dict[str, Any]) -> ResultEntry:
    """``entry`` with what a Cursor Cloud result says: its outcome; no tokens, no cost."""
    entry["costSource"] = None
    entry["outcome"] = cloud_outcome(event)
    return entry
