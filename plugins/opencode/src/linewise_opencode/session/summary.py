"""The summary of a saved OpenCode session: ``summarize_run`` of ``opencode_session``.

Read through the session parser's own entries, so the summary and the
transcript agree: the session id and model of ``init`` (the model, when
``init`` names none, from the first record naming one), tokens summed over the
``result`` entries, the cost summed over the steps (OpenCode records it per
step), the last assistant text as the final text, ``stderr`` entries as errors.
The outcome is the last step's finish reason in the contract's words (raw in
``details["finishReason"]``); the session is complete when that step finished
for good (not to call tools) and no prompt came after it, else ``cut_off``.
Tokens in the vocabulary, per model: :mod:`.usage`.
"""

from __future__ import annotations

from collections.abc import Iterable

from linewise_contracts.summary import RunSummary
from linewise_contracts.tally import tally_entries

from linewise_opencode.outcome import finish_outcome
from linewise_opencode.session.parser import create_stdout_parser, record_model
from linewise_opencode.usage import message_tokens

__all__ = ["summarize_run"]


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """The whole session's summary (see the module docstring)."""
    tally = tally_entries(lines, create_stdout_parser(), record_model, message_tokens)
    complete = not tally.prompted and tally.outcome not in (None, "tool-calls")
    return RunSummary(
        session_id=tally.session_id,
        model=tally.model,
        usage=tally.usage,
        cost_usd=sum(tally.costs) if tally.costs else None,
        final_text=tally.final_text,
        outcome=finish_outcome(tally.outcome, failed=False, complete=complete),
        errors=tuple(tally.errors),
        complete=complete,
        details={"finishReason": tally.outcome},
        token_usage=tally.token_usage,
        model_usage=tally.model_usage,
        cost_source="reported" if tally.costs else None,
    )
