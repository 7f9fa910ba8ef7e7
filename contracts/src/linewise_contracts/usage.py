"""One vocabulary for a run's tokens, the same five counts for every CLI (contract 1.3).

Each CLI counts tokens its own way: Codex's and Gemini's ``input_tokens``
include the cached tokens, Claude's exclude cache reads and cache writes,
some CLIs report reasoning inside output and some beside it. A plugin maps
its CLI's fields into :class:`TokenUsage` so every view adds up like with
like. A count the CLI did not report is ``None``, never 0: a view can then
say "not reported" where it would otherwise print a false zero.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from linewise_contracts._frozen import FrozenValue, frozen_value, set_fields
from linewise_contracts.extract import as_int

__all__ = ["TOKEN_FIELDS", "TokenUsage", "token_count", "without"]

#: The five counts, in the order views show them, with their JSON keys.
TOKEN_FIELDS: Final = (
    ("uncached_input", "uncachedInput"),
    ("cache_read", "cacheRead"),
    ("cache_write", "cacheWrite"),
    ("output", "output"),
    ("reasoning", "reasoning"),
)


def token_count(value: object) -> int | None:
    """A count as a CLI reported it: a non-negative int (or whole float); None for anything else.

    A missing field, ``null``, text, a negative or fractional number are all
    "not reported", so a plugin maps ``record.get("cached")`` straight into a
    :class:`TokenUsage` field without turning an absent count into 0.
    """
    count = as_int(value, -1)
    return count if count >= 0 else None


def without(total: int | None, *parts: int | None) -> int | None:
    """``total`` less the ``parts`` that were reported, never below 0; None when ``total`` is.

    For a CLI whose input count includes its cache reads (Codex, Gemini):
    ``without(input_tokens, cached)`` is the uncached input.
    """
    if total is None:
        return None
    return max(total - sum(part for part in parts if part is not None), 0)


def _plus(a: int | None, b: int | None) -> int | None:
    # Unknown plus unknown stays unknown; unknown plus a count is the count (what was reported).
    if a is None:
        return b
    if b is None:
        return a
    return a + b


# A frozen dataclass whose methods are written out (start-up: see linewise_contracts._frozen).
@frozen_value(kw_only=True)
class TokenUsage(FrozenValue):
    """A run's tokens by kind; each ``None`` when the CLI did not report it.

    ``uncached_input``: input tokens neither read from nor written to a
    prompt cache. ``cache_read``: input tokens read from a prompt cache.
    ``cache_write``: input tokens written to a prompt cache (Anthropic's cache
    creation). ``output``: every generated token billed as output, reasoning
    included. ``reasoning``: the part of ``output`` that was reasoning or
    thinking, where the CLI reports it (never added to ``output`` again).

    Counts are non-negative ints; anything else is refused with
    ``ValueError`` / ``TypeError``, so a plugin's mistake shows where it is made.
    """

    __slots__ = ("cache_read", "cache_write", "output", "reasoning", "uncached_input")

    uncached_input: int | None
    cache_read: int | None
    cache_write: int | None
    output: int | None
    reasoning: int | None

    def __init__(
        self,
        *,
        uncached_input: int | None = None,
        cache_read: int | None = None,
        cache_write: int | None = None,
        output: int | None = None,
        reasoning: int | None = None,
    ) -> None:
        set_fields(
            self,
            uncached_input=uncached_input,
            cache_read=cache_read,
            cache_write=cache_write,
            output=output,
            reasoning=reasoning,
        )
        for name, _ in TOKEN_FIELDS:
            value = getattr(self, name)
            if value is None:
                continue
            if type(value) is not int:
                raise TypeError(f"TokenUsage.{name} must be an int or None, not {value!r}")
            if value < 0:
                raise ValueError(f"TokenUsage.{name} must not be negative, not {value}")

    def __add__(self, other: TokenUsage) -> TokenUsage:
        """Field by field; a field stays ``None`` only when neither side reported it."""
        if not isinstance(other, TokenUsage):
            return NotImplemented
        return TokenUsage(
            uncached_input=_plus(self.uncached_input, other.uncached_input),
            cache_read=_plus(self.cache_read, other.cache_read),
            cache_write=_plus(self.cache_write, other.cache_write),
            output=_plus(self.output, other.output),
            reasoning=_plus(self.reasoning, other.reasoning),
        )

    @property
    def known(self) -> bool:
        """True when the CLI reported at least one of the counts."""
        return any(getattr(self, name) is not None for name, _ in TOKEN_FIELDS)

    @property
    def is_empty(self) -> bool:
        """True when the CLI reported none of the counts (the usage is unknown)."""
        return not self.known

    @property
    def total_input(self) -> int | None:
        """Every input token (uncached, cache reads, cache writes); None when none was reported."""
        return _plus(_plus(self.uncached_input, self.cache_read), self.cache_write)

    @property
    def total(self) -> int | None:
        """Input and output tokens together (reasoning is part of output); None when unknown."""
        return _plus(self.total_input, self.output)

    def to_json(self) -> dict[str, int | None]:
        """The counts under camelCase keys, ``null`` for a count not reported."""
        return {key: getattr(self, name) for name, key in TOKEN_FIELDS}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> TokenUsage:
        """The inverse of :meth:`to_json`; a key missing or not a count reads as unknown."""
        if not isinstance(data, Mapping):
            return cls()
        counts: dict[str, int | None] = {}
        for name, key in TOKEN_FIELDS:
            value = data.get(key)
            counts[name] = value if type(value) is int and value >= 0 else None
        return cls(**counts)
