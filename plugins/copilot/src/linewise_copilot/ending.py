"""How a Copilot CLI session or run ended, in the contract's words (contracts 1.5, 1.9).

One definition for the result entries (the parsers) and the run summaries:

- a saved session's ``session.shutdown`` (a ``result`` entry): its tokens,
  summed over ``modelMetrics`` and per model (:mod:`linewise_copilot.usage`),
  and its ``shutdownType`` as the outcome (``routine`` is ``completed``,
  ``error`` is ``failed``); shutdowns of one session file add up (a resumed
  session writes another), so the entry names no ``sessionId``;
- a live run's last ``result`` event: the outcome from its ``exitCode`` (0 or
  none is ``completed``, another number ``failed``), and the run's tokens: the
  ``usage`` it reports, else those of the ``session.shutdown`` the stream
  carried before it (then per model too), never both.

Copilot counts premium requests, not dollars: no cost is known (``costSource``
null), and no turn count.
"""

from __future__ import annotations

from typing import Any, Final, cast

from linewise_contracts.entries import ResultEntry, TokenUsageCounts
from linewise_contracts.extract import as_object, as_string
from linewise_contracts.outcomes import Outcome
from linewise_contracts.usage import TokenUsage, token_count

from linewise_copilot.usage import shutdown_tokens

__all__ = [
    "SHUTDOWN_OUTCOMES",
    "RunEnding",
    "exit_outcome",
    "result_tokens",
    "shutdown_outcome",
    "with_shutdown_fields",
]

#: ``shutdownType`` in the contract's words ("routine": the session ended as it should).
SHUTDOWN_OUTCOMES: Final[dict[str, Outcome]] = {"routine": "completed", "error": "failed"}
_COMPLETED: Final = 0


def shutdown_outcome(shutdown_type: str | None) -> Outcome | None:
    """A shutdown type as an outcome word; None for one without a meaning here."""
    return SHUTDOWN_OUTCOMES.get(shutdown_type or "")


def exit_outcome(code: int | None) -> Outcome:
    """A run's ``result`` exit code as its outcome: 0 (or none) ``completed``, else ``failed``."""
    return "completed" if code in (None, _COMPLETED) else "failed"


def result_tokens(event: dict[str, Any]) -> TokenUsage:
    """The tokens a ``result`` event's ``usage`` reports (every count None when it has none)."""
    usage = as_object(event.get("usage")) or as_object(as_object(event.get("data")).get("usage"))
    return TokenUsage(
        uncached_input=token_count(usage.get("inputTokens")),
        cache_read=token_count(usage.get("cacheReadTokens")),
        cache_write=token_count(usage.get("cacheWriteTokens")),
        output=token_count(usage.get("outputTokens")),
        reasoning=token_count(usage.get("reasoningTokens")),
    )


def _counts(tokens: TokenUsage) -> TokenUsageCounts:
    return cast("TokenUsageCounts", tokens.to_json())


def _with_tokens(
    entry: ResultEntry, tokens: TokenUsage, per_model: dict[str, TokenUsage]
) -> ResultEntry:
    if tokens.known:
        entry["usage"] = _counts(tokens)
    models = {model: _counts(usage) for model, usage in per_model.items() if model}
    if models:
        entry["modelUsage"] = models
    return entry


def with_shutdown_fields(entry: ResultEntry, record: dict[str, Any]) -> ResultEntry:
    """A ``session.shutdown``'s ``result`` entry with its tokens, no cost and its outcome."""
    per_model = shutdown_tokens(record) or {}
    _with_tokens(entry, sum(per_model.values(), TokenUsage()), per_model)
    entry["costSource"] = None
    outcome = shutdown_outcome(as_string(as_object(record.get("data")).get("shutdownType")))
    if outcome is not None:
        entry["outcome"] = outcome
    return entry


class RunEnding:
    """A live run's ``result`` event and any ``session.shutdown`` metrics, as the records go by."""

    __slots__ = ("result", "shutdown")

    def __init__(self) -> None:
        self.result: dict[str, Any] | None = None
        self.shutdown: dict[str, TokenUsage] = {}

    def see(self, record: dict[str, Any]) -> None:
        if record.get("type") == "result":
            self.result = record
            return
        for model, tokens in (shutdown_tokens(record) or {}).items():
            self.shutdown[model] = self.shutdown.get(model, TokenUsage()) + tokens

    @property
    def session_id(self) -> str | None:
        if self.result is None:
            return None
        data = as_object(self.result.get("data"))
        return as_string(self.result.get("sessionId")) or as_string(data.get("sessionId")) or None

    @property
    def exit_code(self) -> int | None:
        if self.result is None:
            return None
        code = self.result.get("exitCode", as_object(self.result.get("data")).get("exitCode"))
        return code if type(code) is int else None

    def tokens(self) -> tuple[TokenUsage, dict[str, TokenUsage]]:
        """The run's tokens and, where the CLI names the models, per model.

        The ``result``'s ``usage`` when it reports one (no model named), else
        the shutdowns' ``modelMetrics`` (per model); unknown before a result
        or a shutdown reported any.
        """
        tokens = TokenUsage() if self.result is None else result_tokens(self.result)
        if tokens.is_empty and self.shutdown:
            return sum(self.shutdown.values(), TokenUsage()), dict(self.shutdown)
        return tokens, {}

    def with_result_fields(self, entry: ResultEntry) -> ResultEntry:
        """The run's ``result`` entry with its tokens, no cost, its exit code's outcome and the
        session it names (the summary reads the last result only: a later one replaces it)."""
        tokens, per_model = self.tokens()
        _with_tokens(entry, tokens, per_model)
        entry["costSource"] = None
        entry["outcome"] = exit_outcome(self.exit_code)
        session = self.session_id
        if session is not None:
            # The run's last word on its session: a later run's result of it replaces this.
            entry["sessionId"] = session
        return entry
