"""A JavaScript tokenizer just good enough to find a module's imports and exports.

One pass over the text, character by character (no regular expression that
could backtrack): strings, template literals with nested ``${...}``, comments,
regular expression literals (told from division by the token before them),
numbers, names and punctuation. Each token knows its nesting depth, so a
top-level ``export`` is told from the word inside a function or a string.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, TypeAlias

__all__ = ["LexError", "Token", "tokenize"]

Kind: TypeAlias = Literal["name", "punct", "string", "template", "regex", "number"]

# After these words a `/` starts a regular expression, not a division.
_REGEX_AFTER_WORDS: Final = frozenset(
    {
        "return",
        "typeof",
        "instanceof",
        "in",
        "of",
        "new",
        "delete",
        "void",
        "throw",
        "case",
        "do",
        "else",
        "yield",
        "await",
    }
)
_OPENERS: Final = "([{"
_CLOSERS: Final = ")]}"
_PUNCTUATION: Final = frozenset("()[]{};,<>+-*%&|^!~?:=./@#")


class LexError(ValueError):
    """The text is not JavaScript this tokenizer can read (an unterminated string, say)."""


@dataclass(frozen=True, slots=True)
class Token:
    """One token: its kind, text, where it starts and ends, and how deeply it is nested."""

    kind: Kind
    text: str
    start: int
    end: int
    depth: int
    #: True when a line break separates this token from the one before.
    newline_before: bool


def _is_name_start(char: str) -> bool:
    return char.isalpha() or char in "_$" or ord(char) > 127


def _is_name_part(char: str) -> bool:
    return char.isalnum() or char in "_$\u200c\u200d" or ord(char) > 127


class _Scanner:
    __slots__ = ("braces", "depth", "newline", "position", "source", "tokens")

    def __init__(self, source: str) -> None:
        self.source = source
        self.position = 0
        self.depth = 0
        self.tokens: list[Token] = []
        self.newline = False
        # For each open `{`, whether it opened a template's `${`.
        self.braces: list[bool] = []

    def add(self, kind: Kind, start: int) -> None:
        text = self.source[start : self.position]
        self.tokens.append(Token(kind, text, start, self.position, self.depth, self.newline))
        self.newline = False

    def fail(self, what: str, start: int) -> LexError:
        line = self.source.count("\n", 0, start) + 1
        return LexError(f"{what} starting on line {line}")

    def regex_allowed(self) -> bool:
        if not self.tokens:
            return True
        last = self.tokens[-1]
        if last.kind == "name":
            return last.text in _REGEX_AFTER_WORDS
        if last.kind == "punct":
            return last.text not in _CLOSERS
        return False

    def run(self) -> list[Token]:
        source = self.source
        size = len(source)
        while self.position < size:
            char = source[self.position]
            if char in " \t\r\ufeff\u00a0\u2028\u2029\v\f":
                self.position += 1
            elif char == "\n":
                self.newline = True
                self.position += 1
            elif source.startswith("//", self.position):
                end = source.find("\n", self.position)
                self.position = size if end < 0 else end
            elif source.startswith("/*", self.position):
                end = source.find("*/", self.position + 2)
                if end < 0:
                    raise self.fail("an unterminated comment", self.position)
                if "\n" in source[self.position : end]:
                    self.newline = True
                self.position = end + 2
            elif char in "'\"":
                self.string(char)
            elif char == "`":
                self.template(self.position)
            elif char == "/" and self.regex_allowed():
                self.regex()
            elif char.isdigit() or (
                char == "." and source[self.position + 1 : self.position + 2].isdigit()
            ):
                self.number()
            elif _is_name_start(char) or char == "\\":
                self.name()
            else:
                self.punctuation(char)
        if self.braces:
            raise self.fail("an unclosed brace", size)
        return self.tokens

    def string(self, quote: str) -> None:
        start = self.position
        source = self.source
        index = start + 1
        while index < len(source):
            char = source[index]
            if char == "\\":
                index += 2
            elif char == quote:
                self.position = index + 1
                self.add("string", start)
                return
            elif char == "\n":
                break
            else:
                index += 1
        raise self.fail("an unterminated string", start)

    def template(self, start: int) -> None:
        """A template literal's text from ``start`` (a backtick or a ``}``) to its end or ``${``."""
        source = self.source
        index = self.position + 1
        while index < len(source):
            char = source[index]
            if char == "\\":
                index += 2
            elif char == "`":
                self.position = index + 1
                self.add("template", start)
                return
            elif char == "$" and source.startswith("${", index):
                self.position = index + 2
                self.add("template", start)
                self.braces.append(True)
                self.depth += 1
                return
            else:
                index += 1
        raise self.fail("an unterminated template literal", start)

    def regex(self) -> None:
        start = self.position
        source = self.source
        index = start + 1
        in_class = False
        while index < len(source):
            char = source[index]
            if char == "\\":
                index += 2
                continue
            if char == "\n":
                break
            if char == "[":
                in_class = True
            elif char == "]":
                in_class = False
            elif char == "/" and not in_class:
                index += 1
                while index < len(source) and _is_name_part(source[index]):
                    index += 1
                self.position = index
                self.add("regex", start)
                return
            index += 1
        raise self.fail("an unterminated regular expression", start)

    def number(self) -> None:
        start = self.position
        source = self.source
        index = start + 1
        while index < len(source) and (_is_name_part(source[index]) or source[index] == "."):
            if source[index] in "eE" and source[index + 1 : index + 2] in ("+", "-"):
                index += 1
            index += 1
        self.position = index
        self.add("number", start)

    def name(self) -> None:
        start = self.position
        source = self.source
        index = start
        while index < len(source) and (_is_name_part(source[index]) or source[index] == "\\"):
            index += 2 if source[index] == "\\" else 1
        self.position = max(index, start + 1)
        self.add("name", start)

    def punctuation(self, char: str) -> None:
        start = self.position
        if char not in _PUNCTUATION:
            raise self.fail(f"an unexpected character {char!r}", start)
        if char in _OPENERS:
            self.position += 1
            self.add("punct", start)
            self.depth += 1
            if char == "{":
                self.braces.append(False)
            return
        if char in _CLOSERS:
            if char == "}" and self.braces and self.braces[-1]:
                # The end of a template's `${...}`: the template's text goes on.
                self.braces.pop()
                self.depth -= 1
                self.template(start)
                return
            if char == "}":
                if not self.braces:
                    raise self.fail("an unmatched '}'", start)
                self.braces.pop()
            self.depth = max(self.depth - 1, 0)
            self.position += 1
            self.add("punct", start)
            return
        # Operators are kept one character at a time except the spread `...`,
        # the optional chain `?.` and the arrow `=>`, which matter to a reader.
        for operator in ("...", "?.", "=>"):
            if self.source.startswith(operator, start):
                self.position += len(operator)
                self.add("punct", start)
                return
        self.position += 1
        self.add("punct", start)


def tokenize(source: str) -> list[Token]:
    """The tokens of ``source``; raises :class:`LexError` for text it cannot read."""
    return _Scanner(source).run()
