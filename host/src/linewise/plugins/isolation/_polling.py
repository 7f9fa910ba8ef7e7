"""When polling a pipe pays: while this process seldom waits for a core (Linux's schedstat).

Polling (see :mod:`._pipe`) lets host and worker work side by side on two
idle cores. On a busy machine it does the opposite: each moment spent polling
is taken from the other side or from other programs, and every yield hands the
core to someone else for a whole time slice. So the host polls only while it
has hardly waited for a core lately, as the kernel counts it (the time this
process spent runnable but not running, ``/proc/self/schedstat``), and tells
the worker to do the same. Where that count does not exist, nobody polls.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Final

__all__ = ["POLICY", "SPIN", "PollingPolicy"]

#: Seconds a side polls before it sleeps, when polling pays.
SPIN: Final = 0.0005
#: Seconds between two looks at how long this process waited for a core.
_WINDOW: Final = 0.05
#: Polling stops while the waits took more than this share of the time.
_BUSY: Final = 0.1
_SCHEDSTAT: Final = "/proc/self/schedstat"


class PollingPolicy:
    """How long this process should poll now: :data:`SPIN` on an idle machine, else 0."""

    def __init__(self, path: str = _SCHEDSTAT, clock: Callable[[], float] = time.monotonic) -> None:
        self._path = path
        self._clock = clock
        self._pid = -1
        self._fd = -1
        self._at = 0.0
        self._waited = 0
        self._spin = 0.0

    def spin(self) -> float:
        """Seconds to poll before sleeping (looked at again every few hundredths of a second)."""
        now = self._clock()
        if now - self._at >= _WINDOW:
            self._look(now)
        return self._spin

    def _look(self, now: float) -> None:
        waited = self._waited_so_far()
        if waited is None:
            self._spin = 0.0
        elif self._at:
            share = (waited - self._waited) / 1e9 / (now - self._at)
            self._spin = SPIN if share < _BUSY else 0.0
        self._waited = waited or 0
        self._at = now

    def _waited_so_far(self) -> int | None:
        """Nanoseconds this process has spent waiting for a core, or None where unknown."""
        if self._pid != os.getpid():  # first use, or a forked child: its own numbers
            self._pid = os.getpid()
            if self._fd >= 0:
                os.close(self._fd)
            try:
                self._fd = os.open(self._path, os.O_RDONLY | os.O_CLOEXEC)
            except OSError:
                self._fd = -1
        if self._fd < 0:
            return None
        try:
            fields = os.pread(self._fd, 256, 0).split()
            return int(fields[1])
        except (OSError, IndexError, ValueError):
            return None


#: The host's policy (one process, one count).
POLICY: Final = PollingPolicy()
