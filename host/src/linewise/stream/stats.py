"""What the pipeline feeds each line's entries to as they are made: a fold, given from above.

The one fold is :class:`linewise.transcript.fold.RunFold` (the run's counts,
tokens, cost and outcome), a subclass of :class:`EntryFold`: the stream knows
only this base, so it imports nothing of the stages that read it, and in the
compiled build its call is a native one (a class, not a protocol: the fold
runs once for every line).
"""

from __future__ import annotations

from linewise_contracts.entries import TranscriptEntry

__all__ = ["EntryFold"]


class EntryFold:
    """Takes the stream's validated entries, a line's at a time, in order."""

    __slots__ = ()

    def add_all(self, entries: list[TranscriptEntry], /) -> None:
        """Count a line's entries (a subclass says how)."""
        raise NotImplementedError
