"""The summary of a saved GitHub Copilot CLI session: ``summarize_run`` of ``copilot_session``.

Read through the session parser's own entries, so the summary and the
transcript agree: the session id and model of ``init`` (the model, when
``init`` names none, from the first record naming one), tokens summed over the
``result`` entries, no cost (Copilot counts premium requests, not dollars:
unknown, never $0), the last assistant text as the final text, ``stderr``
entries as errors. The session is complete once ``session.shutdown`` recorded
its end; the outcome is its shutdown type in the contract's words (``routine``
is ``completed``, ``error`` is ``failed``, an error run with
:data:`~linewise_copilot.events.SHUTDOWN_ERROR` among its errors, as the result
entry says; the raw type in ``details["shutdownType"]``). Tokens in the vocabulary, per model:
:mod:`linewise_copilot.usage`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from linewise_contracts.summary import RunSummary
from linewise_contracts.tally import tally_entries
from linewise_contracts.usage import TokenUsage

from linewise_copilot.events import SHUTDOWN_ERROR, model_named
from linewise_copilot.session.parser import create_stdout_parser
from linewise_copilot.usage import shutdown_tokens

__all__ = ["model_named", "summarize_run"]


# shutdownType in the contract's words ("routine": the session ended as it should).
_OUTCOMES: Final = {"routine": "completed", "error": "failed"}


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """The whole session's summary (see the module docstring)."""
    per_model: dict[str, TokenUsage] = {}

    def usage_of(record: dict[str, Any]) -> TokenUsage | None:
        models = shutdown_tokens(record)
        if not models:
            return None
        for model, tokens in models.items():
            per_model[model] = per_model.get(model, TokenUsage()) + tokens
        return sum(models.values(), TokenUsage())

    tally = tally_entries(lines, create_stdout_parser(), model_named, usage_of)
    failed = tally.outcome == "error"  # the shutdown said so: the result entry says it too
    return RunSummary(
        session_id=tally.session_id,
        model=tally.model,
        usage=tally.usage,
        cost_usd=None,
        final_text=tally.final_text,
        # No shutdown recorded: the session is still going, or was killed.
        outcome=_OUTCOMES.get(tally.outcome)
        if tally.outcome
        else "cut_off"
        if tally.session_id
        else None,
        is_error=failed,
        errors=(*tally.errors, SHUTDOWN_ERROR) if failed else tuple(tally.errors),
        complete=tally.outcome is not None,
        details={"shutdownType": tally.outcome},
        token_usage=tally.token_usage,
        model_usage=per_model,
    )
