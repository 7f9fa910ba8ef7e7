"""Block bodies: what happens between an opening marker and its closing marker."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final, Protocol

from ._json import SENTINEL_END, JsonDepth
from ._tags import (
    DONE,
    FULL,
    MAX_TERMINATOR_SPACE,
    PARTIAL,
    PENDING,
    TagLexer,
    closing_or_cdata,
    is_name_start,
    literal_or_partial,
    match_any_closing_tag,
    match_closing_tag,
    match_literal,
    match_whole_tag,
    skip,
    trailing_partial,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from ._handlers import ArgumentStreamHandler

CDATA_OPEN: Final = "<![CDATA["
CDATA_CLOSE: Final = "]]>"

_SPACE = re.compile(r"[ \t\r\n]*")


class Sink(Protocol):
    """What a body may do with the parser's output (implemented by the parser)."""

    @property
    def final(self) -> bool:
        """True while the stream's last characters are scanned: nothing may be held back."""
        ...

    def content(self, delta: str) -> None:
        """Append content to the block, starting its segment first if needed."""

    def hold(self, tail: str) -> None:
        """Keep ``tail`` (which could still become a terminator) for the next chunk."""

    def swallow(self, raw: str) -> None:
        """Note markup consumed without producing content."""

    def learn(self, key: str, value: str) -> None:
        """Record a metadata value found inside the block."""

    def start(self) -> None:
        """Emit the block's SEGMENT_START now, if it was not emitted yet."""


#: What a body says about its current state, for the parser's fast path:
#: ``(chars, confirm)``: a chunk with none of ``chars`` (at most three) is all
#: content, and so is one where ``confirm`` (if given) finds nothing; with
#: ``chars`` empty only ``confirm`` decides. None: every chunk needs the scanner.
Special = tuple[str, re.Pattern[str] | None] | None

_JSON_STRUCTURE = re.compile(r'["{}\[\]]')
_IN_CDATA = literal_or_partial(CDATA_CLOSE)
_SENTINEL_END = literal_or_partial(SENTINEL_END)


class Body(Protocol):
    """A block body scanner; ``done`` turns true once the closing marker is consumed."""

    done: bool

    def scan(self, sink: Sink, text: str, pos: int) -> int:
        """Consume ``text[pos:]`` up to the block's end; return where scanning stopped."""
        ...

    def special(self) -> Special:
        """Characters that would make the next chunk more than plain content."""
        ...


# Markup.find_close outcomes.
_MORE: Final = 0
_HOLD: Final = 1
_CLOSED: Final = 2


class _Markup:
    """Finds where a body ends: its closing tag, outside CDATA (and, optionally, tags).

    The state between chunks is only "inside a CDATA section" or "inside a tag"
    (for bodies whose inner tags are lexed, so that a quoted ``</tool>`` inside
    one is not taken for the end).
    """

    __slots__ = ("_budget", "_inner", "_inner_tags", "_max_tag", "in_cdata")

    def __init__(self, *, inner_tags: bool, max_tag: int) -> None:
        self._inner_tags = inner_tags
        self._max_tag = max_tag
        self._inner: TagLexer | None = None
        self._budget = 0
        self.in_cdata = False

    @property
    def in_tag(self) -> bool:
        return self._inner is not None

    def find_close(self, text: str, pos: int, close: str, final: bool) -> tuple[int, int, int]:
        """Scan for ``</close>``: ``(_CLOSED, start, end)`` of the tag, ``(_HOLD, start, _)``
        when ``text[start:]`` could still become it, or ``(_MORE, len(text), _)``.
        """
        n = len(text)
        while pos < n:
            if self.in_cdata:
                end = text.find(CDATA_CLOSE, pos)
                if end >= 0:
                    pos = end + len(CDATA_CLOSE)
                    self.in_cdata = False
                    continue
                keep = n if final else trailing_partial(text, pos, CDATA_CLOSE)
                return (_HOLD if keep < n else _MORE), keep, n
            inner = self._inner
            if inner is not None:
                outcome, stop = inner.feed(text, pos, min(n, pos + self._budget))
                self._budget -= stop - pos
                pos = stop
                if outcome == PENDING and stop == n:
                    return _MORE, n, n
                # Complete, not a tag after all, or longer than a tag may be.
                self._inner = None
                continue
            lt = text.find("<", pos)
            if lt < 0:
                return _MORE, n, n
            follower = text[lt + 1 : lt + 2]
            if follower == "/":
                outcome, after = match_closing_tag(text, lt, close)
                if outcome == FULL:
                    return _CLOSED, lt, after
                if outcome == PARTIAL and not final:
                    return _HOLD, lt, n
            elif follower == "!":
                outcome = match_literal(text, lt, CDATA_OPEN)
                if outcome == FULL:
                    pos = lt + len(CDATA_OPEN)
                    self.in_cdata = True
                    continue
                if outcome == PARTIAL and not final:
                    return _HOLD, lt, n
            elif not follower:
                if not final:
                    return _HOLD, lt, n
            elif self._inner_tags and is_name_start(follower):
                whole = match_whole_tag(text, lt + 1, min(n, lt + 1 + self._max_tag), strict=False)
                if whole is not None:
                    pos = whole[3]
                    continue
                self._inner = TagLexer(strict=False)
                self._budget = self._max_tag
            pos = lt + 1
        return _MORE, n, n


