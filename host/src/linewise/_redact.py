"""Secret redaction: values of secret-named variables masked in everything linewise shows."""

from __future__ import annotations

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
    space or ``\\r``), or escaped inside a JSON string (``\\/``, ``\\u`` escapes)."""
    spellings: set[str] = set()
    trimmed = value.strip()
    for text in {value, trimmed} if len(trimmed) >= _MIN_SECRET else {value}:
        escaped = json.dumps(text, ensure_ascii=False)[1:-1]
        spellings |= {
            text,
            escaped,
            json.dumps(text, ensure_ascii=True)[1:-1],
            escaped.replace("/", "\\/"),
            "".join(f"\\u{ord(char):04x}" for char in text),
            "".join(f"\\u{ord(char):04X}" for char in text),
        }
    return {spelling for spelling in spellings if spelling}


class Redactor:
    """Masks known secret values in a stream of bytes (or in text), wherever chunks are cut.

    Only an end of a chunk that could be the start of a secret is held back
    until the next chunk (or :meth:`flush`), so a secret split across two
    reads is still found and ordinary output is never delayed.
    """

    def __init__(self, secrets: Iterable[str]) -> None:
        values = sorted({s for secret in secrets for s in _spellings(secret) if s}, key=len)
        values.reverse()  # the longest first, so a secret containing another wins
        self.active = bool(values)
        self._text = re.compile("|".join(map(re.escape, values))) if values else None
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
        if self._text is None:
            return text
        return self._text.sub(MASK, text)

    def feed(self, chunk: bytes) -> bytes:
        """The bytes of the stream that are safe to pass on, secrets masked."""
        if self._bytes is None:
            return chunk
        data = self._tail + chunk
        # Matching is leftmost-first: from the first place where the rest of the
        # data could still begin a secret, nothing is final until more arrives.
        hold = self._hold_from(data, 0)
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
        self._tail = data[hold:]
        return b"".join(out)

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

    def flush(self) -> bytes:
        """The held-back bytes at the end of the stream, secrets masked."""
        data, self._tail = self._tail, b""
        if self._bytes is None or not data:
            return data
        masked, count = self._bytes.subn(MASK.encode(), data)
        self.masked += count
        return masked
