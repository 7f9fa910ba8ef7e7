"""The whole-run summary a plugin derives from an agent's complete stdout."""

from __future__ import annotations

from typing import Any

from linewise_contracts._frozen import FrozenValue, frozen_value, set_fields
from linewise_contracts.entries import COST_SOURCES, JsonValue
from linewise_contracts.usage import TokenUsage

__all__ = ["COST_SOURCES", "RunSummary", "Usage"]


# Frozen dataclasses whose methods are written out (start-up: see linewise_contracts._frozen).
@frozen_value(kw_only=True)
class Usage(FrozenValue):
    """Token counts for a run as the CLI's wire format has them (deprecated for display).

    ``cached_tokens`` are input tokens read from a cache. What ``input_tokens``
    counts differs by CLI (Codex's and Gemini's include the cached tokens,
    Claude's plugin adds cache writes to it), so these three numbers cannot be
    added up across CLIs or shown under one label. They stay as they were for
    1.x consumers; views use :class:`~linewise_contracts.usage.TokenUsage`
    (``RunSummary.token_usage``, contract 1.3) instead.
    """

    __slots__ = ("cached_tokens", "input_tokens", "output_tokens")

    input_tokens: int
    output_tokens: int
    cached_tokens: int

    def __init__(
        self, *, input_tokens: int = 0, output_tokens: int = 0, cached_tokens: int = 0
    ) -> None:
        set_fields(
            self,
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            cached_tokens=cached_tokens,
        )

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cached_tokens=self.cached_tokens + other.cached_tokens,
        )


@frozen_value(kw_only=True)
class RunSummary(FrozenValue):
    """What one run of an agent CLI came to.

    ``complete`` is False when the stream ended without the CLI's final
    result event (a run cut off by a timeout, a crash or a kill).
    ``unknown_session`` is True when the CLI refused to resume a session it
    does not know, so a caller can retry with a fresh one. ``turns`` is the
    model's round trips in the agent loop as the CLI reports them (Claude
    Code's ``num_turns``; ``result.turns``'s meaning), None when the CLI reports
    none: a count a plugin makes of its CLI's events (prompts, steps,
    ``turn_end`` events) goes in ``details`` under its own name. ``details`` holds
    plugin-specific findings (for example ``{"max_turns": True}``).

    Contract 1.3 adds, all optional: ``token_usage``, the run's tokens in the
    one vocabulary (:class:`~linewise_contracts.usage.TokenUsage`, every count
    ``None`` when unknown); ``model_usage``, the same per model where the CLI
    says (Claude's ``modelUsage``, subagents on another model); and
    ``cost_source``, where ``cost_usd`` came from (one of
    :data:`COST_SOURCES`: ``"reported"`` by the CLI, ``"estimated"`` from a
    price table; ``None`` when there is no cost). ``outcome`` is one of
    :data:`linewise_contracts.outcomes.OUTCOMES`. ``usage`` is the wire-format
    view, kept for 1.x consumers and deprecated for display.
    """

    __slots__ = (
        "complete",
        "cost_source",
        "cost_usd",
        "details",
        "errors",
        "final_text",
        "is_error",
        "model",
        "model_usage",
        "outcome",
        "session_id",
        "token_usage",
        "turns",
        "unknown_session",
        "usage",
    )

    session_id: str | None
    model: str | None
    usage: Usage
    cost_usd: float | None
    final_text: str | None
    outcome: str | None
    is_error: bool
    errors: tuple[str, ...]
    unknown_session: bool
    turns: int | None
    complete: bool
    details: dict[str, JsonValue]
    token_usage: TokenUsage
    model_usage: dict[str, TokenUsage]
    cost_source: str | None

    def __init__(
        self,
        *,
        session_id: str | None = None,
        model: str | None = None,
        usage: Usage | None = None,
        cost_usd: float | None = None,
        final_text: str | None = None,
        outcome: str | None = None,
        is_error: bool = False,
        errors: tuple[str, ...] = (),
        unknown_session: bool = False,
        turns: int | None = None,
        complete: bool = False,
        details: dict[str, JsonValue] | None = None,
        token_usage: TokenUsage | None = None,
        model_usage: dict[str, TokenUsage] | None = None,
        cost_source: str | None = None,
    ) -> None:
        set_fields(
            self,
            session_id=session_id,
            model=model,
            usage=Usage() if usage is None else usage,
            cost_usd=cost_usd,
            final_text=final_text,
            outcome=outcome,
            is_error=is_error,
            errors=errors,
            unknown_session=unknown_session,
            turns=turns,
            complete=complete,
            details={} if details is None else details,
            token_usage=TokenUsage() if token_usage is None else token_usage,
            model_usage={} if model_usage is None else model_usage,
            cost_source=cost_source,
        )

    def to_json(self) -> dict[str, Any]:
        """The summary as a JSON-compatible dict with camelCase keys."""
        return {
            "sessionId": self.session_id,
            "model": self.model,
            "usage": {
                "inputTokens": self.usage.input_tokens,
                "outputTokens": self.usage.output_tokens,
                "cachedTokens": self.usage.cached_tokens,
            },
            "costUsd": self.cost_usd,
            "finalText": self.final_text,
            "outcome": self.outcome,
            "isError": self.is_error,
            "errors": list(self.errors),
            "unknownSession": self.unknown_session,
            "turns": self.turns,
            "complete": self.complete,
            "details": dict(self.details),
            "tokenUsage": self.token_usage.to_json(),
            "modelUsage": {model: usage.to_json() for model, usage in self.model_usage.items()},
            "costSource": self.cost_source,
        }
