"""Incremental recognisers for JSON tool-call signatures and sentinel headers."""

from __future__ import annotations

import json
import re
from typing import Final

from ._events import SegmentType
from ._tags import DONE, NOT_A_TAG, PENDING, skip

_SPACE = re.compile(r"[ \t\r\n]*")
_STRUCTURE = re.compile(r'["{}\[\]]')
_IN_STRING = re.compile(r'["\\]')
_WS = " \t\r\n"

SENTINEL_START: Final = "[[SEG_START"
SENTINEL_END: Final = "[[SEG_END]]"

#: Header ``type`` values to segment types (``tool`` and the older
#: ``run_terminal_cmd`` are aliases).
SENTINEL_TYPES: Final = {
    "text": SegmentType.TEXT,
    "tool": SegmentType.TOOL_CALL,
    "tool_call": SegmentType.TOOL_CALL,
    "write_file": SegmentType.WRITE_FILE,
    "patch_file": SegmentType.PATCH_FILE,
    "run_bash": SegmentType.RUN_BASH,
    "run_terminal_cmd": SegmentType.RUN_BASH,
    "reasoning": SegmentType.REASONING,
}

_TOOL_TYPES: Final = frozenset(SENTINEL_TYPES.values()) - {SegmentType.TEXT, SegmentType.REASONING}


