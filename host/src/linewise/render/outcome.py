"""How a run ended and what it used and cost, told the same way by every view; unknown is not zero.

The outcome is decided in :mod:`linewise.transcript.outcome` (its functions
are named here too, for the views that import them from here); this module
draws it: token figures come from the run's usage vocabulary
(``RunSummary.token_usage``) and say which kind of token each count is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from linewise_contracts.summary import RunSummary
from linewise_contracts.usage import TokenUsage

from linewise.transcript.outcome import (
    result_failed,
    result_label,
    run_outcome,
    summary_failed,
    summary_outcome,
    summary_tokens,
    summary_tokens_known,
)

__all__ = [
    "cost_text",
    "result_failed",
    "result_label",
    "result_usage",
    "run_outcome",
    "summary_cost",
    "summary_failed",
    "summary_outcome",
    "summary_tokens",
    "summary_tokens_known",
    "summary_usage",
    "tokens_text",
]

# A result entry's wire-format counts, as a result line labels them.
_RESULT_LABELS: Final = (
    ("inputTokens", "input"),
    ("cachedTokens", "cached"),
    ("outputTokens", "output"),
)
# The vocabulary's counts as views label them, in the order shown.
_TOKEN_LABELS: Final = (
    ("uncached_input", "uncached input"),
    ("cache_read", "cache read"),
    ("cache_write", "cache write"),
    ("output", "output"),
)


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


def result_usage(entry: Mapping[str, Any]) -> str:
    """A result entry's own figures, as the CLI put them in the wire format; "" when none.

    What an entry's ``inputTokens`` counts differs by CLI (cache reads inside
    it or not), so the figures are labelled as the CLI's own counts, not as
    the run's usage vocabulary. A CLI that reports nothing leaves 0 in an
    entry, so a 0 is left out rather than shown as a count (or a ``$0`` cost).
    """
    parts = [
        f"{label} {_count(value)}"
        for key, label in _RESULT_LABELS
        if isinstance(value := entry.get(key), int | float) and value > 0
    ]
    cost = entry.get("costUsd")
    if isinstance(cost, int | float) and cost > 0:
        parts.append(f"cost {cost_text(float(cost))}")
    if not parts:
        return ""
    return "this result, in the CLI's own counts: " + " · ".join(parts)


def tokens_text(tokens: TokenUsage) -> str:
    """The counts, each named by what it counts; those the CLI did not report are named apart.

    ``uncached input 204,231 · cache read 7,290,112 · output 99,678 (72,192
    reasoning) · not reported: cache write``; ``tokens not reported`` when
    none was.
    """
    if tokens.is_empty:
        return "tokens not reported"
    shown: list[str] = []
    missing: list[str] = []
    for name, label in _TOKEN_LABELS:
        value = getattr(tokens, name)
        if value is None:
            missing.append(label)
            continue
        text = f"{label} {value:,}"
        if name == "output" and tokens.reasoning is not None:
            text += f" ({tokens.reasoning:,} reasoning)"
        shown.append(text)
    if missing:
        shown.append("not reported: " + ", ".join(missing))
    return " · ".join(shown)


def summary_cost(summary: RunSummary) -> str:
    """A run's cost as every view shows it: an estimate says so, and from which price table."""
    text = cost_text(summary.cost_usd)
    if summary.cost_usd is not None and summary.cost_source == "estimated":
        from linewise.transcript.prices import price_data

        return f"{text} (estimated from list prices, {price_data() or 'a price table'})"
    return text


def summary_usage(summary: RunSummary) -> str:
    """The whole run's tokens and cost, labelled; what the CLI did not report is unknown."""
    tokens = summary_tokens(summary)
    if tokens is not None:
        counted = tokens_text(tokens)
    else:
        usage = summary.usage
        counted = (
            f"tokens in the CLI's own counts: input {usage.input_tokens:,} · "
            f"cached {usage.cached_tokens:,} · output {usage.output_tokens:,}"
        )
    return f"whole run: {counted} · cost {summary_cost(summary)}"
