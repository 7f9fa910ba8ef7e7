"""A claim on an adapter type as discovery finds it (an entry point, not imported), and a scan.

Apart from :mod:`linewise.plugins.discovery`, which finds them, so that the
scan cache and JavaScript registrations, which make them too, need not import it.
"""

from __future__ import annotations

from typing import Any, Protocol

__all__ = ["Candidate", "Loadable", "Scan"]


class Loadable(Protocol):
    """What the registry needs of an entry point: an importlib one, or one read from the cache."""

    @property
    def name(self) -> str: ...

    @property
    def value(self) -> str: ...

    def load(self) -> Any: ...


class Candidate:
    """One ``linewise.parsers`` entry point: a distribution's claim on an adapter type.

    A plain class with slots, compared by value like a frozen dataclass: every
    command builds these at start-up, where a dataclass costs more to define
    than the whole scan cache takes to read.
    """

    __slots__ = (
        "adapter_type",
        "distribution",
        "entry_point",
        "kind",
        "path_rank",
        "requires",
        "source",
        "summary",
        "value",
        "version",
    )

    def __init__(
        self,
        *,
        adapter_type: str,
        value: str,
        distribution: str | None,
        version: str | None,
        summary: str | None,
        requires: tuple[str, ...] | None,
        path_rank: int,
        entry_point: Loadable,
        kind: str = "python",
        source: str | None = None,
    ) -> None:
        self.adapter_type = adapter_type
        self.value = value
        self.distribution = distribution
        self.version = version
        self.summary = summary
        self.requires = requires
        # Where the distribution sits on sys.path: the first place wins a duplicate claim.
        self.path_rank = path_rank
        self.entry_point = entry_point
        #: "python" for an entry point, "javascript" for a `linewise js add` registration.
        self.kind = kind
        #: Where a JavaScript parser was registered from (None for Python plugins).
        self.source = source

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Candidate:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"Candidate({shown})"

    @property
    def module(self) -> str:
        """The module part of the entry point value."""
        return self.value.split(":", 1)[0].strip()

    @property
    def attribute(self) -> str | None:
        """The attribute part of the entry point value, if any."""
        if ":" not in self.value:
            return None
        return self.value.split(":", 1)[1].split("[", 1)[0].strip() or None


class Scan:
    """The claims found, and the installed distributions skipped for unreadable metadata."""

    __slots__ = ("candidates", "skipped")

    def __init__(self, candidates: list[Candidate], skipped: list[str]) -> None:
        self.candidates = candidates
        self.skipped = skipped

    def __eq__(self, other: object) -> bool:
        if type(other) is not Scan:
            return NotImplemented
        return (self.candidates, self.skipped) == (other.candidates, other.skipped)

    __hash__ = None  # type: ignore[assignment]  # mutable lists inside, as the dataclass had

    def __repr__(self) -> str:
        return f"Scan(candidates={self.candidates!r}, skipped={self.skipped!r})"
