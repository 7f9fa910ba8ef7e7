"""A renderer wrapped so that everything it draws has its secrets masked first."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.summary import RunSummary

from linewise.render.compact import fragments_only
from linewise.render.redaction.entries import EntryRedactor

__all__ = ["RedactingRenderer"]


class RedactingRenderer:
    """Wraps a renderer: entries (streamed fragments merged) and raw lines reach it masked."""

    def __init__(self, inner: Any, redactor: EntryRedactor) -> None:
        self._inner = inner
        self.redactor = redactor
        # A renderer of raw lines (the Claude compact style) gets masked lines too.
        self.wants_lines = getattr(inner, "wants_lines", False)
        self.draws_summary = getattr(inner, "draws_summary", True)

    def write(self, entry: TranscriptEntry) -> None:
        for masked in self.redactor.entry(entry):
            self._inner.write(masked)

    def write_line(self, line: str, entries: Sequence[TranscriptEntry]) -> None:
        if getattr(self._inner, "by_entries", False):
            # A renderer of entries (a format's format_entries) draws a line of fragments
            # from its entries, continued across lines: they are merged before they are
            # masked, as write() merges them, so no secret cut between two lines shows.
            if entries and fragments_only(entries):
                for entry in entries:
                    self.write(entry)
                return
            for held in self.redactor.flush():
                self._inner.write(held)
        masked = [m for entry in entries for m in self.redactor.entry(entry)]
        masked += self.redactor.flush()  # a line's fragments are drawn with their line
        self._inner.write_line(self.redactor.text(line), masked)

    def close(self, *, summary: RunSummary | None = None) -> None:
        for masked in self.redactor.flush():
            self._inner.write(masked)
        if summary is not None and self.redactor.active:
            # What the summary repeats was counted where it was drawn first.
            counts = dict(self.redactor.counts)
            text = self.redactor.text
            summary = dataclasses.replace(
                summary,
                final_text=None if summary.final_text is None else text(summary.final_text),
                errors=tuple(text(error) for error in summary.errors),
            )
            self.redactor.counts = counts
        if summary is None:
            self._inner.close()
        else:
            self._inner.close(summary=summary)
