"""How a Pi agent run (one prompt, ``agent_start`` .. ``agent_end``) ended, in the contract's
words (contracts 1.5, 1.9, 1.10).

One definition for the ``agent_end`` result entry (the parser) and the run
summary: the run's tokens (its assistant messages', each once, in the usage
vocabulary), whether a cost was reported (``usage.cost.total``), its turns
(``turn_end`` events) and its outcome (the last stop reason in the contract's
words, ``failed`` when an error stands: a failed request is forgiven when a
retry then answers, see :class:`RunErrors`). Runs add up (the summary adds
every message once), so the entry names no ``sessionId``; Pi names the model
of each message: the result names the last one (contract 1.10's ``model``), and
the summary keeps no per-model split (no ``modelUsage``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final, cast

from linewise_contracts.entries import ResultEntry, TokenUsageCounts, model_name
from linewise_contracts.extract import as_number, as_string, dig
from linewise_contracts.outcomes import Outcome
from linewise_contracts.usage import TokenUsage

__all__ = ["OUTCOMES", "RunErrors", "last_model", "run_failed", "run_outcome", "with_run_fields"]

#: Pi's stop reasons in the contract's words; "aborted" is a person stopping the run (Esc).
OUTCOMES: Final[dict[str, Outcome]] = {
    "stop": "completed",
    "toolUse": "completed",
    "length": "max_tokens",
    "error": "failed",
    "aborted": "interrupted",
}


def run_outcome(stop: str | None, *, failed: bool) -> Outcome | None:
    """The last stop reason's word; ``failed`` when an error stands, unless a person stopped it."""
    word = OUTCOMES.get(stop or "")
    if failed and word != "interrupted":
        return "failed"
    return word


def run_failed(stop: str | None, *, failed: bool) -> bool:
    """Whether the run ended in error: an error of it stands (``failed``) or its last stop
    reason is ``error``; a person stopping it (``aborted``) is an interruption, not an error."""
    return failed or stop == "error"


class RunErrors:
    """The errors of a run, as its events go by: ``(text, recoverable)``.

    An assistant message that failed (``message_errors``) is recoverable: a
    later answer forgives it (the retry or model fallback recovered), as it
    forgives a failed compaction; an ``error`` event, a retry that gave up and a
    failed RPC command stand.
    """

    __slots__ = ("errors",)

    def __init__(self) -> None:
        self.errors: list[tuple[str, bool]] = []

    def add(self, text: str, *, recoverable: bool = False) -> None:
        text = text.strip()
        if text:
            self.errors.append((text, recoverable))

    def answered(self, message: dict[str, Any], failures: list[str]) -> None:
        """An assistant message (counted once) and its ``message_errors``."""
        if as_string(message.get("stopReason")) == "aborted":
            return  # a person stopped the request: an interruption, not an error
        if failures:
            for failure in failures:
                self.add(failure, recoverable=True)
        else:
            self.errors = [
                (text, recoverable) for text, recoverable in self.errors if not recoverable
            ]

    def event(self, kind: str, event: dict[str, Any]) -> None:
        """An event that may report an error (any other kind is ignored)."""
        if kind == "auto_retry_end" and event.get("success") is False:
            self.add(as_string(event.get("finalError")) or "Pi gave up retrying.")
        elif kind in ("auto_compaction_end", "compaction_end"):
            self.add(as_string(event.get("errorMessage")), recoverable=True)
        elif kind == "error":
            self.add(as_string(event.get("message")))
        elif kind == "response" and event.get("success") is False:
            command = as_string(event.get("command"), "command")
            self.add(f"{command} failed: {as_string(event.get('error')) or 'no reason'}")

    @property
    def texts(self) -> list[str]:
        """The errors that stand, each once, in order."""
        return list(dict.fromkeys(text for text, _ in self.errors))


def message_cost(message: dict[str, Any]) -> float | None:
    """An assistant message's ``usage.cost.total``, 0 included; None when it reports none."""
    cost = as_number(dig(message, "usage", "cost", "total"), -1)
    return cost if cost >= 0 else None


def with_run_fields(
    entry: ResultEntry,
    assistants: Iterable[dict[str, Any]],
    tokens: TokenUsage,
    *,
    failed: bool,
) -> ResultEntry:
    """``entry`` with the run's tokens (its ``assistants``' ``tokens``), cost source,
    outcome (``failed``: an error of the run stands) and model (the last one named). No
    ``turns``: Pi reports no count of them (its ``turn_end`` events each end one; contract
    1.9's field is a count the CLI reports)."""
    messages = list(assistants)
    if tokens.known:
        entry["usage"] = cast("TokenUsageCounts", tokens.to_json())
    costs = [cost for cost in map(message_cost, messages) if cost is not None]
    entry["costSource"] = "reported" if costs else None
    stops = [stop for stop in (as_string(m.get("stopReason")) for m in messages) if stop]
    outcome = run_outcome(stops[-1] if stops else None, failed=failed)
    if outcome is not None:
        entry["outcome"] = outcome
    model = last_model(messages)
    if model is not None:
        entry["model"] = model
    return entry


def last_model(messages: Iterable[dict[str, Any]]) -> str | None:
    """The model the last of ``messages`` that names one names (the result's and the
    summary's run model); None when none does."""
    named = None
    for message in messages:
        named = model_name(as_string(message.get("model")).strip()) or named
    return named