def _no_constants(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def load_json(text: str) -> object:
    """Decode untrusted JSON: ValueError for anything invalid, NaN and Infinity included."""
    try:
        return json.loads(text, parse_constant=_no_constants)
    except RecursionError as error:  # nesting deeper than the interpreter allows
        raise ValueError("JSON nested too deeply") from error


def normalize_json_prefix(text: str) -> str:
    """``text`` without the whitespace between JSON tokens (whitespace in strings is kept)."""
    out: list[str] = []
    in_string = escape = False
    for char in text:
        if in_string:
            if escape:
                escape = False
            elif char == "\\":
                escape = True
            elif char == '"':
                in_string = False
        elif char in _WS:
            continue
        elif char == '"':
            in_string = True
        out.append(char)
    return "".join(out)


class JsonPatterns:
    """Tool-call signatures, normalised, with every prefix of them for early rejection."""

    __slots__ = ("patterns", "prefixes")

    def __init__(self, patterns: tuple[str, ...]) -> None:
        self.patterns = frozenset(normalize_json_prefix(pattern) for pattern in patterns)
        self.prefixes = frozenset(
            pattern[:size] for pattern in self.patterns for size in range(1, len(pattern) + 1)
        )


class JsonSignature:
    """Decides whether a ``{`` or ``[`` in the stream starts a JSON tool call.

    It compares the text, whitespace between tokens ignored, with the
    configured prefixes: DONE as soon as one matches, NOT_A_TAG as soon as none
    can (checked a character at a time, so the first match is the shortest).
    """

    __slots__ = ("_escape", "_in_string", "_norm", "_patterns")

    def __init__(self, patterns: JsonPatterns) -> None:
        self._patterns = patterns
        self._norm = ""
        self._in_string = False
        self._escape = False

    def feed(self, text: str, pos: int, end: int) -> tuple[int, int]:
        """Read ``text[pos:end]``: ``(outcome, index where reading stopped)``."""
        patterns = self._patterns
        while pos < end:
            char = text[pos]
            if not self._in_string and char in _WS:
                pos = skip(_SPACE, text, pos, end)
                continue
            pos += 1
            if self._in_string:
                if self._escape:
                    self._escape = False
                elif char == "\\":
                    self._escape = True
                elif char == '"':
                    self._in_string = False
            elif char == '"':
                self._in_string = True
            norm = self._norm = self._norm + char
            if norm in patterns.patterns:
                return DONE, pos
            if norm not in patterns.prefixes:
                return NOT_A_TAG, pos
        return PENDING, pos


class JsonDepth:
    """Tracks strings and bracket depth through a JSON value, to find where it ends."""

    __slots__ = ("depth", "escape", "in_string")

    def __init__(self) -> None:
        self.depth = 0
        self.in_string = False
        self.escape = False

    def scan(self, text: str, pos: int, end: int) -> int:
        """Advance over ``text[pos:end]``; the index just after the value's last bracket, or -1."""
        while pos < end:
            if self.in_string:
                if self.escape:
                    self.escape = False
                    pos += 1
                    continue
                found = _IN_STRING.search(text, pos, end)
                if found is None:
                    return -1
                pos = found.end()
                if found.group() == '"':
                    self.in_string = False
                else:
                    self.escape = True
                continue
            found = _STRUCTURE.search(text, pos, end)
            if found is None:
                return -1
            char = found.group()
            pos = found.end()
            if char == '"':
                self.in_string = True
            elif char in "{[":
                self.depth += 1
            else:
                self.depth -= 1
                if self.depth <= 0:
                    return pos
        return -1


# Sentinel header phases.
_LITERAL: Final = 0
_BEFORE_HEADER: Final = 1
_HEADER: Final = 2
_AFTER_HEADER: Final = 3
_CLOSING: Final = 4


class SentinelHeader:
    """Reads ``[[SEG_START {json}]]``, the JSON string- and bracket-aware.

    NOT_A_TAG while the literal is being matched means "text from the next
    character on"; later it means "text up to the returned index". A header
    that is complete but not a JSON object with a known ``type`` is DONE with
    :attr:`segment_type` left ``None``: the caller turns it into text.
    """

    __slots__ = ("_depth", "_header", "_matched", "_phase", "metadata", "segment_type")

    def __init__(self) -> None:
        self._phase = _LITERAL
        self._matched = 0
        self._depth = JsonDepth()
        self._header: list[str] = []
        self.segment_type: SegmentType | None = None
        self.metadata: dict[str, object] = {}

    @property
    def in_literal(self) -> bool:
        """Whether the ``[[SEG_START`` literal itself is still being matched."""
        return self._phase == _LITERAL

    def feed(self, text: str, pos: int, end: int) -> tuple[int, int]:
        """Read ``text[pos:end]``: ``(outcome, index where reading stopped)``."""
        while pos < end:
            phase = self._phase
            if phase == _LITERAL:
                offset = self._matched
                take = min(end - pos, len(SENTINEL_START) - offset)
                if text[pos : pos + take] != SENTINEL_START[offset : offset + take]:
                    return NOT_A_TAG, pos
                self._matched += take
                pos += take
                if self._matched == len(SENTINEL_START):
                    self._phase = _BEFORE_HEADER
            elif phase == _BEFORE_HEADER:
                pos = skip(_SPACE, text, pos, end)
                if pos < end:
                    if text[pos] != "{":
                        return NOT_A_TAG, pos
                    self._phase = _HEADER
            elif phase == _HEADER:
                stop = self._depth.scan(text, pos, end)
                self._header.append(text[pos : end if stop < 0 else stop])
                if stop < 0:
                    return PENDING, end
                pos = stop
                self._phase = _AFTER_HEADER
            elif phase == _AFTER_HEADER:
                pos = skip(_SPACE, text, pos, end)
                if pos < end:
                    if text[pos] != "]":
                        return NOT_A_TAG, pos
                    self._phase = _CLOSING
                    pos += 1
            else:  # _CLOSING
                if text[pos] != "]":
                    return NOT_A_TAG, pos
                self._decode("".join(self._header))
                return DONE, pos + 1
        return PENDING, pos

    def _decode(self, header: str) -> None:
        try:
            data = load_json(header)
        except ValueError:
            return
        if not isinstance(data, dict):
            return
        kind = data.get("type")
        if not isinstance(kind, str):
            return
        self.segment_type = SENTINEL_TYPES.get(kind.strip().lower())
        self.metadata = {key: value for key, value in data.items() if key != "type"}

    @property
    def is_tool(self) -> bool:
        """Whether the header announces a tool call of some kind."""
        return self.segment_type in _TOOL_TYPES
