"""Secret redaction: values of secret-named variables masked in everything linewise shows."""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

__all__ = [
    "MASK",
    "SECRET_NAME",
    "Redactor",
    "redact_command",
    "redact_env",
    "secret_variables",
]

#: Environment variable names whose values are secrets (the reference's ``redactEnvForLogs``).
SECRET_NAME: Final = re.compile(r"key|token|secret|password|authorization|cookie", re.IGNORECASE)
#: What a secret value is replaced by.
MASK: Final = "***"
# Shorter values are not masked in output: "1" or "true" would mangle every line.
_MIN_SECRET: Final = 6


def redact_env(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` with the value of every secret-named variable replaced by :data:`MASK`."""
    return {name: MASK if SECRET_NAME.search(name) else value for name, value in env.items()}


def redact_command(command: Sequence[str], redactor: Redactor | None = None) -> list[str]:
    """``command`` fit to print: the value of a secret-named option (``--api-key X``,
    ``--token=X``) masked, and any secret value from the environment too."""
    shown: list[str] = []
    hide_next = False
    for argument in command:
        if hide_next:
            shown.append(MASK)
            hide_next = False
            continue
        name, equals, _ = argument.partition("=")
        if argument.startswith("-") and SECRET_NAME.search(name):
            if equals:
                shown.append(f"{name}={MASK}")
                continue
            hide_next = True
        shown.append(redactor.text(argument) if redactor else argument)
    return shown


def secret_variables(env: Mapping[str, str]) -> dict[str, str]:
    """The variables of ``env`` whose values are masked in output: secret-named, long enough."""
    return {
        name: value
        for name, value in env.items()
        if SECRET_NAME.search(name) and len(value.strip()) >= _MIN_SECRET
    }


def _spellings(value: str) -> set[str]:
    """The value as it may appear in output: raw or trimmed (a value set with a trailing
    space or ``\\r``), or escaped inside a JSON string. ``\\u`` and ``\\/`` escapes, in any
    mix with plain characters, need no spelling of their own: matching sees them decoded."""
    spellings: set[str] = set()
    trimmed = value.strip()
    for text in {value, trimmed} if len(trimmed) >= _MIN_SECRET else {value}:
        spellings |= {text, json.dumps(text, ensure_ascii=False)[1:-1]}
    return {spelling for spelling in spellings if spelling}


# A CSI sequence (colour, erase line), raw or escaped inside a JSON string (``\u001b``).
# Bounded repeats of disjoint classes: linear, whatever the text.
_CSI: Final = rb"(?:\x1b|\\u001[bB])\[[0-?]{0,32}[ -/]{0,8}[@-~]"
# What matching looks through: CSI sequences (left out), and a JSON ``\uXXXX`` or ``\/``
# escape at any depth of nesting (read as the character it stands for), so a secret with
# one character escaped (``sk-\u006cive``, Go's ``\u003c``) is still the secret.
_HIDDEN: Final = re.compile(
    rb"(?P<csi>" + _CSI + rb")|\\{1,7}(?:u(?!001[bB]\[)(?P<hex>[0-9a-fA-F]{4})|(?P<slash>/))"
)
# The end of a chunk that may still become a CSI sequence or an escape once more bytes arrive.
_PARTIAL: Final = re.compile(
    rb"(?:\x1b|\\{1,8}(?:u[0-9a-fA-F]{0,3}|u001[bB])?)\Z"
    rb"|(?:\x1b|\\u001[bB])\[[0-?]{0,32}[ -/]{0,8}\Z"
)
_PARTIAL_MAX: Final = 48  # longest such unfinished sequence
# Bytes of escape sequences a held-back secret may hold on top of its own length.
_MAX_HELD_ESCAPES: Final = 4096


def _has_escape(data: bytes) -> bool:
    return b"\x1b" in data or b"\\u" in data or b"\\/" in data


def _decoded(match: re.Match[bytes]) -> bytes:
    """What a hidden sequence reads as: nothing (CSI), ``/``, or its character in UTF-8."""
    if match.group("csi") is not None:
        return b""
    if match.group("slash") is not None:
        return b"/"
    point = int(match.group("hex"), 16)
    if 0xD800 <= point <= 0xDFFF:  # half a surrogate pair: kept as it is, never a secret's
        return match.group()
    return chr(point).encode("utf-8")


class _View:
    """``data`` as matching sees it (colour codes left out, JSON escapes decoded), and
    the way back to positions in ``data``.

    Memory is one entry per hidden sequence, not one per byte.
    """

    def __init__(self, data: bytes, end: int) -> None:
        self.data, self.end = data, end
        self.text = _HIDDEN.sub(_decoded, data[:end])
        # The way back is made only when asked for (a secret found or held back).
        self._starts: list[int] | None = None
        self.origins: list[int] = []  # where each piece starts in data
        self.sizes: list[int] = []  # its size in data (a decoded escape: the escape's)
        self.decoded: list[bool] = []  # whether it is one decoded escape
        self.escapes: list[tuple[int, int]] = []  # (start, end) in data of each CSI sequence

    @property
    def starts(self) -> list[int]:
        """Where each piece of the view starts (plain runs and decoded escapes)."""
        if self._starts is None:
            self._map()
        assert self._starts is not None
        return self._starts

    def _map(self) -> None:
        self._starts = []
        position = size = 0
        for match in _HIDDEN.finditer(self.data, 0, self.end):
            start = match.start()
            self._piece(start - position, position, size, start - position, False)
            size += start - position
            if match.group("csi") is not None:
                self.escapes.append(match.span())
            else:
                length = len(_decoded(match))
                self._piece(length, start, size, match.end() - start, True)
                size += length
            position = match.end()
        self._piece(self.end - position, position, size, self.end - position, False)

    def _piece(self, length: int, origin: int, at: int, size: int, decoded: bool) -> None:
        if length:
            assert self._starts is not None
            self._starts.append(at)
            self.origins.append(origin)
            self.sizes.append(size)
            self.decoded.append(decoded)

    def origin(self, position: int, end: int) -> int:
        """Where the view's byte at ``position`` begins in data (``end`` past the last byte)."""
        if position >= len(self.text):
            return end
        index = bisect.bisect_right(self.starts, position) - 1
        if self.decoded[index]:
            return self.origins[index]
        return self.origins[index] + position - self.starts[index]

    def origin_after(self, position: int, end: int) -> int:
        """Where the view's byte at ``position`` ends in data (past a whole decoded escape)."""
        if position >= len(self.text):
            return end
        index = bisect.bisect_right(self.starts, position) - 1
        if self.decoded[index]:
            return self.origins[index] + self.sizes[index]
        return self.origins[index] + position - self.starts[index] + 1

    def at_or_after(self, origin: int) -> int:
        """The view position of the first byte of text at or after ``origin`` in data."""
        starts = self.starts
        index = bisect.bisect_right(self.origins, origin) - 1
        if index < 0:
            return 0
        offset = origin - self.origins[index]
        following = starts[index + 1] if index + 1 < len(starts) else len(self.text)
        if self.decoded[index]:
            return starts[index] if offset == 0 else following
        return min(starts[index] + offset, following)

    def escapes_within(self, start: int, end: int) -> list[tuple[int, int]]:
        """The (start, end) in data of the CSI sequences between two positions of data."""
        self.starts  # noqa: B018 - makes the map
        index = bisect.bisect_left(self.escapes, (start, start))
        found = []
        while index < len(self.escapes) and self.escapes[index][1] <= end:
            found.append(self.escapes[index])
            index += 1
        return found


class Redactor:
    """Masks known secret values in a stream of bytes (or in text), wherever chunks are cut.

    Only an end of a chunk that could be the start of a secret is held back
    until the next chunk (or :meth:`flush`), so a secret split across two
    reads is still found and ordinary output is never delayed. A secret with
    colour codes inside (``grep --color`` output) is found too: matching runs
    on the text with its CSI sequences left out, and the sequences inside a
    secret are kept after the mask so the terminal's colours stay as they were.
    """

    def __init__(self, secrets: Iterable[str]) -> None:
        values = sorted({s for secret in secrets for s in _spellings(secret) if s}, key=len)
        values.reverse()  # the longest first, so a secret containing another wins
        self.active = bool(values)
        encoded = [value.encode("utf-8", errors="surrogateescape") for value in values]
        self._bytes = re.compile(b"|".join(map(re.escape, encoded))) if encoded else None
        # By first byte: only positions that can begin a secret are looked at (memory linear).
        self._starts: dict[int, list[bytes]] = {}
        for value in encoded:
            self._starts.setdefault(value[0], []).append(value)
        self._longest = max(map(len, encoded), default=0)
        self._tail = b""
        self.masked = 0

    @classmethod
    def for_environment(cls, env: Mapping[str, str]) -> Redactor:
        """A redactor for the values of ``env``'s secret-named variables (long enough to matter)."""
        return cls(secret_variables(env).values())

    def text(self, text: str) -> str:
        """``text`` with every secret value masked."""
        if self._bytes is None:
            return text
        data = text.encode("utf-8", errors="surrogateescape")
        masked, _ = self._mask(data, final=True)
        return masked.decode("utf-8", errors="surrogateescape")

    def feed(self, chunk: bytes) -> bytes:
        """The bytes of the stream that are safe to pass on, secrets masked."""
        if self._bytes is None:
            return chunk
        data = self._tail + chunk
        out, hold = self._mask(data, final=False)
        self._tail = data[hold:]
        return out

    def flush(self) -> bytes:
        """The held-back bytes at the end of the stream, secrets masked."""
        data, self._tail = self._tail, b""
        if self._bytes is None or not data:
            return data
        out, _ = self._mask(data, final=True)
        return out

    def _mask(self, data: bytes, *, final: bool) -> tuple[bytes, int]:
        """``data`` masked up to where it must be held back; and that position."""
        end = len(data)
        if not final:
            unfinished = _PARTIAL.search(data, max(0, end - _PARTIAL_MAX))
            if unfinished is not None:
                end = unfinished.start()  # an unfinished escape waits for the rest of it
        if end == len(data) and not _has_escape(data):
            return self._mask_plain(data, final=final)
        view = _View(data, end)
        text = view.text
        hold = len(text)
        if not final and self._hold_from(text, 0) < hold:
            # A secret held back may hold escapes too, but only so many bytes of them.
            floor = view.at_or_after(end - self._longest - _MAX_HELD_ESCAPES)
            hold = self._hold_from(text, floor)
        assert self._bytes is not None
        found = self._bytes.search(text)
        if hold == len(text) and (found is None or found.start() >= hold):
            return data[:end], end  # nothing to mask or hold: the usual case
        out: list[bytes] = []
        start = 0
        for match in self._bytes.finditer(text):
            if match.start() >= hold:
                break
            first = view.origin(match.start(), end)
            last = view.origin_after(match.end() - 1, end)
            out.append(data[start:first])
            out.append(MASK.encode())
            out += [data[a:b] for a, b in view.escapes_within(first, last)]
            self.masked += 1
            start = last
            if match.end() > hold:
                hold = self._hold_from(text, match.end())
        held = view.origin(hold, end)
        out.append(data[start:held])
        return b"".join(out), held

    def _mask_plain(self, data: bytes, *, final: bool) -> tuple[bytes, int]:
        """The usual case, no escape sequence in sight: match on the bytes as they are."""
        assert self._bytes is not None
        # Matching is leftmost-first: from the first place where the rest of the
        # data could still begin a secret, nothing is final until more arrives.
        hold = len(data) if final else self._hold_from(data, 0)
        out: list[bytes] = []
        start = 0
        for match in self._bytes.finditer(data):
            if match.start() >= hold:
                break
            out.append(data[start : match.start()])
            out.append(MASK.encode())
            self.masked += 1
            start = match.end()
            if start > hold:
                hold = self._hold_from(data, start)
        out.append(data[start:hold])
        return b"".join(out), hold

    def _hold_from(self, data: bytes, start: int) -> int:
        """The first position from ``start`` where the rest of ``data`` begins a secret."""
        starts = self._starts
        for position in range(max(start, len(data) - self._longest + 1), len(data)):
            candidates = starts.get(data[position])
            if candidates is not None:
                rest = data[position:]
                if any(value.startswith(rest) for value in candidates):
                    return position
        return len(data)
