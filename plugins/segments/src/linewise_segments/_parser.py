"""The streaming segment parser: text chunks in, segment events out, no I/O."""

from __future__ import annotations

import re
from typing import Final

from ._bodies import ArgumentBody, Body, JsonBody, RawBody, SentinelBody, Special
from ._config import JSON_TOOL, SENTINEL, XML_TAG, ParserConfig
from ._events import Event, SegmentContent, SegmentEnd, SegmentStart, SegmentType
from ._handlers import ArgumentStreamHandler
from ._json import SENTINEL_START, JsonPatterns, JsonSignature, SentinelHeader
from ._tags import DONE, NOT_A_TAG, PENDING, TagLexer, TagNames, match_whole_tag, strict_tag_break

# Parser modes: the whole state machine is these three plus the current body.
_TEXT: Final = 0
_CANDIDATE: Final = 1
_BODY: Final = 2

_TOOL_TAGS: Final = ("write_file", "run_bash", "tool")

#: How long a pending tag may be re-read whole on each chunk (see _XmlCandidate).
_RESCAN_LIMIT: Final = 512

# Fast-path kinds (see SegmentParser.feed).
_SLOW: Final = 0
_FAST_ALWAYS: Final = 1
_FAST_CHARS: Final = 2
_FAST_CLASS: Final = 3


def _trigger_patterns(
    names: tuple[str, ...], json_patterns: tuple[str, ...], sentinel: bool
) -> dict[str, str]:
    """Per strategy, where its marker may begin: a first character followed by one that can
    continue it (or by the end of the text, where it may still become one).

    A ``<`` before a space, a ``{`` before a letter or a ``[`` not before the rest
    of ``[SEG_START {`` can never be a marker; skipping them in one
    regular-expression search is what keeps prose full of ``a < b``,
    ``{braces}`` and ``[[[`` fast.
    """
    found: dict[str, str] = {}
    if names:
        letters = sorted({name[0] for name in names} | {name[0].upper() for name in names})
        found[XML_TAG] = rf"<(?=[{re.escape(''.join(letters))}]|\Z)"
    follow: dict[str, set[str]] = {}
    for pattern in json_patterns:
        follow.setdefault(pattern[0], set()).update(pattern[1:2] or ("",))
    alternatives: list[str] = []
    for first, seconds in sorted(follow.items()):
        if "" in seconds:
            alternatives.append(re.escape(first))
        else:
            chars = re.escape("".join(sorted(seconds)))
            alternatives.append(rf"{re.escape(first)}(?=[ \t\r\n]*+(?:[{chars}]|\Z))")
    if alternatives:
        found[JSON_TOOL] = "|".join(alternatives)
    if sentinel:
        found[SENTINEL] = _sentinel_start()
    return found


def _sentinel_start() -> str:
    """Where ``[[SEG_START {`` may begin: the whole literal and its brace, or a prefix at the end.

    So ``[[[[...``, ``[[S[[S...`` or ``[[SEG_START x`` are passed over in one search,
    not tried one ``[`` (and one candidate object) at a time.
    """
    second, rest = SENTINEL_START[1], SENTINEL_START[2:]
    prefix = ""  # nested, "(?:S(?:E...)?)?": one step a character, no alternatives
    for char in reversed(rest):
        prefix = f"(?:{re.escape(char)}{prefix})?"
    whole = rf"{re.escape(rest)}[ \t\r\n]*+(?:\{{|\Z)"
    return rf"\[(?={re.escape(second)}(?:{whole}|{prefix}\Z)|\Z)"


class ParserFinishedError(RuntimeError):
    """The parser was fed after :meth:`SegmentParser.finalize`; call ``reset()`` to reuse it."""


