"""Which parsers run isolated, and the limits their workers get."""

from __future__ import annotations

import logging
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from linewise.settings.environment import Settings

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
logger = logging.getLogger("linewise")


def _names(text: str | None) -> frozenset[str]:
    if not text:
        return frozenset()
    return frozenset(name.strip().lower() for name in text.split(",") if name.strip())


def _normal(name: str) -> str:
    return name.strip().lower().replace("-", "_")


@dataclass(frozen=True, slots=True)
class IsolationPolicy:
    """Which adapter types or distributions run in workers, and the workers' limits.

    ``names`` holds adapter types and distribution names (``-`` and ``_`` alike),
    or ``"all"``. ``line_timeout`` is seconds per line, ``worker_memory`` MiB.
    """

    names: frozenset[str] = frozenset()
    line_timeout: float = DEFAULT_LINE_TIMEOUT
    worker_memory: int = DEFAULT_WORKER_MEMORY

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
