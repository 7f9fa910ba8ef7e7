"""The one clock: the current time as the contract's ``ts``, for every stage that stamps one."""

from __future__ import annotations

from datetime import UTC, datetime

__all__ = ["utc_now"]


def utc_now() -> str:
    """The current time as the contract's ``ts``: ISO 8601, UTC, milliseconds, ``Z``."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
