"""A renderer that draws every entry with usernames in home-directory paths masked."""

from __future__ import annotations

from typing import Any

from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.summary import RunSummary

from linewise.transcript.privacy import censor_text, censor_usernames

__all__ = ["CensoringRenderer"]


class CensoringRenderer:
    """Wraps a renderer so everything it draws has user names masked first."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        # A renderer of raw lines (the Claude compact style) gets masked lines too.
        self.wants_lines = getattr(inner, "wants_lines", False)
        self.draws_summary = getattr(inner, "draws_summary", True)

    def write(self, entry: TranscriptEntry) -> None:
        self._inner.write(censor_usernames(entry))

    def write_line(self, line: str, entries: Any) -> None:
        self._inner.write_line(censor_text(line), [censor_usernames(e) for e in entries])

    def close(self, *, summary: RunSummary | None = None) -> None:
        if summary is None:
            self._inner.close()
        else:
            self._inner.close(summary=summary)