class _Block:
    """A recognised block: the segment it becomes, and the sink its body writes to."""

    __slots__ = (
        "_parser",
        "body",
        "late",
        "metadata",
        "revert",
        "revert_len",
        "segment_id",
        "segment_type",
    )

    def __init__(
        self,
        parser: SegmentParser,
        segment_type: SegmentType,
        metadata: dict[str, object],
        body: Body,
        raw: str,
    ) -> None:
        self._parser = parser
        self.segment_type = segment_type
        self.metadata = metadata
        self.body = body
        self.late: dict[str, object] = {}
        self.segment_id: str | None = None
        # Until the segment starts, everything consumed is kept so that a block
        # cut off before any content can be given back as the text it was.
        self.revert = [raw]
        self.revert_len = len(raw)

    @property
    def final(self) -> bool:
        return self._parser._final

    @property
    def started(self) -> bool:
        return self.segment_id is not None

    def start(self) -> None:
        if self.segment_id is None:
            self._start()

    def _start(self) -> str:
        parser = self._parser
        parser._close_text()
        segment_id = self.segment_id = parser._new_id()
        parser._out.append(SegmentStart(segment_id, self.segment_type, self.metadata))
        self.revert = []
        return segment_id

    def content(self, delta: str) -> None:
        segment_id = self.segment_id
        if segment_id is None:
            segment_id = self._start()
        self._parser._out.append(SegmentContent(segment_id, delta))

    def hold(self, tail: str) -> None:
        self._parser._carry = tail

    def swallow(self, raw: str) -> None:
        if self.segment_id is None and raw:
            self.revert.append(raw)
            self.revert_len += len(raw)
            # Markup before the first content is bounded like a tag: past that,
            # start the segment rather than keep an unbounded buffer.
            if self.revert_len > self._parser._max_tag:
                self.start()

    def learn(self, key: str, value: str) -> None:
        (self.metadata if self.segment_id is None else self.late)[key] = value


class _XmlCandidate:
    """A ``<`` that may open a known tag.

    While the candidate is short its text is re-read whole, with the two
    regular expressions of the tag grammar, on every chunk: that is cheaper
    than a character-level lexer for the tags that chunk boundaries cut. Past
    ``_RESCAN_LIMIT`` characters the incremental lexer takes over, so a long
    unclosed tag still costs linear time.
    """

    __slots__ = ("_lexer", "_names", "_pending", "attrs", "name", "self_closing")

    kind = XML_TAG

    def __init__(self, names: TagNames) -> None:
        self._names = names
        self._pending = ""
        self._lexer: TagLexer | None = None
        self.name = ""
        self.attrs: dict[str, str] = {}
        self.self_closing = False

    def feed(self, text: str, pos: int, end: int) -> tuple[int, int]:
        lexer = self._lexer
        if lexer is None:
            held = len(self._pending)
            buffer = self._pending + text[pos:end]
            names = self._names
            whole = match_whole_tag(buffer, 1, len(buffer), strict=True)
            if whole is not None and whole[0] in names.names:
                self.name, self.attrs, self.self_closing, stop = whole
                return DONE, pos + stop - held
            broken = strict_tag_break(buffer, 1, len(buffer), names.names, names.prefixes)
            if broken >= 0:
                return NOT_A_TAG, max(pos, pos + broken - held)
            if len(buffer) <= _RESCAN_LIMIT:
                self._pending = buffer
                return PENDING, end
            lexer = self._lexer = TagLexer(strict=True, names=names)
            self._pending = ""
            outcome, stop = lexer.feed(buffer, 1, len(buffer))
            if outcome == PENDING:
                return PENDING, end
            if outcome == DONE:
                self._take(lexer)
            return outcome, max(pos, pos + stop - held)
        outcome, stop = lexer.feed(text, pos, end)
        if outcome == DONE:
            self._take(lexer)
        return outcome, stop

    def _take(self, lexer: TagLexer) -> None:
        self.name, self.attrs, self.self_closing = lexer.name, lexer.attrs, lexer.self_closing

    def keep_on_reject(self, offset: int) -> tuple[int, int]:
        # A "<" always ends a candidate, so no tag can start inside the
        # rejected text, and only tags start with "<": scanning resumes
        # exactly where the grammar broke.
        return offset, offset


class _JsonCandidate:
    """A ``{`` or ``[`` that may open a JSON tool call."""

    __slots__ = ("_signature",)

    kind = JSON_TOOL

    def __init__(self, patterns: JsonPatterns) -> None:
        self._signature = JsonSignature(patterns)

    def feed(self, text: str, pos: int, end: int) -> tuple[int, int]:
        return self._signature.feed(text, pos, end)

    def keep_on_reject(self, offset: int) -> tuple[int, int]:
        # Another bracket inside the rejected prefix may start a match.
        return 1, 1


