"""How a run ended and what it used and cost, told the same way by every view; unknown is not zero.

:func:`run_outcome` is the one reading of a run's outcome (text and compact
footers, the HTML header, ``summarize``, ``sessions``); token figures come
from the run's usage vocabulary (``RunSummary.token_usage``) and say which
kind of token each count is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from linewise_contracts.outcomes import FAILED_OUTCOMES, OUTCOMES
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage

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
# Outcome words that end a run without it failing (unless the summary says it is an error).
_SUCCEEDING: Final = frozenset({"completed", "interrupted", "refused", "max_tokens"})
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


def run_outcome(summary: RunSummary) -> tuple[str, bool]:
    """How the run ended, in a word or two, and whether that is a failure.

    A plugin's outcome from the contract's words (``completed``,
    ``interrupted``, ``cut_off``, ...) is shown as it is, the same word as in
    JSON; an interruption is not a failure. An older plugin's own word is read as
    before: a failure when the summary says so, ``cut off`` when the run never
    finished.
    """
    outcome = summary.outcome
    if outcome in OUTCOMES:
        if outcome in _SUCCEEDING:
            failed = summary.is_error
        else:
            failed = outcome in FAILED_OUTCOMES or outcome == "cut_off" or summary.is_error
        return outcome, failed
    failed = (
        summary.is_error
        or bool(summary.errors)
        or not summary.complete
        or _failure_subtype(outcome or "")
    )
    if not summary.complete:
        return (f"cut off ({outcome})" if outcome else "cut off"), failed
    if outcome:
        return outcome, failed
    return ("failed" if failed else "finished"), failed


def summary_failed(summary: RunSummary) -> bool:
    """The run failed, or never finished (see :func:`run_outcome`)."""
    return run_outcome(summary)[1]


def summary_outcome(summary: RunSummary) -> str:
    """The run's outcome in a word or two (see :func:`run_outcome`)."""
    return run_outcome(summary)[0]


def summary_tokens_known(summary: RunSummary) -> bool:
    """Whether the run reported its tokens.

    A contract 1.3 plugin says so in ``token_usage`` (every count None:
    unknown); an older one says ``usageBasis: "none"`` in ``details`` when
    its zeros in ``usage`` are unknown, not zero.
    """
    if summary.token_usage.known:
        return True
    return summary.details.get("usageBasis") != "none" and summary.usage != Usage()


def summary_tokens(summary: RunSummary) -> TokenUsage | None:
    """The run's tokens in the usage vocabulary; None when only an older plugin's
    wire-format ``usage`` is there (its input may or may not hold the cache reads)."""
    tokens = summary.token_usage
    if tokens.known or not summary_tokens_known(summary):
        return tokens
    return None


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
