"""The summary of a saved Gemini CLI session: ``summarize_run`` of ``gemini_session``.

Read through the session parser's own entries, so the summary and the
transcript agree: the session id and model of ``init`` (the model, when
``init`` names none, from the first record naming one), tokens summed over the
``result`` entries, no cost (Gemini CLI records none: unknown, never $0), the
last assistant text as the final text, ``stderr`` entries as errors. A chat
has no end marker: it counts as complete (outcome ``completed``) when the
model answered its last prompt with text on the main thread, else it is
``cut_off``. Tokens in the vocabulary: :func:`.usage.chat_tokens`, per model.
"""

from __future__ import annotations

from collections.abc import Iterable

from linewise_contracts.summary import RunSummary
from linewise_contracts.tally import tally_entries

from linewise_gemini.session.parser import create_stdout_parser, record_model
from linewise_gemini.usage import chat_tokens

__all__ = ["summarize_run"]


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """The whole session's summary (see the module docstring)."""
    tally = tally_entries(lines, create_stdout_parser(), record_model, chat_tokens)
    return RunSummary(
        session_id=tally.session_id,
        model=tally.model,
        usage=tally.usage,
        cost_usd=None,
        final_text=tally.final_text,
        errors=tuple(tally.errors),
        outcome="completed"
        if tally.answered
        else "cut_off"
        if tally.texts or tally.prompted
        else None,
        complete=tally.answered,
        token_usage=tally.token_usage,
        model_usage=tally.model_usage,
    )
