"""An incremental lexer for XML opening tags, and matchers for closing tags and literals."""

from __future__ import annotations

import functools
import re
from typing import Final

# Lexer outcomes.
PENDING: Final = 0
DONE: Final = 1
NOT_A_TAG: Final = 2

# Literal / closing-tag match outcomes.
FAIL: Final = 0
PARTIAL: Final = 1
FULL: Final = 2

#: Whitespace allowed inside a closing tag (``</tool   >``) or between an end
#: marker and its closing tag. Bounded so that what a body holds back while
#: waiting for the rest of a terminator stays small whatever the input.
MAX_TERMINATOR_SPACE: Final = 64

_NAME_START = re.compile(r"[A-Za-z_:]")
_NAME_CHARS = re.compile(r"[\w.:-]*")
_SPACE = re.compile(r"[ \t\r\n]*")
_UNQUOTED = re.compile(r"[^ \t\r\n<>\"'=`]*")
_QUOTE_OR_LT = {'"': re.compile(r'["<]'), "'": re.compile(r"['<]")}

# A whole opening tag after its "<", in one regular expression that accepts
# exactly what the lexer accepts (possessive quantifiers: no backtracking).
# Trying it first settles most tags with one call; the lexer is for tags cut
# by a chunk boundary and for deciding where a non-tag stops being one.
_RE_WS = r"[ \t\r\n]"
_RE_NAME = r"[A-Za-z_:][\w.:-]*+"
_RE_UNQUOTED = r"[^ \t\r\n<>\"'=`]++"


def _tag_pattern(quoted: str) -> re.Pattern[str]:
    value = rf"(?:{quoted}|{_RE_UNQUOTED})"
    attribute = rf"{_RE_WS}++{_RE_NAME}(?:{_RE_WS}*+={_RE_WS}*+{value})?"
    return re.compile(rf"({_RE_NAME})((?:{attribute})*+){_RE_WS}*+(/?)>")


_WHOLE_TAG = {
    True: _tag_pattern(r"\"[^\"<]*+\"|'[^'<]*+'"),
    False: _tag_pattern(r"\"[^\"]*+\"|'[^']*+'"),
}
# The longest prefix of text that the strict lexer would accept, tag or not:
# where it stops short of the end of the text is where the lexer would say
# NOT_A_TAG. An unterminated quote or a dangling "=" are valid prefixes.
_RE_PREFIX_VALUE = rf"(?:\"[^\"<]*+\"?|'[^'<]*+'?|{_RE_UNQUOTED})"
_STRICT_PREFIX = re.compile(
    rf"(?:{_RE_NAME}(?:{_RE_WS}++{_RE_NAME}(?:{_RE_WS}*+={_RE_WS}*+{_RE_PREFIX_VALUE}?)?)*+"
    rf"{_RE_WS}*+/?)?"
)
_ATTRIBUTE = re.compile(
    rf"({_RE_NAME})(?:{_RE_WS}*={_RE_WS}*(?:\"([^\"]*)\"|'([^']*)'|({_RE_UNQUOTED})))?"
)

# Lexer states.
_NAME: Final = 0
_AFTER_NAME: Final = 1
_SPACE_BEFORE_ATTR: Final = 2
_ATTR_NAME: Final = 3
_AFTER_ATTR_NAME: Final = 4
_BEFORE_VALUE: Final = 5
_QUOTED: Final = 6
_UNQUOTED_VALUE: Final = 7
_AFTER_VALUE: Final = 8
_SLASH: Final = 9

_WS = " \t\r\n"


def skip(pattern: re.Pattern[str], text: str, pos: int, end: int) -> int:
    """Where the run of ``pattern`` (which may be empty) that starts at ``pos`` ends."""
    found = pattern.match(text, pos, end)
    return pos if found is None else found.end()


class TagNames:
    """The tag names a strict lexer accepts, with what it needs to reject others early."""

    __slots__ = ("longest", "names", "prefixes")

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = frozenset(name.lower() for name in names)
        self.prefixes = frozenset(
            name[:size] for name in self.names for size in range(1, len(name) + 1)
        )
        self.longest = max(map(len, self.names), default=0)


_ANY_NAME = TagNames(())


