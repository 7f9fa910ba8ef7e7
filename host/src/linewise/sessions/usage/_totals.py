"""Sums of tokens and costs over sessions, kept apart by where each cost came from."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from linewise_contracts.usage import TOKEN_FIELDS, TokenUsage

__all__ = ["Contribution", "Totals"]

#: TokenUsage's JSON keys, in the order of :attr:`Totals.counts`.
_KEYS: Final = tuple(key for _, key in TOKEN_FIELDS)


@dataclass(frozen=True, slots=True)
class Contribution:
    """What one session adds to a row: tokens, cost (None: unknown), the cost's source, and
    each model's tokens and cost."""

    tokens: TokenUsage
    cost_usd: float | None
    cost_source: str | None
    models: Mapping[str, tuple[TokenUsage, float | None]]
    #: True when the session's records carry no time: it is dated by its file's.
    file_dated: bool = False


@dataclass(slots=True)
class Totals:
    """One row of a report: sessions, tokens by kind, cost by source, and the same per model.

    A token kind no session reported stays None (unknown, never 0). The cost
    is the sum of the costs that are known, ``reported_usd`` and
    ``estimated_usd`` apart; ``unknown_cost`` counts the sessions whose cost is
    unknown (not in the sum).
    """

    sessions: int = 0
    # Each count as an int or None (TokenUsage's five, in its order): summed without
    # making a TokenUsage per addition.
    counts: list[int | None] = field(default_factory=lambda: [None] * 5)
    reported_usd: float = 0.0
    estimated_usd: float = 0.0
    reported: int = 0
    estimated: int = 0
    unknown_cost: int = 0
    file_dated: int = 0
    first: str | None = None
    last: str | None = None
    models: dict[str, Totals] = field(default_factory=dict)

    def add(
        self, part: Contribution, first: str | None, last: str | None, *, by_model: bool = True
    ) -> None:
        """Add one session's figures (and, with ``by_model``, each of its models' figures)."""
        self.sessions += 1
        self.file_dated += part.file_dated
        counts = self.counts
        tokens = part.tokens
        for index, value in enumerate(
            (
                tokens.uncached_input,
                tokens.cache_read,
                tokens.cache_write,
                tokens.output,
                tokens.reasoning,
            )
        ):
            if value is not None:
                known = counts[index]
                counts[index] = value if known is None else known + value
        if part.cost_usd is None:
            self.unknown_cost += part.tokens.total != 0
        elif part.cost_source == "estimated":
            self.estimated_usd += part.cost_usd
            self.estimated += 1
        else:
            self.reported_usd += part.cost_usd
            self.reported += 1
        if first is not None and (self.first is None or first < self.first):
            self.first = first
        if last is not None and (self.last is None or last > self.last):
            self.last = last
        if not by_model:
            return
        for model, (tokens, cost) in part.models.items():
            row = self.models.get(model)
            if row is None:
                row = self.models[model] = Totals()
            row.add(
                Contribution(tokens, cost, part.cost_source, {}, part.file_dated),
                first,
                last,
                by_model=False,
            )

    @property
    def tokens(self) -> TokenUsage:
        """The tokens by kind; a kind no session reported is None."""
        uncached, read, write, output, reasoning = self.counts
        return TokenUsage(
            uncached_input=uncached,
            cache_read=read,
            cache_write=write,
            output=output,
            reasoning=reasoning,
        )

    @property
    def cost_usd(self) -> float | None:
        """The known costs' sum; None when no session's cost is known."""
        if not (self.reported or self.estimated):
            return None
        return self.reported_usd + self.estimated_usd

    @property
    def cost_source(self) -> str | None:
        """``reported``, ``estimated``, ``mixed`` (some of each), or None (no cost known)."""
        if self.reported and self.estimated:
            return "mixed"
        if self.estimated:
            return "estimated"
        return "reported" if self.reported else None

    def to_json(self) -> dict[str, Any]:
        """A JSON-compatible dict (camelCase keys; null is unknown)."""
        # From the counts directly (TokenUsage's keys and total): a session report makes
        # one per session and model.
        counts = self.counts
        known = [count for count in counts[:4] if count is not None]
        data: dict[str, Any] = {
            "sessions": self.sessions,
            "tokenUsage": dict(zip(_KEYS, counts, strict=True)),
            "totalTokens": sum(known) if known else None,
            "costUsd": self.cost_usd,
            "costSource": self.cost_source,
            "reportedCostUsd": self.reported_usd if self.reported else None,
            "estimatedCostUsd": self.estimated_usd if self.estimated else None,
            "sessionsWithUnknownCost": self.unknown_cost,
            "sessionsDatedByFileTime": self.file_dated,
            "first": self.first,
            "last": self.last,
        }
        if self.models:
            data["models"] = {model: row.to_json() for model, row in sorted(self.models.items())}
        return data
