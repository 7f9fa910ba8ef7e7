"""What one session (or one run's log) contributes to a usage report."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from linewise_contracts.usage import TokenUsage

from linewise.sessions.usage._totals import Contribution
from linewise.transcript.prices import NO_MODEL

if TYPE_CHECKING:
    from linewise.sessions import SessionInfo

__all__ = ["NO_MODEL", "UsageRecord", "record_of"]


@dataclass(frozen=True, slots=True)
class UsageRecord:
    """One session's usage: when, where, which CLI, tokens per model, cost and its source.

    ``started``/``ended`` are UTC ISO 8601 times of its first and last events;
    ``file_dated`` is True when the CLI wrote no time of its own and both are
    the file's modification time.
    ``model_costs`` holds the estimated cost of each model, where estimated.
    """

    cli: str
    session: str
    path: str
    project: str | None
    started: str | None
    ended: str | None
    tokens: TokenUsage
    model_usage: Mapping[str, TokenUsage]
    cost_usd: float | None
    cost_source: str | None
    model_costs: Mapping[str, float] = field(default_factory=dict)
    price_data: str | None = None
    file_dated: bool = False

    @property
    def when(self) -> str | None:
        """The time a report files the session under: its first event (else its last)."""
        return self.started or self.ended

    @property
    def unpriced(self) -> tuple[str, ...]:
        """The models whose tokens have no cost: neither reported nor estimated."""
        if self.cost_source == "reported":
            return ()
        return tuple(
            model
            for model, tokens in self.model_usage.items()
            if model not in self.model_costs and tokens.total != 0
        )

    def contribution(self) -> Contribution:
        """The figures this session adds to a row, with each model's share.

        A model's cost is known when it was estimated, or when the session used
        one model only (the whole reported cost is that model's).
        """
        models: dict[str, tuple[TokenUsage, float | None]] = {}
        single = len(self.model_usage) == 1
        for model, tokens in self.model_usage.items():
            cost = self.model_costs.get(model)
            if cost is None and single:
                cost = self.cost_usd
            models[model] = (tokens, cost)
        return Contribution(self.tokens, self.cost_usd, self.cost_source, models, self.file_dated)


def record_of(info: SessionInfo) -> UsageRecord:
    """The usage record of a session the facts describe."""
    model_usage: Mapping[str, TokenUsage] = info.model_usage
    if not model_usage and info.token_usage.known:
        model_usage = {info.model or NO_MODEL: info.token_usage}
    return UsageRecord(
        cli=info.cli,
        session=info.id,
        path=info.path,
        project=info.project,
        started=info.started,
        ended=info.ended,
        tokens=info.token_usage,
        model_usage=model_usage,
        cost_usd=info.cost_usd,
        cost_source=info.cost_source,
        model_costs=info.model_costs,
        price_data=info.price_data,
        file_dated=info.times_from == "file",
    )