def is_name_start(char: str) -> bool:
    """Whether ``char`` may begin an XML name."""
    return _NAME_START.match(char) is not None


class TagLexer:
    """Reads one opening tag, ``<name attr="v" ...>``, from text that arrives in pieces.

    Created after the ``<``. :meth:`feed` consumes as much as it can and reports
    DONE (the tag is complete), NOT_A_TAG (the character at the returned index
    breaks the grammar and is not consumed) or PENDING (everything was consumed).

    ``strict`` is for tags found in prose: a ``<`` inside a quoted value then
    means the quote was a stray apostrophe and a new tag may start there (XML
    forbids ``<`` in attribute values anyway), and ``names`` limits the tag
    names, so ``<div`` or ``<tools`` is rejected at the first character that
    cannot lead to a known name. Inside a tool body quoted values are opaque:
    a closing tag written inside one does not end the block.
    """

    __slots__ = (
        "_attr_name",
        "_max_name",
        "_names",
        "_prefixes",
        "_quote",
        "_state",
        "_strict",
        "_value",
        "attrs",
        "consumed",
        "name",
        "self_closing",
    )

    def __init__(self, *, strict: bool, names: TagNames = _ANY_NAME) -> None:
        self._strict = strict
        self._names = names.names
        self._max_name = names.longest
        self._prefixes = names.prefixes
        self._state = _NAME
        self._quote = ""
        self._attr_name = ""
        self._value: list[str] = []
        #: Lower-cased tag name.
        self.name = ""
        #: Attributes by lower-cased name; the first occurrence wins.
        self.attrs: dict[str, str] = {}
        self.self_closing = False
        #: Characters consumed so far, not counting the ``<``.
        self.consumed = 0

    def feed(self, text: str, pos: int, end: int) -> tuple[int, int]:
        """Lex ``text[pos:end]``; return ``(outcome, index where lexing stopped)``."""
        if self.consumed == 0 and self._state == _NAME:
            if self._whole(text, pos, end):
                return DONE, pos + self.consumed
            if self._strict:
                broken = self._broken_at(text, pos, end)
                if broken >= 0:
                    self.consumed = broken - pos
                    return NOT_A_TAG, broken
        start = pos
        outcome, pos = self._run(text, pos, end)
        self.consumed += pos - start
        return outcome, pos

    def _whole(self, text: str, pos: int, end: int) -> bool:
        """Read a complete tag at once if ``text[pos:end]`` holds one."""
        whole = match_whole_tag(text, pos, end, strict=self._strict)
        if whole is None or (self._names and whole[0] not in self._names):
            return False
        self.name, self.attrs, self.self_closing, stop = whole
        self.consumed = stop - pos
        return True

    def _broken_at(self, text: str, pos: int, end: int) -> int:
        return strict_tag_break(text, pos, end, self._names, self._prefixes)

    def _run(self, text: str, pos: int, end: int) -> tuple[int, int]:
        while pos < end:
            state = self._state
            char = text[pos]
            if state == _NAME:
                if not self.name and _NAME_START.match(char) is None:
                    return NOT_A_TAG, pos
                limit = min(end, pos + self._max_name + 1) if self._names else end
                stop = skip(_NAME_CHARS, text, pos, limit)
                if self._names:
                    bad = self._check_name(text[pos:stop])
                    if bad >= 0:
                        return NOT_A_TAG, pos + bad
                else:
                    self.name += text[pos:stop].lower()
                pos = stop
                if pos < end:
                    if self._names and self.name not in self._names:
                        return NOT_A_TAG, pos
                    self._state = _AFTER_NAME
            elif state in (_AFTER_NAME, _AFTER_VALUE):
                if char in _WS:
                    self._state = _SPACE_BEFORE_ATTR
                    pos += 1
                elif char == ">":
                    return DONE, pos + 1
                elif char == "/":
                    self._state = _SLASH
                    pos += 1
                else:
                    return NOT_A_TAG, pos
            elif state == _SPACE_BEFORE_ATTR:
                pos = skip(_SPACE, text, pos, end)
                if pos < end:
                    char = text[pos]
                    if char == ">":
                        return DONE, pos + 1
                    if char == "/":
                        self._state = _SLASH
                        pos += 1
                    elif _NAME_START.match(char) is not None:
                        self._state = _ATTR_NAME
                        self._attr_name = ""
                    else:
                        return NOT_A_TAG, pos
            elif state == _ATTR_NAME:
                stop = skip(_NAME_CHARS, text, pos, end)
                self._attr_name += text[pos:stop].lower()
                pos = stop
                if pos < end:
                    char = text[pos]
                    if char == "=":
                        self._state = _BEFORE_VALUE
                        pos += 1
                    elif char in _WS:
                        self._state = _AFTER_ATTR_NAME
                        pos += 1
                    elif char in ">/":
                        self._set_attr("")
                        self._state = _AFTER_VALUE
                    else:
                        return NOT_A_TAG, pos
            elif state == _AFTER_ATTR_NAME:
                pos = skip(_SPACE, text, pos, end)
                if pos < end:
                    char = text[pos]
                    if char == "=":
                        self._state = _BEFORE_VALUE
                        pos += 1
                    elif char in ">/":
                        self._set_attr("")
                        self._state = _AFTER_VALUE
                    elif _NAME_START.match(char) is not None:
                        self._set_attr("")
                        self._state = _ATTR_NAME
                        self._attr_name = ""
                    else:
                        return NOT_A_TAG, pos
            elif state == _BEFORE_VALUE:
                pos = skip(_SPACE, text, pos, end)
                if pos < end:
                    char = text[pos]
                    if char in "\"'":
                        self._quote = char
                        self._state = _QUOTED
                        pos += 1
                    elif char in "<>=`":
                        return NOT_A_TAG, pos
                    else:
                        self._state = _UNQUOTED_VALUE
            elif state == _QUOTED:
                if self._strict:
                    found = _QUOTE_OR_LT[self._quote].search(text, pos, end)
                    stop = end if found is None else found.start()
                else:
                    stop = text.find(self._quote, pos, end)
                    stop = end if stop < 0 else stop
                self._value.append(text[pos:stop])
                pos = stop
                if pos < end:
                    if text[pos] == "<":
                        return NOT_A_TAG, pos
                    self._set_attr("".join(self._value))
                    self._state = _AFTER_VALUE
                    pos += 1
            elif state == _UNQUOTED_VALUE:
                stop = skip(_UNQUOTED, text, pos, end)
                self._value.append(text[pos:stop])
                pos = stop
                if pos < end:
                    char = text[pos]
                    if char == ">" or char in _WS:
                        self._set_attr("".join(self._value))
                        self._state = _AFTER_VALUE
                    else:
                        return NOT_A_TAG, pos
            else:  # _SLASH
                if char == ">":
                    self.self_closing = True
                    return DONE, pos + 1
                return NOT_A_TAG, pos
        return PENDING, pos

    def _check_name(self, piece: str) -> int:
        """Extend the name by ``piece``; the offset in it where no known name fits, or -1."""
        name = self.name
        prefixes = self._prefixes
        for offset, char in enumerate(piece.lower()):
            candidate = name + char
            if candidate not in prefixes:
                self.name = name
                return offset
            name = candidate
        self.name = name
        return -1

    def _set_attr(self, value: str) -> None:
        self.attrs.setdefault(self._attr_name, value)
        self._value.clear()


