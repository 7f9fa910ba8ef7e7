"""Which parsers run isolated, and the limits their workers get."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Final

from linewise.settings.environment import Settings
from linewise.settings.logs import logger

__all__ = [
    "DEFAULT_LINE_TIMEOUT",
    "DEFAULT_WORKER_MEMORY",
    "IsolationPolicy",
]

#: Seconds one line may take in an isolated parser before its worker is replaced.
DEFAULT_LINE_TIMEOUT: Final = 5.0
#: MiB of address space an isolated parser's worker may use.
DEFAULT_WORKER_MEMORY: Final = 1024
_ALL: Final = "all"


def _names(text: str | None) -> frozenset[str]:
    if not text:
        return frozenset()
    return frozenset(name.strip().lower() for name in text.split(",") if name.strip())


def _normal(name: str) -> str:
    return name.strip().lower().replace("-", "_")


class IsolationPolicy:
    """Which adapter types or distributions run in workers, and the workers' limits.

    ``names`` holds adapter types and distribution names (``-`` and ``_`` alike),
    or ``"all"``. ``line_timeout`` is seconds per line, ``worker_memory`` MiB.
    Immutable, compared and hashed by its fields; a plain class with slots, as a
    frozen dataclass cost 3.5M instructions to build at every start-up.
    """

    __slots__ = ("line_timeout", "names", "worker_memory")

    names: frozenset[str]
    line_timeout: float
    worker_memory: int

    def __init__(
        self,
        names: frozenset[str] = frozenset(),
        line_timeout: float = DEFAULT_LINE_TIMEOUT,
        worker_memory: int = DEFAULT_WORKER_MEMORY,
    ) -> None:
        object.__setattr__(self, "names", names)
        object.__setattr__(self, "line_timeout", line_timeout)
        object.__setattr__(self, "worker_memory", worker_memory)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: an IsolationPolicy is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: an IsolationPolicy is immutable")

    def _values(self) -> tuple[frozenset[str], float, int]:
        return (self.names, self.line_timeout, self.worker_memory)

    def __eq__(self, other: object) -> bool:
        if type(other) is not IsolationPolicy:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        names, timeout, memory = self._values()
        shown = f"names={names!r}, line_timeout={timeout!r}, worker_memory={memory!r}"
        return f"IsolationPolicy({shown})"

    def __reduce__(self) -> tuple[type[IsolationPolicy], tuple[frozenset[str], float, int]]:
        return (IsolationPolicy, self._values())  # copy and pickle through the constructor

    @classmethod
    def build(
        cls,
        isolate: Iterable[str] | str | bool | None = None,
        *,
        line_timeout: float | None = None,
        worker_memory: int | None = None,
        settings: Settings | None = None,
    ) -> IsolationPolicy:
        """The policy from the arguments, each defaulting to its variable in ``settings``.

        ``LINEWISE_ISOLATE`` (``TYPE[,TYPE...]`` or ``all``),
        ``LINEWISE_LINE_TIMEOUT`` (seconds) and ``LINEWISE_WORKER_MEMORY`` (MiB), as
        :class:`~linewise.settings.environment.Settings` read them (none without
        settings: the policy reads no environment).
        ``isolate=True`` means all; ``False`` or an empty list means none.
        Raises ValueError for a limit argument that is not a positive number; a
        variable that is not one is warned about and the default used.
        """
        settings = Settings() if settings is None else settings
        if isolate is None:
            names = _names(settings.isolate)
        elif isinstance(isolate, bool):
            names = frozenset([_ALL]) if isolate else frozenset()
        elif isinstance(isolate, str):
            names = _names(isolate)
        else:
            names = frozenset(name.strip().lower() for name in isolate if name.strip())
        timeout = (
            _from_environment(settings.line_timeout, "LINEWISE_LINE_TIMEOUT")
            if line_timeout is None
            else _positive("line_timeout", str(line_timeout))
        )
        memory = (
            _from_environment(settings.worker_memory, "LINEWISE_WORKER_MEMORY")
            if worker_memory is None
            else _positive("worker_memory", str(worker_memory))
        )
        return cls(
            names=frozenset(_normal(name) for name in names),
            line_timeout=DEFAULT_LINE_TIMEOUT if timeout is None else timeout,
            worker_memory=DEFAULT_WORKER_MEMORY if memory is None else int(memory),
        )

    @property
    def active(self) -> bool:
        """True when some parser is isolated."""
        return bool(self.names)

    def covers(self, adapter_type: str, distribution: str | None) -> bool:
        """True when this adapter type (or its distribution) runs in a worker."""
        if not self.names:
            return False
        if _ALL in self.names or _normal(adapter_type) in self.names:
            return True
        return distribution is not None and _normal(distribution) in self.names


def _positive(name: str, text: str | None) -> float | None:
    if text is None or not text.strip():
        return None
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{name} must be a positive number, not {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive number, not {text!r}")
    return value


def _from_environment(text: str | None, name: str) -> float | None:
    try:
        return _positive(name, text)
    except ValueError as error:
        logger.warning("%s; using the default", error)
        return None