class RawBody:
    """Content is everything up to ``</close>``, except inside CDATA sections.

    Used for ``<write_file>``, ``<run_bash>``, reasoning tags and raw tool calls.
    With ``inner_tags`` (tool calls) the tags inside the body are lexed too, so
    a closing tag inside a quoted attribute value does not end the block.
    """

    __slots__ = ("_inner_tags", "_markup", "close", "done")

    def __init__(self, close: str, *, inner_tags: bool, max_tag: int) -> None:
        self.close = close
        self.done = False
        self._inner_tags = inner_tags
        self._markup = _Markup(inner_tags=inner_tags, max_tag=max_tag)

    def scan(self, sink: Sink, text: str, pos: int) -> int:
        """Stream content up to the closing tag; hold back only a possible terminator prefix."""
        found, start, end = self._markup.find_close(text, pos, self.close, sink.final)
        if start > pos:
            sink.content(text[pos:start])
        if found == _CLOSED:
            self.done = True
            return end
        if found == _HOLD:
            sink.hold(text[start:])
        return len(text)

    def special(self) -> Special:
        """``<`` may start the closing tag; inside CDATA only ``]`` matters."""
        markup = self._markup
        if markup.in_tag:
            return None
        if markup.in_cdata:
            return "]", _IN_CDATA
        # Inside a tool body any tag may hold a quoted "</tool>"; elsewhere only
        # the closing tag or a CDATA section matters.
        return "<", None if self._inner_tags else closing_or_cdata(self.close)


class SentinelBody:
    """Content is everything up to ``[[SEG_END]]``."""

    __slots__ = ("done",)

    def __init__(self) -> None:
        self.done = False

    def scan(self, sink: Sink, text: str, pos: int) -> int:
        """Stream raw content up to the end marker."""
        end = text.find(SENTINEL_END, pos)
        if end >= 0:
            if end > pos:
                sink.content(text[pos:end])
            self.done = True
            return end + len(SENTINEL_END)
        n = len(text)
        keep = n if sink.final else trailing_partial(text, pos, SENTINEL_END)
        if keep > pos:
            sink.content(text[pos:keep])
        if keep < n:
            sink.hold(text[keep:])
        return n

    def special(self) -> Special:
        """Only the end marker, or the start of one at the end of the chunk."""
        return "[", _SENTINEL_END


class JsonBody:
    """Content is the JSON value itself, up to its matching closing bracket."""

    __slots__ = ("_depth", "done")

    def __init__(self) -> None:
        self.done = False
        self._depth = JsonDepth()

    def scan(self, sink: Sink, text: str, pos: int) -> int:
        """Stream the JSON text, tracking strings and brackets; nothing needs holding back."""
        n = len(text)
        stop = self._depth.scan(text, pos, n)
        if stop < 0:
            sink.content(text[pos:] if pos else text)
            return n
        sink.content(text[pos:stop])
        self.done = True
        return stop

    def special(self) -> Special:
        """Quotes, escapes and brackets change the depth tracking."""
        if self._depth.escape:
            return None
        return ('"\\', None) if self._depth.in_string else ("", _JSON_STRUCTURE)


# ArgumentBody phases.
_OUTSIDE: Final = 0
_TAG: Final = 1
_LEAD: Final = 2
_AFTER_MARKER: Final = 3
_MARKED: Final = 4
_PLAIN: Final = 5
_VALUE: Final = 6