def match_whole_tag(
    text: str, pos: int, end: int, *, strict: bool
) -> tuple[str, dict[str, str], bool, int] | None:
    """A complete opening tag at ``text[pos:end]`` (just after its ``<``), or None.

    Returns the lower-cased name, the attributes, whether it is self-closing
    and the index after its ``>``; it accepts exactly what :class:`TagLexer`
    accepts, so using it first never changes a result.
    """
    found = _WHOLE_TAG[strict].match(text, pos, end)
    if found is None:
        return None
    attrs: dict[str, str] = {}
    for attribute in _ATTRIBUTE.finditer(found.group(2)):
        key = attribute.group(1).lower()
        if key not in attrs:
            value = attribute.group(2)
            if value is None:
                value = attribute.group(3)
                if value is None:
                    value = attribute.group(4) or ""
            attrs[key] = value
    return found.group(1).lower(), attrs, bool(found.group(3)), found.end()


def strict_tag_break(
    text: str, pos: int, end: int, names: frozenset[str], prefixes: frozenset[str]
) -> int:
    """Where text after a ``<`` stops being a possible strict tag, or -1 if it has not yet.

    Only for text that :func:`match_whole_tag` did not accept; ``names`` (and
    their ``prefixes``) restrict the tag name when not empty.
    """
    found = _STRICT_PREFIX.match(text, pos, end)
    stop = pos if found is None else found.end()
    if names:
        # The name decides first: "<wrong" is not a tag from its "o" on,
        # however the rest of it goes.
        name_end = skip(_NAME_CHARS, text, pos, stop)
        name = text[pos:name_end].lower()
        for size in range(1, len(name) + 1):
            if name[:size] not in prefixes:
                return pos + size - 1
        if name_end < end and name not in names:
            return name_end
    return -1 if stop >= end else stop


