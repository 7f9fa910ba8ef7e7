"""How a run ended and what it cost, told the same way by every view; unknown is not zero."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from linewise_contracts.summary import RunSummary

__all__ = [
    "cost_text",
    "result_failed",
    "result_label",
    "result_usage",
    "summary_cost",
    "summary_failed",
    "summary_outcome",
    "summary_tokens_known",
    "summary_usage",
]

# Subtype words that mean the run did not succeed (error_max_turns, turn.failed, ...).
_FAILURE_WORDS: Final = (
    "error",
    "fail",
    "max_turns",
    "abort",
    "cancel",
    "interrupt",
    "timeout",
    "timed_out",
    "refusal",
    "killed",
)


def _failure_subtype(subtype: str) -> bool:
    lowered = subtype.lower()
    return any(word in lowered for word in _FAILURE_WORDS)


def result_failed(entry: Mapping[str, Any]) -> bool:
    """A result entry is a failure when it says so: isError, a failure subtype or any error."""
    subtype = entry.get("subtype")
    return (
        entry.get("isError") is True
        or bool(entry.get("errors"))
        or (isinstance(subtype, str) and _failure_subtype(subtype))
    )


def result_label(entry: Mapping[str, Any]) -> str:
    """The word shown for a result: its subtype, else ``failed`` or ``finished``."""
    subtype = entry.get("subtype")
    if isinstance(subtype, str) and subtype.strip():
        return subtype.strip()
    return "failed" if result_failed(entry) else "finished"


def _count(value: object) -> str:
    if isinstance(value, float) and not value.is_integer():
        return f"{value:,.1f}"
    if isinstance(value, int | float):
        return f"{int(value):,}"
    return "unknown"


def cost_text(cost: float | None) -> str:
    """A cost in dollars; None is ``unknown`` (never ``$0``)."""
    if cost is None:
        return "unknown"
    return f"${cost:,.2f}" if cost >= 10 else f"${cost:.4f}"


def summary_cost(summary: RunSummary) -> str:
    """A run's cost as every view shows it: an estimate says so, and from which price table."""
    text = cost_text(summary.cost_usd)
    if summary.cost_usd is not None and summary.cost_source == "estimated":
        from linewise._prices import price_data

        return f"{text} (estimated from list prices, {price_data() or 'a price table'})"
    return text


def result_usage(entry: Mapping[str, Any]) -> str:
    """The tokens and cost a result entry reports, labelled as that result's own figures.

    Input tokens are as the CLI reports them, without the cache reads shown
    beside them. A cost of 0 in an entry is what a CLI that reports no cost
    leaves there, so it is called "not reported", never ``$0``.
    """
    cost = entry.get("costUsd")
    cost_part = cost_text(cost) if isinstance(cost, int | float) and cost > 0 else "not reported"
    return (
        f"this result: input {_count(entry.get('inputTokens'))} (without cache reads) · "
        f"cache read {_count(entry.get('cachedTokens'))} · "
        f"output {_count(entry.get('outputTokens'))} · cost {cost_part}"
    )


def summary_failed(summary: RunSummary) -> bool:
    """The run failed, or never finished."""
    return (
        summary.is_error
        or bool(summary.errors)
        or not summary.complete
        or _failure_subtype(summary.outcome or "")
    )


def summary_outcome(summary: RunSummary) -> str:
    """The run's outcome in a word or two: its own, ``cut off`` when it never finished."""
    if not summary.complete:
        return f"cut off ({summary.outcome})" if summary.outcome else "cut off"
    if summary.outcome:
        return summary.outcome
    return "failed" if summary_failed(summary) else "finished"


def summary_tokens_known(summary: RunSummary) -> bool:
    """Whether the run reported its tokens: a plugin says ``usageBasis: "none"`` when it did not.

    Codex and Cursor runs that report no usage leave zeros in ``summary.usage``;
    those zeros are unknown, not zero.
    """
    return summary.details.get("usageBasis") != "none"


def summary_usage(summary: RunSummary) -> str:
    """The whole run's tokens and cost, labelled; what the CLI did not report is unknown."""
    usage = summary.usage
    if not summary_tokens_known(summary):
        return f"whole run: tokens unknown (not reported) · cost {summary_cost(summary)}"
    return (
        f"whole run: input {usage.input_tokens:,} (without cache reads) · "
        f"cache read {usage.cached_tokens:,} · output {usage.output_tokens:,} · "
        f"cost {summary_cost(summary)}"
    )
