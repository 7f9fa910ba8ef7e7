"""Verdicts on what the worker saw of itself: import, exports, side effects, integrity, cost.

The worker reports these as plain facts (an error message or None, the names
it found, the side effects its audit hooks recorded, the checker modules that
changed, how long calls took); the verdict and its wording are made here, in
the parent. A record of the wrong shape is a :class:`ChannelError`.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Any, Final

from linewise_contracts.compliance._channel import ChannelError
from linewise_contracts.compliance._judge import short
from linewise_contracts.compliance._results import CheckResult

__all__ = ["Budgets", "observed_verdict"]

_PHASES: Final = {"import": "import.side_effects", "parsing": "parse.side_effects"}
_SHOWN_EFFECTS: Final = 20
_LARGE: Final = ("1 MB JSON line", "1 MB text line", "5000-deep JSON")


@dataclass(frozen=True, slots=True)
class Budgets:
    """The cost check's budgets: a sample line's median, and one large line's seconds."""

    line_seconds: float
    large_seconds: float


def _texts(value: object) -> bool:
    return type(value) is list and all(type(item) is str for item in value)


def _malformed(record: tuple[Any, ...]) -> ChannelError:
    return ChannelError(f"a malformed observation: {short(record, 80)}")


def observed_verdict(at: str, value: str, record: tuple[Any, ...], budgets: Budgets) -> CheckResult:
    """The verdict on one of the worker's own observations (``record[0]`` says which)."""
    kind = record[0]
    if kind == "import" and len(record) == 3 and type(record[2]) in (str, type(None)):
        if record[2] is None:
            return CheckResult("import", "pass", f"{value} imports cleanly", at)
        return CheckResult("import", "fail", record[2], at)
    if kind == "exports" and len(record) == 5:
        return _exports(at, record)
    if kind == "effects" and len(record) == 4 and record[2] in _PHASES and _texts(record[3]):
        return _effects(at, record[2], record[3])
    if kind == "integrity" and len(record) == 3 and _texts(record[2]):
        return _integrity(at, record[2])
    if kind == "cost" and len(record) == 4:
        return _cost(at, record, budgets)
    raise _malformed(record)


def _exports(at: str, record: tuple[Any, ...]) -> CheckResult:
    _, _, problem, details, kinds = record
    if type(problem) not in (str, type(None)) or not _texts(details) or not _texts(kinds):
        raise _malformed(record)
    if problem is not None:
        return CheckResult("exports", "fail", problem, at, tuple(details))
    if not kinds:
        raise _malformed(record)
    return CheckResult("exports", "pass", "exports " + ", ".join(kinds), at)


def _effects(at: str, phase: str, found: list[str]) -> CheckResult:
    check = _PHASES[phase]
    if not found:
        return CheckResult(check, "pass", f"no side effects during {phase}", at)
    return CheckResult(
        check,
        "fail",
        f"{len(found)} side effect(s) during {phase}: a parser must not touch files, "
        "the network, subprocesses, the environment or global state",
        at,
        tuple(found[:_SHOWN_EFFECTS]),
    )


def _integrity(at: str, changed: list[str]) -> CheckResult:
    if changed:
        return CheckResult(
            "checker.integrity",
            "fail",
            "the plugin changed the checker's own modules: " + ", ".join(sorted(changed)),
            at,
        )
    return CheckResult(
        "checker.integrity",
        "pass",
        "the checker's modules are as they were before the plugin was imported",
        at,
    )


def _seconds(value: object) -> bool:
    return type(value) is float and math.isfinite(value) and value >= 0


def _cost(at: str, record: tuple[Any, ...], budgets: Budgets) -> CheckResult:
    """Time and memory per line from the raw timings: ``(times, [(name, s, MB, input MB)])``."""
    _, _, times, large = record
    if (
        type(times) is not list
        or not all(_seconds(item) for item in times)
        or type(large) is not list
        or [item[0] if type(item) is tuple and len(item) == 4 else None for item in large]
        != list(_LARGE)
        or not all(_seconds(number) for item in large for number in item[1:])
    ):
        raise _malformed(record)
    figures_large = {
        name: {
            "seconds": round(seconds, 4),
            "peakMemoryMB": round(peak, 2),
            "inputMB": round(size, 2),
        }
        for name, seconds, peak, size in large
    }
    ordered = sorted(times)
    median = statistics.median(ordered) if ordered else 0.0
    figures = {
        "sampleLines": len(ordered),
        "medianMicroseconds": round(median * 1e6, 1),
        "p95Microseconds": round(ordered[int(len(ordered) * 0.95)] * 1e6, 1) if ordered else 0,
        "maxMicroseconds": round(ordered[-1] * 1e6, 1) if ordered else 0,
        "large": figures_large,
    }
    over = []
    if median > budgets.line_seconds:
        over.append(
            f"median {median * 1e6:.0f} µs per sample line "
            f"(budget {budgets.line_seconds * 1e6:.0f} µs)"
        )
    for name, figure in figures_large.items():
        if figure["seconds"] > budgets.large_seconds:
            over.append(f"{name}: {figure['seconds']:.2f} s (budget {budgets.large_seconds} s)")
        if figure["peakMemoryMB"] > figure["inputMB"] * 20 + 5:
            over.append(
                f"{name}: {figure['peakMemoryMB']} MB peak for {figure['inputMB']} MB "
                "of input (budget 20x + 5 MB)"
            )
    summary = f"median {median * 1e6:.0f} µs per sample line; " + "; ".join(
        f"{n}: {f['seconds']:.3f} s, {f['peakMemoryMB']} MB" for n, f in figures_large.items()
    )
    if over:
        return CheckResult(
            "cost", "warn", "over budget: " + "; ".join(over), at, (summary,), figures
        )
    return CheckResult("cost", "pass", summary, at, (), figures)
