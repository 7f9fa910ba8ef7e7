"""The ``LINEWISE_*`` variables that steer plugins, read in one place and handed down.

The registry, isolation and the JavaScript engine read no environment: they are given a
:class:`Settings` (``Registry(settings=...)``), made here by
:meth:`Settings.from_environment` at the edge (the ``linewise`` command and
:func:`linewise.get_registry` make theirs once, when the registry is made).
Each value is the variable's text as set (None when unset); the stage that
obeys it parses it, with its own errors and warnings. Where linewise keeps
files (``LINEWISE_CACHE_DIR``, ``LINEWISE_DATA_DIR``) is read by
:mod:`linewise.settings.cache_folder` and :mod:`linewise.settings.data_folder`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Final

__all__ = ["VARIABLES", "Settings"]

#: Each field of :class:`Settings` and the variable it is read from.
VARIABLES: Final = {
    "disable": "LINEWISE_DISABLE",
    "only": "LINEWISE_ONLY",
    "strict": "LINEWISE_STRICT",
    "isolate": "LINEWISE_ISOLATE",
    "line_timeout": "LINEWISE_LINE_TIMEOUT",
    "worker_memory": "LINEWISE_WORKER_MEMORY",
    "js_heap": "LINEWISE_JS_HEAP",
}


class Settings:
    """What the environment asks of the plugin stage; ``Settings()`` asks nothing.

    ``disable`` and ``only``: comma-separated adapter types or distributions;
    ``strict``: ``1``/``true``/``yes``/``on`` for exceptions instead of fallbacks;
    ``isolate``: types, distributions or ``all`` to run in worker processes, with
    ``line_timeout`` (seconds) and ``worker_memory`` (MiB) as their limits;
    ``line_timeout`` is a JavaScript parser's time limit too, and ``js_heap`` (MiB)
    its heap limit. A
    plain class with slots, not a dataclass: every ``linewise`` command makes
    one, and building a dataclass at import is a noticeable part of a short run.
    """

    __slots__ = tuple(VARIABLES)

    def __init__(
        self,
        *,
        disable: str | None = None,
        only: str | None = None,
        strict: str | None = None,
        isolate: str | None = None,
        line_timeout: str | None = None,
        worker_memory: str | None = None,
        js_heap: str | None = None,
    ) -> None:
        self.disable = disable
        self.only = only
        self.strict = strict
        self.isolate = isolate
        self.line_timeout = line_timeout
        self.worker_memory = worker_memory
        self.js_heap = js_heap

    def _values(self) -> tuple[str | None, ...]:
        return tuple(getattr(self, name) for name in VARIABLES)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Settings:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in VARIABLES)
        return f"Settings({shown})"

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """The settings of ``environ`` (default: this process's environment), read once."""
        env = os.environ if environ is None else environ
        return cls(**{name: env.get(variable) for name, variable in VARIABLES.items()})

    @property
    def strict_on(self) -> bool:
        """True when ``strict`` says yes."""
        return (self.strict or "").strip().lower() in ("1", "true", "yes", "on")
