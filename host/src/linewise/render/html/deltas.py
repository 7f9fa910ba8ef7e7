"""Runs of assistant or thinking deltas merged into one block, streamed once too long."""

from __future__ import annotations

from typing import Final

from linewise.render.html.entries import PREVIEW
from linewise.render.html.markup import escaped
from linewise.render.html.paging import PageState
from linewise.render.preview import one_line

__all__ = ["DeltaRun"]

#: Text of one merged delta block kept before it is streamed straight through.
_DELTA_BUFFER: Final = 256 * 1024


class DeltaRun:
    """One run of delta fragments of the same kind: buffered up to a bound, then streamed.

    A buffered run ends as one ordinary entry (:meth:`end` returns it for the
    caller to write); a streamed one is written as it comes and closed by :meth:`end`.
    """

    def __init__(self, page: PageState) -> None:
        self._page = page
        self.kind: str | None = None
        self.nest = ""
        self._parts: list[str] = []
        self._size = 0
        self._ts = ""
        self._streaming = False

    def start(self, kind: str, ts: str, nest: str) -> None:
        self.kind = kind
        self._ts = ts
        self.nest = nest

    def add(self, text: str) -> bool:
        """Add a fragment; True when this one made the run too long and it began streaming."""
        if self._streaming:
            self._page.write(escaped(text))
            return False
        self._parts.append(text)
        self._size += len(text)
        if self._size <= _DELTA_BUFFER:
            return False
        self._streaming = True
        self._open_streamed()
        return True

    def _open_streamed(self) -> None:
        page = self._page
        page.page_break()
        ident = page.next_id()
        buffered = "".join(self._parts)
        self._parts.clear()
        head = page.time({"ts": self._ts})
        if self.kind == "thinking":
            page.write(
                f'<details class="entry thinking" id="{ident}"{self.nest}><summary>'
                f'<span class="kind">thinking</span>'
                f'<span class="preview">{escaped(one_line(buffered, PREVIEW))}</span>'
                f'<span class="meta">long, streamed</span>{head}</summary>'
                f'<div class="body"><div class="text">{escaped(buffered)}'
            )
        else:
            page.write(
                f'<section class="entry {self.kind}" id="{ident}"{self.nest}><div class="head">'
                f'<span class="kind">{self.kind}</span>{head}</div>'
                f'<div class="text">{escaped(buffered)}'
            )

    def end(self) -> tuple[str, str, str, str] | None:
        """Finish the run: ``(kind, ts, text, nest)`` to write, or None (nothing, or streamed)."""
        kind = self.kind
        if kind is None:
            return None
        self.kind = None
        buffered: tuple[str, str, str, str] | None = None
        if self._streaming:
            self._streaming = False
            closing = "</div></div></details>\n" if kind == "thinking" else "</div></section>\n"
            self._page.write(closing)
        else:
            buffered = (kind, self._ts, "".join(self._parts), self.nest)
        self._parts.clear()
        self._size = 0
        self.nest = ""
        return buffered
