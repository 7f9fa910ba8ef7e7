"""Scaling checks for code that runs on untrusted text: time at n, 2n and 4n, compare ratios."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

_Input = TypeVar("_Input")

# Linear work gives a ratio near 4 from n to 4n, quadratic near 16. The margin
# absorbs timer noise on a busy machine; no absolute time is ever asserted.
_MAX_RATIO = 9.0
_ATTEMPTS = 5
# Below this a measurement is mostly timer noise: fast work is repeated until
# one measurement at n takes this long (the inputs stay small, cache-sized).
_MIN_BASE_SECONDS = 0.02
_MAX_REPEATS = 4096


def _time(work: Callable[[_Input], object], value: _Input, repeats: int) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(repeats):
            work(value)
        best = min(best, time.perf_counter() - start)
    return best


def scaling_ratios(
    work: Callable[[_Input], object], make: Callable[[int], _Input], n: int
) -> list[float]:
    """``[t(2n)/t(n), t(4n)/t(n)]`` for ``work`` on ``make(size)`` (best of three each)."""
    small = make(n)
    repeats = 1
    while repeats < _MAX_REPEATS and _time(work, small, repeats) < _MIN_BASE_SECONDS:
        repeats *= 2
    base = max(_time(work, small, repeats), 1e-9)
    return [_time(work, make(size), repeats) / base for size in (2 * n, 4 * n)]


def assert_linear(work: Callable[[_Input], object], make: Callable[[int], _Input], n: int) -> None:
    """Fail when ``work`` grows faster than linearly from ``make(n)`` to ``make(4n)``.

    Measured up to five times, so one noisy run on a loaded machine does not
    fail the test; a quadratic function fails every attempt by a wide margin.
    """
    ratios: list[float] = []
    for _ in range(_ATTEMPTS):
        ratios = scaling_ratios(work, make, n)
        if ratios[1] < _MAX_RATIO:
            return
    raise AssertionError(f"time grows faster than linear: t(2n)/t(n), t(4n)/t(n) = {ratios}")


def assert_linear_time(work: Callable[[int], object], start: int = 1000) -> None:
    """:func:`assert_linear` for ``work(n)``, which builds its own input of size n."""
    assert_linear(work, lambda size: size, start)
