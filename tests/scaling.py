"""Scaling checks: time at n, 2n and 4n compared as ratios, never against a clock."""

from __future__ import annotations

import time
from collections.abc import Callable

#: Least time of one run at the base size, so that timer noise is small beside it.
_BASE_SECONDS = 0.02


def _best(work: Callable[[int], object], n: int, repeats: int = 5) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        work(n)
        best = min(best, time.perf_counter() - start)
    return best


def scaling_ratios(work: Callable[[int], object], start: int = 1000) -> tuple[int, float, float]:
    """``(n, t(2n)/t(n), t(4n)/t(n))``, with n grown until t(n) is long enough to measure."""
    n = start
    while _best(work, n, 1) < _BASE_SECONDS and n < 1 << 22:
        n *= 2
    base = _best(work, n)
    return n, _best(work, 2 * n) / base, _best(work, 4 * n) / base


def assert_linear_time(work: Callable[[int], object], start: int = 1000) -> None:
    """Fails when ``work(n)`` grows like n² (ratios 4 and 16); linear gives 2 and 4.

    A busy machine can slow one measurement; quadratic growth shows in every
    attempt, so up to five attempts are made and one that grows clearly slower
    than n² (at most 10x for 4n, where n² gives 16x) suffices.
    """
    attempts = []
    for _ in range(5):
        n, double, quadruple = scaling_ratios(work, start)
        if double < 3.5 and quadruple < 10:
            return
        attempts.append(f"n={n}: t(2n)/t(n)={double:.1f}, t(4n)/t(n)={quadruple:.1f}")
    raise AssertionError("not linear: " + "; ".join(attempts))
