"""Claude's 5-hour billing blocks, as ccusage defines them, over sessions.

A block starts at the first activity's hour (floored, UTC) and lasts five
hours; activity more than five hours after the block's start, or after a gap
of more than five hours since the last activity, starts a new block. The block
that has not ended yet (now is within its five hours and within five hours of
its last activity) is the active one: its burn rate is its tokens and cost per
minute between its first and last activity, and its projection what it comes
to at that rate by the block's end.

linewise's facts are per session, not per message: a session counts in the
block where it starts, whole, and keeps that block going until its last event.
A session that reported no usage at all (no token count, no cost) has nothing
to bill and is in no block.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from linewise.sessions.usage._record import UsageRecord
from linewise.sessions.usage._totals import Totals

__all__ = ["BLOCK_HOURS", "Block", "billed", "billing_blocks"]

BLOCK_HOURS: Final = 5
_LENGTH: Final = timedelta(hours=BLOCK_HOURS)


def _moment(text: str) -> datetime:
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(slots=True)
class Block:
    """One billing block: its window, its sessions' totals, and whether it is still running."""

    start: datetime
    last_activity: datetime
    totals: Totals = field(default_factory=Totals)
    active: bool = False

    @property
    def end(self) -> datetime:
        """When the block's five hours are over."""
        return self.start + _LENGTH

    def burn_rate(self) -> tuple[float | None, float | None]:
        """(tokens per minute, dollars per hour) between first and last activity; None: unknown."""
        first = _moment(self.totals.first) if self.totals.first else self.start
        minutes = (self.last_activity - first).total_seconds() / 60
        if minutes <= 0:
            return None, None
        tokens = self.totals.tokens.total
        cost = self.totals.cost_usd
        return (
            None if tokens is None else tokens / minutes,
            None if cost is None else cost / minutes * 60,
        )

    def projection(self) -> tuple[int | None, float | None]:
        """(tokens, dollars) by the block's end at the current burn rate (active blocks only)."""
        per_minute, per_hour = self.burn_rate()
        left = max((self.end - self.last_activity).total_seconds() / 60, 0.0)
        tokens = self.totals.tokens.total
        cost = self.totals.cost_usd
        return (
            None if per_minute is None or tokens is None else round(tokens + per_minute * left),
            None if per_hour is None or cost is None else cost + per_hour / 60 * left,
        )

    def to_json(self, now: datetime) -> dict[str, Any]:
        data: dict[str, Any] = {
            "start": _iso(self.start),
            "end": _iso(self.end),
            "lastActivity": _iso(self.last_activity),
            "active": self.active,
            **self.totals.to_json(),
        }
        if self.active:
            per_minute, per_hour = self.burn_rate()
            tokens, cost = self.projection()
            data["burnRate"] = {"tokensPerMinute": per_minute, "costUsdPerHour": per_hour}
            data["projection"] = {"totalTokens": tokens, "costUsd": cost}
            data["minutesLeft"] = max(int((self.end - now).total_seconds() // 60), 0)
        return data


def billed(record: UsageRecord) -> bool:
    """Whether a session has usage to put in a block: a time, and a token count or a cost."""
    return bool(record.when) and (record.tokens.known or record.cost_usd is not None)


def billing_blocks(records: Iterable[UsageRecord], now: datetime | None = None) -> list[Block]:
    """The billing blocks of ``records`` (those :func:`billed`), oldest first."""
    now = now or datetime.now(UTC)
    timed = sorted(
        ((_moment(record.when), record) for record in records if billed(record) and record.when),
        key=lambda pair: pair[0],
    )
    blocks: list[Block] = []
    for start, record in timed:
        last = _moment(record.ended) if record.ended else start
        current = blocks[-1] if blocks else None
        if (
            current is None
            or start - current.start > _LENGTH
            or start - current.last_activity > _LENGTH
        ):
            floored = start.replace(minute=0, second=0, microsecond=0)
            current = Block(start=floored, last_activity=start)
            blocks.append(current)
        current.last_activity = max(current.last_activity, last)
        current.totals.add(record.contribution(), record.started, record.ended)
    if blocks:
        newest = blocks[-1]
        newest.active = now < newest.end and now - newest.last_activity < _LENGTH
    return blocks