def match_literal(text: str, pos: int, literal: str) -> int:
    """Whether ``literal`` (case-sensitive) is at ``text[pos:]``; PARTIAL if the text ends first."""
    piece = text[pos : pos + len(literal)]
    if piece == literal:
        return FULL
    if len(piece) < len(literal) and literal.startswith(piece):
        return PARTIAL
    return FAIL


def match_closing_tag(text: str, pos: int, name: str) -> tuple[int, int]:
    """Match ``</name>`` (case-insensitive, optional whitespace before ``>``) at ``text[pos:]``.

    Returns ``(outcome, index after the tag)``; the name must end at a word
    boundary, so ``</toolbox>`` is not ``</tool>``.
    """
    head = "</" + name
    piece = text[pos : pos + len(head)].lower()
    if piece != head:
        return (PARTIAL if len(piece) < len(head) and head.startswith(piece) else FAIL), pos
    after = pos + len(head)
    end = len(text)
    stop = skip(_SPACE, text, after, min(end, after + MAX_TERMINATOR_SPACE + 1))
    if stop - after > MAX_TERMINATOR_SPACE:
        return FAIL, pos
    if stop == end:
        return PARTIAL, pos
    if text[stop] == ">":
        return FULL, stop + 1
    return FAIL, pos


def match_any_closing_tag(text: str, pos: int) -> tuple[int, int, str]:
    """Match any closing tag at ``text[pos:]``: ``(outcome, end, lower-cased name)``."""
    end = len(text)
    if pos + 1 >= end:
        return PARTIAL, pos, ""
    if text[pos + 1] != "/":
        return FAIL, pos, ""
    if pos + 2 >= end:
        return PARTIAL, pos, ""
    if _NAME_START.match(text, pos + 2) is None:
        return FAIL, pos, ""
    stop = skip(_NAME_CHARS, text, pos + 2, min(end, pos + 2 + MAX_TERMINATOR_SPACE + 1))
    if stop - pos - 2 > MAX_TERMINATOR_SPACE:
        return FAIL, pos, ""
    name = text[pos + 2 : stop].lower()
    if stop == end:
        return PARTIAL, pos, name
    outcome, after = match_closing_tag(text, pos, name)
    return outcome, after, name


def literal_or_partial(*literals: str, ignore_case: bool = False) -> re.Pattern[str]:
    """A pattern finding any of ``literals``, or a proper prefix of one ending the text.

    A chunk in which it finds nothing cannot contain or begin any of them.
    """
    alternatives = [re.escape(literal) for literal in literals]
    for literal in literals:
        alternatives += [
            re.escape(literal[:size]) + r"\Z" for size in range(len(literal) - 1, 0, -1)
        ]
    return re.compile("|".join(alternatives), re.IGNORECASE if ignore_case else 0)


@functools.lru_cache(maxsize=64)
def closing_or_cdata(name: str) -> re.Pattern[str]:
    """What matters in a body ending at ``</name>``: that tag or a CDATA start, or their start."""
    return literal_or_partial("</" + name, "<![CDATA[", ignore_case=True)


def trailing_partial(text: str, start: int, literal: str) -> int:
    """Index in ``text`` from which ``text[start:]`` ends in a proper prefix of ``literal``.

    Returns ``len(text)`` when no suffix could still become ``literal``; that
    suffix is what a body holds back, and nothing more.
    """
    end = len(text)
    longest = min(len(literal) - 1, end - start)
    for size in range(longest, 0, -1):
        if text.endswith(literal[:size]):
            return end - size
    return end
