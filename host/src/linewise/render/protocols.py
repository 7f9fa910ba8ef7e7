"""What a renderer is: an object that draws entries as they arrive (entries know nothing of it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.summary import RunSummary

__all__ = ["LineRenderer", "Renderer"]


@runtime_checkable
class Renderer(Protocol):
    """Draws entries one at a time as they arrive.

    :meth:`close` ends the output. When the caller knows the run's summary (a
    plugin's ``summarize_run``), it passes it: outcome, tokens and cost then come
    from it, and what it does not know is shown as unknown. A renderer that never
    draws the summary (jsonl) sets ``draws_summary = False``: callers then skip
    computing it.
    """

    def write(self, entry: TranscriptEntry) -> None: ...

    def close(self, *, summary: RunSummary | None = None) -> None: ...


@runtime_checkable
class LineRenderer(Renderer, Protocol):
    """A renderer that draws from the raw stdout lines (a plugin's own compact format).

    It sets ``wants_lines = True``; the pipeline then calls :meth:`write_line`
    with each stdout line and the entries the session made of it, and
    :meth:`write` with entries that come from no whole line (stderr, system
    messages, lines cut for length).
    """

    wants_lines: bool

    def write_line(self, line: str, entries: Sequence[TranscriptEntry]) -> None: ...
