"""The summary of a ``copilot -p --output-format json`` run: copilot_local's ``summarize_run``.

Read through the stdout parser's own entries, as the session summary is, so
the summary and the transcript agree. A live run ends with a ``result`` event;
from it come:

- the session id (``sessionId``, on the event or in its ``data``): the run's
  own last word, so it wins over a ``session.start`` naming another;
- the outcome: ``exitCode`` 0 is ``completed``, another number ``failed``;
  a run without its ``result`` (killed, or still going) is ``cut_off``, or
  unknown when nothing at all happened;
- the tokens, when it reports ``usage`` (``inputTokens``, ``outputTokens``,
  ``cacheReadTokens``, ``cacheWriteTokens``, ``reasoningTokens``, read as
  :mod:`.usage` reads a shutdown's). A run whose ``result`` reports none is
  counted from a ``session.shutdown``'s ``modelMetrics`` if the stream
  carried one; otherwise its tokens are unknown, never 0. The per-request
  ``assistant.usage`` events are not added up: no capture here shows their
  fields, and they would count twice what a total reports.

No cost (Copilot counts premium requests, not dollars: unknown). The model is
the first an event names; the final text the last assistant message.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.tally import tally_entries
from linewise_contracts.usage import TokenUsage
from linewise_contracts.validation import MAX_INT

from linewise_copilot.ending import RunEnding, exit_outcome, result_tokens
from linewise_copilot.events import model_named

__all__ = ["result_tokens", "summarize_run"]


def _wire(tokens: TokenUsage) -> Usage:
    # The 1.x wire view, as the result entries show it: input and cache reads apart.
    return Usage(
        input_tokens=tokens.uncached_input or 0,
        output_tokens=tokens.output or 0,
        cached_tokens=tokens.cache_read or 0,
    )


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """The whole run's summary (see the module docstring)."""
    # Imported here: linewise_copilot.stdout, the entry point, exports this function.
    from linewise_copilot.stdout import create_stdout_parser

    ending = RunEnding()

    def seen(record: dict[str, Any]) -> TokenUsage | None:
        ending.see(record)
        return None  # the tokens are taken below from one source, never added twice

    tally = tally_entries(lines, create_stdout_parser(), model_named, seen)
    # Per model only where the CLI says so (a shutdown's modelMetrics), never guessed.
    tokens, model_usage = ending.tokens()
    code = ending.exit_code
    outcome: str | None
    if ending.result is not None:
        outcome = exit_outcome(code)
    else:
        happened = tally.session_id or tally.texts or tally.errors
        outcome = "cut_off" if happened else None
    errors = list(tally.errors)
    if outcome == "failed":
        errors.append(f"exit code {code}")
    return RunSummary(
        session_id=ending.session_id or tally.session_id,
        model=tally.model,
        usage=_wire(tokens),
        cost_usd=None,
        final_text=tally.final_text,
        outcome=outcome,
        is_error=outcome == "failed",
        errors=tuple(errors),
        complete=ending.result is not None,
        # A number JSON can hold (a fuzzed 400-digit exit code still fails the run, unshown).
        details={"exitCode": code if code is None or -MAX_INT <= code <= MAX_INT else None},
        token_usage=tokens,
        model_usage=model_usage,
    )
