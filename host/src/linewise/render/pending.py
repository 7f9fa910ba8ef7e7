"""Tool calls still waiting for their result, remembered (bounded) so a result can name its call."""

from __future__ import annotations

from typing import Final, NamedTuple

__all__ = ["MAX_PENDING_CALLS", "Call", "PendingCalls"]

#: Unanswered tool calls remembered for pairing; the oldest is forgotten first.
MAX_PENDING_CALLS: Final = 1024
_UNANSWERED_SHOWN: Final = 10


# A NamedTuple, not a frozen dataclass: building one cost ~4 M instructions at import.
class Call(NamedTuple):
    """A drawn tool call: its number, its tool's name, its most identifying argument."""

    number: int
    name: str
    preview: str  # short; raw text, neutralised when it is written


class PendingCalls:
    """Calls by ``toolUseId`` until their result comes; at most :data:`MAX_PENDING_CALLS`."""

    def __init__(self) -> None:
        self._calls: dict[str, Call] = {}

    def remember(self, ident: str, number: int, name: str, preview: str) -> None:
        calls = self._calls
        calls.pop(ident, None)  # a reused id: the newest call owns it
        calls[ident] = Call(number, name, preview)
        if len(calls) > MAX_PENDING_CALLS:
            del calls[next(iter(calls))]

    def pop(self, ident: str) -> Call | None:
        """The call ``ident`` answers, forgotten now; None when unknown or forgotten."""
        return self._calls.pop(ident, None)

    def take_unanswered(self) -> str:
        """``no result for #1 Bash, ...`` for the calls left (then forgotten); "" for none."""
        if not self._calls:
            return ""
        calls = list(self._calls.values())
        self._calls.clear()
        shown = ", ".join(f"#{call.number} {call.name}" for call in calls[:_UNANSWERED_SHOWN])
        if len(calls) > _UNANSWERED_SHOWN:
            shown += f" and {len(calls) - _UNANSWERED_SHOWN} more"
        return f"no result for {shown}"
