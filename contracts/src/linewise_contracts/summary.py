"""The whole-run summary a plugin derives from an agent's complete stdout."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from linewise_contracts.entries import JsonValue

__all__ = ["RunSummary", "Usage"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Usage:
    """Token counts for a run. ``cached_tokens`` are input tokens read from a cache."""

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
        }
