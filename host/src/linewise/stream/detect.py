"""Auto-detection: which installed parser wrote a log, from its first lines, with a reason."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from linewise.plugins.generic import GENERIC_ADAPTER_TYPE
from linewise.plugins.registry import Registry, get_registry
from linewise.plugins.sniffers import register_sniffers
from linewise.settings.defaults import CONFIDENT, MARGIN, SNIFF_LINES, SNIFF_MAX_LINES
from linewise.stream.lines import text_lines

__all__ = [
    "CONFIDENT",
    "MARGIN",
    "SNIFF_LINES",
    "SNIFF_MAX_LINES",
    "Detection",
    "Sniffer",
    "detect_adapter",
    "first_lines",
    "register_sniffers",
]


@dataclass(frozen=True, slots=True)
class Detection:
    """The adapter type chosen for a log (the generic one when nothing is sure) and why."""

    adapter_type: str
    detected: bool
    reason: str
    scores: dict[str, float] = field(default_factory=dict)


def first_lines(text: str, limit: int = SNIFF_MAX_LINES) -> list[str]:
    """The first ``limit`` non-blank lines of ``text``, stripped, as sessions see them."""
    return text_lines(text, limit)


def _scores(results: Iterable[tuple[str, object]]) -> dict[str, float]:
    scores: dict[str, float] = {}
    for _, result in results:
        if not (isinstance(result, tuple) and len(result) == 2):
            continue
        adapter_type, score = result
        if not isinstance(adapter_type, str) or not isinstance(score, int | float):
            continue
        if isinstance(score, bool):
            continue
        try:
            score = float(score)
        except OverflowError:  # an int beyond any float: no meaningful score
            continue
        if not math.isfinite(score):
            continue
        score = min(max(score, 0.0), 1.0)
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


class Sniffer:
    """The one detection policy, fed line by line: windows of :data:`SNIFF_LINES` lines.

    :meth:`add` takes each non-blank line as sessions see it and returns a
    settled :class:`Detection` once a full window is recognised (or is
    ambiguous, or :data:`SNIFF_MAX_LINES` lines went by); :meth:`finish` gives
    the verdict on whatever came when the stream ends or a caller stops
    waiting (the held output is too large, or a live run's deadline passed).
    With ``eager`` (live runs: output waits while detecting), a partial window
    a parser is sure of settles it at once (:meth:`try_partial`).
    """

    def __init__(self, registry: Registry | None = None, *, eager: bool = False) -> None:
        self.registry = registry or get_registry()
        self.eager = eager
        self.lines = 0
        self._window: list[str] = []
        self._verdict: Detection | None = None
        self._registered = False

    def add(self, line: str) -> Detection | None:
        """One more non-blank line; a detection once it is settled, else None."""
        self.lines += 1
        self._window.append(line)
        if len(self._window) < SNIFF_LINES:
            return None
        chosen, settled = self._judge_window()
        if chosen is not None or settled or self.lines >= SNIFF_MAX_LINES:
            return self._settle(chosen)
        return None

    def try_partial(self) -> Detection | None:
        """A live run's early look: the partial window, when a parser is sure of it."""
        if not self._window:
            return None
        scores = self._scores(tuple(self._window))
        chosen, _ = _judge(scores, self._seen(len(self._window)))
        return chosen

    def finish(self) -> Detection:
        """The verdict on what came: the partial window's, or the first window's reason."""
        chosen: Detection | None = None
        if self._window:
            chosen, _ = self._judge_window()
        return self._settle(chosen)

    def _settle(self, chosen: Detection | None) -> Detection:
        if chosen is not None:
            return chosen
        if self._verdict is None:
            return Detection(GENERIC_ADAPTER_TYPE, False, "the log has no lines to detect from")
        return self._verdict

    def _judge_window(self) -> tuple[Detection | None, bool]:
        """Score the window: a confident detection, and whether the search must stop."""
        window = tuple(self._window)
        self._window = []
        chosen, fallback = _judge(self._scores(window), self._seen(len(window)))
        self._verdict = self._verdict or fallback
        if chosen is None and fallback.reason.startswith("ambiguous"):
            self._verdict = fallback
            return None, True
        return chosen, False

    def _seen(self, count: int) -> str:
        start = self.lines - count
        return f"the first {_lines(count)}" if start == 0 else f"lines {start + 1}-{self.lines}"

    def _scores(self, window: tuple[str, ...]) -> dict[str, float]:
        if not self._registered:
            register_sniffers(self.registry)
            self._registered = True
        # A tuple: a sniffer cannot change the lines the next one sees.
        return _scores(self.registry.hooks.collect("linewise_sniff", lines=window))


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
    sniffer = Sniffer(registry)
    for raw in lines:
        line = raw.strip()
        if line:
            detection = sniffer.add(line)
            if detection is not None:
                return detection
    return sniffer.finish()


def _lines(count: int) -> str:
    return f"{count} line" if count == 1 else f"{count} lines"
