"""What the pipeline feeds each entry to as it is made: a fold over entries, given from above.

The one fold is :class:`linewise.transcript.fold.RunFold` (the run's counts,
tokens, cost and outcome); the stream knows only this shape of it, so it
imports nothing of the stages that read it.
"""

from __future__ import annotations

from typing import Protocol

from linewise_contracts.entries import TranscriptEntry

__all__ = ["EntryFold"]


class EntryFold(Protocol):
    """Anything that takes the stream's validated entries one by one."""

    def add(self, entry: TranscriptEntry, /) -> None: ...
