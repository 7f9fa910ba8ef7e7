"""How a run ended, decided in one place: every view, ``summarize``, sessions and export ask.

:func:`run_outcome` reads a run summary (the fold's, or a plugin's
``summarize_run``); :func:`result_failed` and :func:`result_label` read one
``result`` entry. Whether a run's tokens are known is decided here too
(:func:`summary_tokens_known`, :func:`summary_tokens`): unknown is never 0.
How the words and numbers are drawn is :mod:`linewise.render.outcome`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from linewise_contracts.outcomes import FAILED_OUTCOMES, OUTCOMES
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage

__all__ = [
    "failure_word",
    "result_failed",
    "result_label",
    "run_outcome",
    "summary_failed",
    "summary_outcome",
    "summary_tokens",
    "summary_tokens_known",
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


def failure_word(subtype: str) -> bool:
    """True for a CLI's own end word that means the run did not succeed (``error_max_turns``)."""
    lowered = subtype.lower()
    return any(word in lowered for word in _FAILURE_WORDS)


def result_failed(entry: Mapping[str, Any]) -> bool:
    """A result entry is a failure when it says so: isError, a failure subtype or any error.

    A contract 1.5 ``outcome`` on the entry decides it: a failure word of the
    contract's (``failed``, ``max_turns``, ``budget``) is one, ``interrupted``
    is not, and neither is ``cut_off``, which a result entry says of a step
    after which the run goes on (OpenCode's ``tool-calls``, a saved chat's
    reply of tool calls only): the run's own ``cut_off`` is :func:`run_outcome`'s.
    """
    outcome = entry.get("outcome")
    if outcome in OUTCOMES:
        if entry.get("isError") is True or bool(entry.get("errors")):
            return True
        return outcome in FAILED_OUTCOMES
    subtype = entry.get("subtype")
    return (
        entry.get("isError") is True
        or bool(entry.get("errors"))
        or (isinstance(subtype, str) and failure_word(subtype))
    )


def result_label(entry: Mapping[str, Any]) -> str:
    """The word shown for a result: its subtype, else ``failed`` or ``finished``."""
    subtype = entry.get("subtype")
    if isinstance(subtype, str) and subtype.strip():
        return subtype.strip()
    return "failed" if result_failed(entry) else "finished"


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
        or failure_word(outcome or "")
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
