"""Auto-detection: which installed parser wrote a log, from its first lines, with a reason."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

from linewise_contracts.protocols import SNIFF

from linewise._generic import GENERIC_ADAPTER_TYPE
from linewise._registry import Registry, get_registry
from linewise.hookspecs import hookimpl

__all__ = [
    "CONFIDENT",
    "MARGIN",
    "SNIFF_LINES",
    "SNIFF_MAX_LINES",
    "Detection",
    "detect_adapter",
    "first_lines",
]

#: How many non-blank lines of a log the detectors see at a time.
SNIFF_LINES: Final = 40
#: How far into a log detection looks when the first lines are not recognised.
SNIFF_MAX_LINES: Final = 600
#: A detector's score from which it counts as confident.
CONFIDENT: Final = 0.8
#: How far the best score must lead the next one; closer is ambiguous.
MARGIN: Final = 0.2

_SNIFFER_PREFIX: Final = "linewise-sniff:"


@dataclass(frozen=True, slots=True)
class Detection:
    """The adapter type chosen for a log (the generic one when nothing is sure) and why."""

    adapter_type: str
    detected: bool
    reason: str
    scores: dict[str, float] = field(default_factory=dict)


class _PluginSniffer:
    """Serves one plugin's ``sniff`` export through the ``linewise_sniff`` hook."""

    def __init__(self, adapter_type: str, sniff: Callable[[Sequence[str]], float]) -> None:
        self.adapter_type = adapter_type
        self._sniff = sniff

    @hookimpl
    def linewise_sniff(self, lines: Sequence[str]) -> tuple[str, float]:
        return self.adapter_type, self._sniff(lines)


def _register_sniffers(registry: Registry) -> None:
    manager = registry.hooks.manager
    for adapter_type in registry.adapter_types:
        name = _SNIFFER_PREFIX + adapter_type
        if adapter_type == GENERIC_ADAPTER_TYPE or manager.has_plugin(name):
            continue
        loaded = registry.load(adapter_type)
        sniff = getattr(loaded.target, SNIFF, None)
        if loaded.is_fallback or not callable(sniff):
            continue
        manager.register(_PluginSniffer(adapter_type, sniff), name)


def first_lines(text: str, limit: int = SNIFF_MAX_LINES) -> list[str]:
    """The first ``limit`` non-blank lines of ``text``, stripped, as sessions see them."""
    lines: list[str] = []
    for raw in text.split("\n"):
        line = raw.strip().lstrip("\ufeff")
        if line:
            lines.append(line)
            if len(lines) >= limit:
                break
    return lines


def _scores(results: Iterable[tuple[str, object]]) -> dict[str, float]:
    scores: dict[str, float] = {}
    for _, result in results:
        if not (isinstance(result, tuple) and len(result) == 2):
            continue
        adapter_type, score = result
        if not isinstance(adapter_type, str) or not isinstance(score, int | float):
            continue
        if isinstance(score, bool) or not math.isfinite(score):
            continue
        score = min(max(float(score), 0.0), 1.0)
        scores[adapter_type] = max(score, scores.get(adapter_type, 0.0))
    return scores


def _judge(scores: dict[str, float], seen: str) -> tuple[Detection | None, Detection]:
    """A confident detection for one window, or None, and the reason to give if none comes."""
    ranked = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    shown = ", ".join(f"{name} {score:.2f}" for name, score in ranked[:3] if score > 0)
    if not ranked or ranked[0][1] < CONFIDENT:
        why = f"no parser recognised {seen}" + (f" (best: {shown})" if shown else "")
        return None, Detection(GENERIC_ADAPTER_TYPE, False, why, scores)
    best, score = ranked[0]
    if len(ranked) > 1 and score - ranked[1][1] < MARGIN:
        why = f"ambiguous: several parsers recognise {seen} ({shown})"
        return None, Detection(GENERIC_ADAPTER_TYPE, False, why, scores)
    runner_up = f"; next: {ranked[1][0]} {ranked[1][1]:.2f}" if len(ranked) > 1 else ""
    chosen = Detection(best, True, f"recognised {seen} (score {score:.2f}{runner_up})", scores)
    return chosen, chosen


def detect_adapter(lines: Sequence[str], *, registry: Registry | None = None) -> Detection:
    """Pick the adapter type that wrote ``lines`` (the first non-blank lines of a log).

    Every installed plugin that exports ``sniff`` (and every host-app
    ``linewise_sniff`` hook) scores the first :data:`SNIFF_LINES` lines from 0
    to 1. The best score wins when it is at least :data:`CONFIDENT` and leads
    the next by :data:`MARGIN`. When no parser is sure (a log that opens with a
    wrapper's own messages, say), the next windows of lines are tried, up to
    :data:`SNIFF_MAX_LINES`; an ambiguous window stops the search. Otherwise the
    generic parser is chosen, and the reason says why.
    """
    registry = registry or get_registry()
    sample = [line for line in lines if line.strip()][:SNIFF_MAX_LINES]
    if not sample:
        return Detection(GENERIC_ADAPTER_TYPE, False, "the log has no lines to detect from")
    _register_sniffers(registry)
    verdict: Detection | None = None
    for start in range(0, len(sample), SNIFF_LINES):
        window = sample[start : start + SNIFF_LINES]
        seen = (
            f"the first {_lines(len(window))}"
            if start == 0
            else f"lines {start + 1}-{start + len(window)}"
        )
        scores = _scores(registry.hooks.collect("linewise_sniff", lines=window))
        chosen, fallback = _judge(scores, seen)
        if chosen is not None:
            return chosen
        verdict = verdict or fallback
        if fallback.reason.startswith("ambiguous"):
            return fallback
    assert verdict is not None
    return verdict


def _lines(count: int) -> str:
    return f"{count} line" if count == 1 else f"{count} lines"