class _SentinelCandidate:
    """A ``[`` that may open ``[[SEG_START {...}]]``."""

    __slots__ = ("header",)

    kind = SENTINEL

    def __init__(self) -> None:
        self.header = SentinelHeader()

    def feed(self, text: str, pos: int, end: int) -> tuple[int, int]:
        return self.header.feed(text, pos, end)

    def keep_on_reject(self, offset: int) -> tuple[int, int]:
        # Other strategies may find their markers inside a rejected header
        # (whichever of them happened to start at the same "[" depends on
        # chunk boundaries), so scanning resumes at the next character; only
        # sentinels are kept out of the rejected text. "[[[SEG_START": the
        # literal overlaps itself, so then sentinels may retry at once.
        return 1, 1 if self.header.in_literal else offset


_Candidate = _XmlCandidate | _JsonCandidate | _SentinelCandidate


class SegmentParser:
    """Turns a stream of model output, fed in chunks of any size, into segment events.

    ``feed(chunk)`` returns the events the chunk completes and ``finalize()``
    those the end of the stream completes. The coalesced segments do not depend
    on how the stream was cut; the time taken is linear in its length; and what
    is held back between chunks is only what could still become a marker.
    """

    __slots__ = (
        "_base",
        "_block",
        "_blocked",
        "_blocked_max",
        "_candidate_at",
        "_candidates",
        "_carry",
        "_config",
        "_fast_c1",
        "_fast_c2",
        "_fast_c3",
        "_fast_id",
        "_fast_kind",
        "_fast_re",
        "_fed",
        "_final",
        "_finished",
        "_handlers",
        "_json_patterns",
        "_kind_start",
        "_max_tag",
        "_mode",
        "_next_id",
        "_out",
        "_pieces",
        "_pieces_len",
        "_reasoning_tags",
        "_reject_keep",
        "_requeue",
        "_requeue_base",
        "_text_id",
        "_text_special",
        "_trigger",
        "_trigger_kinds",
        "_xml_names",
    )

    def __init__(self, config: ParserConfig | None = None) -> None:
        config = config or ParserConfig()
        self._config = config
        self._handlers = config.tool_handlers.copy()
        self._max_tag = config.max_tag_length
        strategies = config.strategies
        tools = config.parse_tool_calls
        self._reasoning_tags = tuple(tag.strip().lower() for tag in config.reasoning_tags)
        names: tuple[str, ...] = ()
        if XML_TAG in strategies:
            names = (_TOOL_TAGS if tools else ()) + self._reasoning_tags
        self._xml_names = TagNames(names)
        self._json_patterns = JsonPatterns(
            config.json_tool_patterns if JSON_TOOL in strategies and tools else ()
        )
        kinds: dict[str, list[str]] = {}
        for strategy in strategies:
            if strategy == XML_TAG and names:
                kinds.setdefault("<", []).append(strategy)
            elif strategy == JSON_TOOL:
                for first in sorted({pattern[0] for pattern in self._json_patterns.patterns}):
                    kinds.setdefault(first, []).append(strategy)
            elif strategy == SENTINEL:
                kinds.setdefault("[", []).append(strategy)
        self._trigger_kinds = {char: tuple(found) for char, found in kinds.items()}
        patterns = _trigger_patterns(
            names, tuple(sorted(self._json_patterns.patterns)), SENTINEL in strategies
        )
        self._trigger = re.compile("|".join(patterns.values())) if patterns else None
        self._kind_start = {kind: re.compile(pattern) for kind, pattern in patterns.items()}
        chars = "".join(sorted(kinds))
        self._text_special: Special = (chars if len(chars) <= 3 else "", self._trigger)
        self.reset()

    @property
    def config(self) -> ParserConfig:
        """The configuration this parser was created with."""
        return self._config

    def reset(self) -> None:
        """Forget the stream so far; the parser is as new (segment ids restart)."""
        self._out: list[Event] = []
        self._carry = ""
        self._requeue = ""
        self._requeue_base = 0
        self._fed = 0
        self._base = 0
        self._final = False
        self._finished = False
        self._next_id = 1
        self._text_id: str | None = None
        self._mode = _TEXT
        self._candidates: list[_Candidate] = []
        self._candidate_at = 0
        self._pieces: list[str] = []
        self._pieces_len = 0
        self._reject_keep = 0
        # Per strategy, the stream offset before which no new candidate of it
        # may start: a rejected candidate's text is not looked at again by
        # its own kind, which is what keeps rescanning linear. (Offsets skip
        # fast-path chunks fed while no window was open; see _update_fast_path.)
        self._blocked: dict[str, int] = {}
        self._blocked_max = 0
        self._block: _Block | None = None
        self._fast_kind = _SLOW
        self._fast_id = ""
        self._fast_c1 = self._fast_c2 = self._fast_c3 = ""
        self._fast_re: re.Pattern[str] | None = None

    def feed(self, chunk: str) -> list[Event]:
        """Parse the next chunk of the stream; return the events it completes."""
        # The fast path: while plain content streams (text, or a block body
        # between markers) a chunk without anything that could be a marker is
        # one event. That is most chunks, and what makes tiny chunks cheap.
        kind = self._fast_kind
        if kind and chunk:
            if kind == _FAST_CHARS:
                plain = not (
                    self._fast_c1 in chunk or self._fast_c2 in chunk or self._fast_c3 in chunk
                ) or (self._fast_re is not None and self._fast_re.search(chunk) is None)
            elif kind == _FAST_CLASS:
                plain = self._fast_re.search(chunk) is None  # type: ignore[union-attr]
            else:
                plain = True
            if plain:
                return [SegmentContent(self._fast_id, chunk)]
        if self._finished:
            raise ParserFinishedError(
                "this stream was finalized: call reset() before feeding a new stream"
            )
        out: list[Event] = []
        self._out = out
        if chunk:
            base = self._fed - len(self._carry)
            self._fed += len(chunk)
            if self._carry:
                chunk = self._carry + chunk
                self._carry = ""
            self._run(chunk, base)
            self._update_fast_path()
        return out

    def finalize(self) -> list[Event]:
        """End the stream: flush what was held back and close every open segment.

        A block whose closing marker never came ends with ``truncated=True``; a
        block cut off before it produced anything is given back as text. Calling
        it again returns no events.
        """
        out: list[Event] = []
        self._out = out
        if self._finished:
            return out
        self._final = True
        self._fast_kind = _SLOW
        if self._carry:
            carry, self._carry = self._carry, ""
            self._run(carry, self._fed - len(carry))
        if self._mode == _CANDIDATE:
            pending = "".join(self._pieces)
            self._clear_candidates()
            self._text(pending)
        elif self._mode == _BODY:
            block = self._block
            assert block is not None
            if block.started:
                self._end_block(truncated=True)
            else:
                self._block = None
                self._mode = _TEXT
                self._text("".join(block.revert))
        self._close_text()
        self._finished = True
        return out

    # -- the main loop -----------------------------------------------------

    def _run(self, text: str, base: int) -> None:
        self._base = base
        pos = 0
        while True:
            n = len(text)
            while pos < n:
                mode = self._mode
                if mode == _TEXT:
                    pos = self._scan_text(text, pos)
                elif mode == _BODY:
                    pos = self._scan_body(text, pos)
                else:
                    pos = self._scan_candidates(text, pos)
            if not self._requeue:
                return
            text, self._requeue, pos = self._requeue, "", 0
            self._base = self._requeue_base

    def _update_fast_path(self) -> None:
        self._fast_kind = _SLOW
        # Fast chunks are not counted in _fed (it saves work on every one of
        # them): offsets only matter while a rejected candidate's window is
        # open, so the fast path waits until the stream has passed every window.
        if self._carry or self._blocked_max > self._fed:
            return
        special: Special
        if self._mode == _TEXT:
            if self._text_id is None:
                return
            self._fast_id = self._text_id
            if self._trigger is None:
                self._fast_kind = _FAST_ALWAYS
                return
            special = self._text_special
        elif self._mode == _BODY:
            block = self._block
            assert block is not None
            if block.segment_id is None:
                return
            self._fast_id = block.segment_id
            special = block.body.special()
        else:
            return
        if special is None:
            return
        chars, self._fast_re = special
        if chars:
            self._fast_kind = _FAST_CHARS
            self._fast_c1 = chars[0]
            self._fast_c2 = chars[1:2] or chars[0]
            self._fast_c3 = chars[2:3] or chars[0]
        else:
            self._fast_kind = _FAST_CLASS

    def _scan_text(self, text: str, pos: int) -> int:
        n = len(text)
        trigger = self._trigger
        if trigger is None:
            self._text(text[pos:] if pos else text)
            return n
        start = pos
        while True:
            found = trigger.search(text, pos)
            if found is None:
                self._text(text[start:] if start else text)
                return n
            at = found.start()
            offset = self._base + at
            kinds = self._trigger_kinds[text[at]]
            if len(kinds) > 1:
                kinds = tuple(kind for kind in kinds if self._kind_start[kind].match(text, at))
            if offset < self._blocked_max:
                kinds = tuple(kind for kind in kinds if self._blocked.get(kind, 0) <= offset)
            if kinds:
                if kinds[0] == XML_TAG:
                    # Most tags arrive whole, and most non-tags show it within
                    # the chunk: settle both without building a candidate.
                    limit = min(n, at + self._max_tag)
                    names = self._xml_names
                    whole = match_whole_tag(text, at + 1, limit, strict=True)
                    if whole is not None and whole[0] in names.names:
                        if at > start:
                            self._text(text[start:at])
                        name, attrs, self_closing, stop = whole
                        return self._accept_tag(name, attrs, self_closing, text[at:stop], stop)
                    broken = strict_tag_break(text, at + 1, limit, names.names, names.prefixes)
                    if broken >= 0:
                        pos = broken
                        continue
                if at > start:
                    self._text(text[start:at])
                self._begin_candidates(kinds, offset)
                return at
            pos = at + 1

    def _scan_body(self, text: str, pos: int) -> int:
        block = self._block
        assert block is not None
        stop = block.body.scan(block, text, pos)
        if block.body.done:
            self._end_block(truncated=False)
        return stop

    # -- candidates: is this a marker? -------------------------------------

    def _begin_candidates(self, kinds: tuple[str, ...], offset: int) -> None:
        candidates: list[_Candidate] = []
        for kind in kinds:
            if kind == XML_TAG:
                candidates.append(_XmlCandidate(self._xml_names))
            elif kind == JSON_TOOL:
                candidates.append(_JsonCandidate(self._json_patterns))
            else:
                candidates.append(_SentinelCandidate())
        self._candidates = candidates
        self._candidate_at = offset
        self._pieces = []
        self._pieces_len = 0
        self._reject_keep = self._max_tag + 1
        self._mode = _CANDIDATE

    def _clear_candidates(self) -> None:
        self._candidates = []
        self._pieces = []
        self._pieces_len = 0
        self._mode = _TEXT

    def _scan_candidates(self, text: str, pos: int) -> int:
        n = len(text)
        # Nothing pending may grow past max_tag_length: past it, it is text.
        end = min(n, pos + self._max_tag - self._pieces_len)
        accepted: tuple[_Candidate, int] | None = None
        alive: list[_Candidate] = []
        for candidate in self._candidates:
            outcome, stop = candidate.feed(text, pos, end)
            if outcome == DONE:
                if accepted is None or stop < accepted[1]:
                    accepted = (candidate, stop)
            elif outcome == NOT_A_TAG or stop < n:
                keep, claim = candidate.keep_on_reject(self._pieces_len + stop - pos)
                self._reject_keep = min(self._reject_keep, keep)
                blocked = self._candidate_at + claim
                if blocked > self._blocked.get(candidate.kind, 0):
                    self._blocked[candidate.kind] = blocked
                    self._blocked_max = max(self._blocked_max, blocked)
            else:
                alive.append(candidate)
        if accepted is not None:
            candidate, stop = accepted
            raw = "".join(self._pieces) + text[pos:stop] if self._pieces else text[pos:stop]
            self._clear_candidates()
            return self._accept(candidate, raw, text, stop)
        if alive:
            self._candidates = alive
            self._pieces.append(text[pos:] if pos else text)
            self._pieces_len += n - pos
            return n
        keep = self._reject_keep
        if keep >= self._pieces_len:
            stop = pos + keep - self._pieces_len
            committed = "".join(self._pieces) + text[pos:stop] if self._pieces else text[pos:stop]
            self._clear_candidates()
            self._text(committed)
            return stop
        pending = "".join(self._pieces)
        self._clear_candidates()
        self._text(pending[:keep])
        self._requeue = pending[keep:] + text[pos:]
        self._requeue_base = self._candidate_at + keep
        return n

    def _accept(self, candidate: _Candidate, raw: str, text: str, pos: int) -> int:
        if isinstance(candidate, _XmlCandidate):
            return self._accept_tag(
                candidate.name, candidate.attrs, candidate.self_closing, raw, pos
            )
        if isinstance(candidate, _SentinelCandidate):
            header = candidate.header
            if header.segment_type is None or (
                header.is_tool and not self._config.parse_tool_calls
            ):
                self._text(raw)
                return pos
            self._open(header.segment_type, header.metadata, SentinelBody(), raw)
            return pos
        # A JSON tool call: the signature is already part of the content.
        body = JsonBody()
        block = self._open(SegmentType.TOOL_CALL, {}, body, raw)
        stop = body.scan(block, raw, 0)
        if body.done:
            self._end_block(truncated=False)
            if stop < len(raw):
                self._requeue = raw[stop:] + text[pos:]
                self._requeue_base = self._base + pos - (len(raw) - stop)
                return len(text)
        return pos

    def _accept_tag(
        self, name: str, attrs: dict[str, str], self_closing: bool, raw: str, pos: int
    ) -> int:
        segment_type: SegmentType
        metadata: dict[str, object] = {}
        body: Body
        if name == "write_file":
            path = attrs.get("path", "")
            if not path.strip():
                # Without a path there is nothing to write: the tag is prose.
                self._text(raw)
                return pos
            segment_type, metadata["path"] = SegmentType.WRITE_FILE, path
            body = RawBody(name, inner_tags=False, max_tag=self._max_tag)
        elif name == "run_bash":
            segment_type = SegmentType.RUN_BASH
            body = RawBody(name, inner_tags=False, max_tag=self._max_tag)
        elif name == "tool":
            tool_name = attrs.get("name", "").strip()
            if not tool_name:
                self._text(raw)
                return pos
            metadata["tool_name"] = tool_name
            handler = self._handlers.get(tool_name)
            segment_type = handler.segment_type
            if isinstance(handler, ArgumentStreamHandler):
                body = ArgumentBody(handler, name, max_tag=self._max_tag)
            else:
                body = RawBody(name, inner_tags=True, max_tag=self._max_tag)
        else:
            segment_type = SegmentType.REASONING
            body = RawBody(name, inner_tags=False, max_tag=self._max_tag)
        self._open(segment_type, metadata, body, raw)
        if self_closing:
            self._end_block(truncated=False)
        return pos

    # -- segments ----------------------------------------------------------

    def _open(
        self, segment_type: SegmentType, metadata: dict[str, object], body: Body, raw: str
    ) -> _Block:
        block = _Block(self, segment_type, metadata, body, raw)
        self._block = block
        self._mode = _BODY
        return block

    def _end_block(self, *, truncated: bool) -> None:
        block = self._block
        assert block is not None
        segment_id = block.segment_id
        if segment_id is None:
            segment_id = block._start()
        self._out.append(SegmentEnd(segment_id, block.late, truncated))
        self._block = None
        self._mode = _TEXT

    def _new_id(self) -> str:
        segment_id = f"{self._config.segment_id_prefix}{self._next_id}"
        self._next_id += 1
        return segment_id

    def _text(self, delta: str) -> None:
        if not delta:
            return
        if self._text_id is None:
            self._text_id = self._new_id()
            self._out.append(SegmentStart(self._text_id, SegmentType.TEXT, {}))
        self._out.append(SegmentContent(self._text_id, delta))

    def _close_text(self) -> None:
        if self._text_id is not None:
            self._out.append(SegmentEnd(self._text_id))
            self._text_id = None
