"""What the pieces writing one page share: the stream, element ids, times, nesting and paging."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import IO, Any, Final

from linewise.render.clocks import FILE_TIME_NOTE, RunClock
from linewise.render.html.header import Figures
from linewise.render.html.markup import escaped

__all__ = ["PAGE_ENTRIES", "PageState"]

#: Top-level entries per page: the first page is shown, later ones are <template>
#: pages the script opens as the reader scrolls (a browser then lays out a page at a time).
PAGE_ENTRIES: Final = 1000
_ISO_TS: Final = re.compile(
    r"\d{4}-\d\d-\d\d[T ](\d\d:\d\d:\d\d)(?:\.\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?"
)


class PageState:
    """The page being written: its stream, figures, last id and time, and current <template>."""

    def __init__(self, stream: IO[str], *, file_ts: str | None = None) -> None:
        self.stream = stream
        self.figures = Figures(clock=RunClock(file_ts))
        # ' data-parent="eN"' on the element of an entry from a subagent.
        self.nest = ""
        self._counter = 0
        self._last_ts: str | None = None
        self._on_page = 0
        self._in_template = False

    def write(self, text: str) -> None:
        self.stream.write(text)

    def next_id(self) -> str:
        self._counter += 1
        return f"e{self._counter}"

    def time(self, entry: Mapping[str, Any]) -> str:
        """The entry's time, shown only when it differs from the previous entry's.

        A time no event carried (the file's) is marked "file time", never shown as the event's.
        """
        ts = entry.get("ts")
        if not isinstance(ts, str) or not ts or ts == self._last_ts:
            return ""
        self._last_ts = ts
        match = _ISO_TS.fullmatch(ts)
        if match is None:
            return f"<time>{escaped(ts[:40])}</time>"
        # Only a timestamp of digits and separators goes into an attribute: no agent
        # text is ever placed in one.
        if self.figures.clock.is_file_time(ts):
            return (
                f'<time class="file-time" datetime="{ts}" title="{FILE_TIME_NOTE}">'
                f"{match.group(1)} file time</time>"
            )
        return f'<time title="{ts}">{match.group(1)}</time>'

    def page_break(self) -> None:
        """Start a new <template> page every PAGE_ENTRIES top-level entries."""
        self._on_page += 1
        if self._on_page <= PAGE_ENTRIES:
            return
        self._on_page = 1
        if self._in_template:
            self.stream.write("</template>\n")
        self.stream.write('<template class="page">\n')
        self._in_template = True

    def end_pages(self) -> None:
        """Close the last <template> page, if any."""
        if self._in_template:
            self.stream.write("</template>\n")
            self._in_template = False
