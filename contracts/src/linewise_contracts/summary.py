"""The whole-run summary a plugin derives from an agent's complete stdout."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from linewise_contracts.entries import COST_SOURCES, JsonValue
from linewise_contracts.usage import TokenUsage

__all__ = ["COST_SOURCES", "RunSummary", "Usage"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Usage:
    """Token counts for a run as the CLI's wire format has them (deprecated for display).

    ``cached_tokens`` are input tokens read from a cache. What ``input_tokens``
    counts differs by CLI (Codex's and Gemini's include the cached tokens,
    Claude's plugin adds cache writes to it), so these three numbers cannot be
    added up across CLIs or shown under one label. They stay as they were for
    1.x consumers; views use :class:`~linewise_contracts.usage.TokenUsage`
    (``RunSummary.token_usage``, contract 1.3) instead.
    """

    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cached_tokens=self.cached_tokens + other.cached_tokens,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class RunSummary:
    """What one run of an agent CLI came to.

    ``complete`` is False when the stream ended without the CLI's final
    result event (a run cut off by a timeout, a crash or a kill).
    ``unknown_session`` is True when the CLI refused to resume a session it
    does not know, so a caller can retry with a fresh one. ``details`` holds
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

    session_id: str | None = None
    model: str | None = None
    usage: Usage = field(default_factory=Usage)
    cost_usd: float | None = None
    final_text: str | None = None
    outcome: str | None = None
    is_error: bool = False
    errors: tuple[str, ...] = ()
    unknown_session: bool = False
    turns: int | None = None
    complete: bool = False
    details: dict[str, JsonValue] = field(default_factory=dict)
    token_usage: TokenUsage = field(default_factory=TokenUsage)
    model_usage: dict[str, TokenUsage] = field(default_factory=dict)
    cost_source: str | None = None

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