class ArgumentBody:
    """A ``<tool>`` body read through an :class:`ArgumentStreamHandler`.

    Between arguments everything is markup and is swallowed. The content
    argument's value is streamed (without its markup); metadata arguments are
    collected; any other argument is skipped. Arguments may be written
    ``<arg name="x">...</arg>`` or, as older prompts do, ``<x>...</x>``.
    """

    __slots__ = (
        "_arg",
        "_budget",
        "_close",
        "_content_arg",
        "_content_done",
        "_end_marker",
        "_handler",
        "_lexer",
        "_markup",
        "_max_tag",
        "_phase",
        "_value",
        "_value_len",
        "_wanted",
        "close",
        "done",
    )

    def __init__(self, handler: ArgumentStreamHandler, close: str, *, max_tag: int) -> None:
        self.close = close
        self.done = False
        self._handler = handler
        self._content_arg = handler.content_arg.strip().lower()
        self._wanted = {name.strip().lower(): name for name in handler.metadata_args}
        self._max_tag = max_tag
        self._phase = _OUTSIDE
        self._lexer: TagLexer | None = None
        self._budget = 0
        self._arg = ""
        self._close = ""
        self._value: list[str] | None = None
        self._value_len = 0
        self._content_done = False
        self._markup = _Markup(inner_tags=False, max_tag=max_tag)
        self._end_marker = literal_or_partial(handler.markers[1]) if handler.markers else None

    def scan(self, sink: Sink, text: str, pos: int) -> int:
        """Route each part of the body: markup, streamed content, collected or skipped values."""
        n = len(text)
        while pos < n and not self.done:
            phase = self._phase
            if phase == _OUTSIDE:
                pos = self._scan_outside(sink, text, pos)
            elif phase == _TAG:
                pos = self._scan_tag(sink, text, pos)
            elif phase == _LEAD:
                pos = self._scan_lead(sink, text, pos)
            elif phase == _AFTER_MARKER:
                if text.startswith("\r\n", pos):
                    pos += 2
                elif text[pos] == "\n":
                    pos += 1
                elif text[pos] == "\r" and pos + 1 == n and not sink.final:
                    sink.hold("\r")
                    return n
                self._phase = _MARKED
            elif phase == _MARKED:
                pos = self._scan_marked(sink, text, pos)
            elif phase == _PLAIN:
                pos = self._scan_value(sink, sink.content, text, pos)
            else:

                def collect(piece: str) -> None:
                    self._collect(piece)
                    sink.swallow(piece)

                pos = self._scan_value(sink, collect, text, pos)
        return pos

    def special(self) -> Special:
        """Streaming the content argument is plain; everything else needs the scanner."""
        if self._phase == _MARKED:
            assert self._handler.markers is not None and self._end_marker is not None
            return self._handler.markers[1][0], self._end_marker
        if self._phase == _PLAIN:
            if self._markup.in_cdata:
                return "]", _IN_CDATA
            return "<", closing_or_cdata(self._close)
        return None

    def _scan_outside(self, sink: Sink, text: str, pos: int) -> int:
        """Between arguments: swallow markup until an argument opens or the tool closes."""
        n = len(text)
        start = pos
        final = sink.final
        while True:
            lt = text.find("<", pos)
            if lt < 0:
                sink.swallow(text[start:])
                return n
            follower = text[lt + 1 : lt + 2]
            if follower == "/":
                outcome, after = match_closing_tag(text, lt, self.close)
                if outcome == FULL:
                    sink.swallow(text[start:after])
                    self.done = True
                    return after
                if outcome != PARTIAL or final:
                    # </arguments>, </item> or a stray </arg>: markup, nothing to do.
                    outcome, after, _ = match_any_closing_tag(text, lt)
                    if outcome == FULL:
                        pos = after
                        continue
                if outcome == PARTIAL and not final:
                    sink.swallow(text[start:lt])
                    sink.hold(text[lt:])
                    return n
            elif not follower:
                if not final:
                    sink.swallow(text[start:lt])
                    sink.hold(text[lt:])
                    return n
            elif is_name_start(follower):
                limit = min(n, lt + 1 + self._max_tag)
                whole = match_whole_tag(text, lt + 1, limit, strict=False)
                if whole is not None:
                    name, attrs, self_closing, stop = whole
                    sink.swallow(text[start:stop])
                    self._open_argument(sink, name, attrs, self_closing)
                    return stop
                sink.swallow(text[start : lt + 1])
                self._lexer = TagLexer(strict=False)
                self._budget = self._max_tag
                self._phase = _TAG
                return lt + 1
            pos = lt + 1

    def _scan_tag(self, sink: Sink, text: str, pos: int) -> int:
        lexer = self._lexer
        assert lexer is not None
        n = len(text)
        outcome, stop = lexer.feed(text, pos, min(n, pos + self._budget))
        self._budget -= stop - pos
        sink.swallow(text[pos:stop])
        if outcome == PENDING and stop == n:
            return n
        self._lexer = None
        self._phase = _OUTSIDE
        if outcome == DONE:
            self._open_argument(sink, lexer.name, lexer.attrs, lexer.self_closing)
        return stop

    def _open_argument(
        self, sink: Sink, tag: str, attrs: dict[str, str], self_closing: bool
    ) -> None:
        if tag in ("arguments", "item"):
            return
        name = attrs.get("name", "").strip().lower() if tag == "arg" else tag
        if not name:
            return
        if name == self._content_arg and not self._content_done:
            sink.start()
            if self_closing:
                self._content_done = True
                return
            self._close = tag
            self._phase = _LEAD if self._handler.markers else _PLAIN
            return
        if self_closing:
            return
        self._arg = name
        self._close = tag
        self._value = [] if name in self._wanted else None
        self._value_len = 0
        self._phase = _VALUE

    def _collect(self, piece: str) -> None:
        # Metadata values are kept whole up to the tag-length bound; this is
        # what keeps memory bounded when a model writes a runaway "path".
        if self._value is not None and self._value_len < self._max_tag:
            piece = piece[: self._max_tag - self._value_len]
            self._value.append(piece)
            self._value_len += len(piece)

    def _scan_lead(self, sink: Sink, text: str, pos: int) -> int:
        """Decide whether the content value begins with the start marker."""
        assert self._handler.markers is not None
        start_marker = self._handler.markers[0]
        n = len(text)
        stop = skip(_SPACE, text, pos, min(n, pos + MAX_TERMINATOR_SPACE + 1))
        if stop - pos > MAX_TERMINATOR_SPACE:
            self._phase = _PLAIN
            return pos
        if stop == n and not sink.final:
            sink.hold(text[pos:])
            return n
        outcome = match_literal(text, stop, start_marker)
        if outcome == FULL:
            self._phase = _AFTER_MARKER
            return stop + len(start_marker)
        if outcome == PARTIAL and not sink.final:
            sink.hold(text[pos:])
            return n
        self._phase = _PLAIN
        return pos

    def _scan_marked(self, sink: Sink, text: str, pos: int) -> int:
        """Stream up to the end marker that is followed by the argument's closing tag."""
        assert self._handler.markers is not None
        end_marker = self._handler.markers[1]
        n = len(text)
        while True:
            found = text.find(end_marker, pos)
            if found < 0:
                keep = n if sink.final else trailing_partial(text, pos, end_marker)
                if keep > pos:
                    sink.content(text[pos:keep])
                if keep < n:
                    sink.hold(text[keep:])
                return n
            after_marker = found + len(end_marker)
            limit = min(n, after_marker + MAX_TERMINATOR_SPACE + 1)
            stop = skip(_SPACE, text, after_marker, limit)
            if stop - after_marker <= MAX_TERMINATOR_SPACE:
                if stop == n:
                    outcome, after = PARTIAL, n
                else:
                    outcome, after = match_closing_tag(text, stop, self._close)
                if outcome == FULL:
                    if found > pos:
                        sink.content(text[pos:found])
                    self._end_content(sink, text[found:after])
                    return after
                if outcome == PARTIAL and not sink.final:
                    if found > pos:
                        sink.content(text[pos:found])
                    sink.hold(text[found:])
                    return n
            # An end marker inside the content: it is content.
            sink.content(text[pos : found + 1])
            pos = found + 1

    def _scan_value(self, sink: Sink, emit: Callable[[str], None], text: str, pos: int) -> int:
        """Pass an argument value to ``emit`` up to its closing tag (CDATA-aware)."""
        found, start, end = self._markup.find_close(text, pos, self._close, sink.final)
        if start > pos:
            emit(text[pos:start])
        if found == _CLOSED:
            if self._phase == _VALUE:
                self._end_value(sink, text[start:end])
            else:
                self._end_content(sink, text[start:end])
            return end
        if found == _HOLD:
            sink.hold(text[start:])
        return len(text)

    def _end_content(self, sink: Sink, closing: str) -> None:
        sink.swallow(closing)
        self._content_done = True
        self._phase = _OUTSIDE

    def _end_value(self, sink: Sink, closing: str) -> None:
        sink.swallow(closing)
        if self._value is not None:
            key = self._wanted.pop(self._arg)
            sink.learn(key, "".join(self._value).strip())
            self._value = None
            if not self._wanted:
                sink.start()
        self._phase = _OUTSIDE
