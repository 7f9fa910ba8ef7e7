"""A progress bar on stderr for long renders of a file: only on a terminal, only after a delay."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import IO, Any, Final

__all__ = ["DELAY", "ProgressBar"]

#: Seconds a render must take before the bar appears (short renders never show it).
DELAY: Final = 1.0
#: Least seconds between two redraws.
INTERVAL: Final = 0.1
_WIDTH: Final = 80


def _size(count: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if count < 1000 or unit == "GB":
            return f"{count:.0f} {unit}" if unit == "B" else f"{count:.1f} {unit}"
        count /= 1000
    raise AssertionError("unreachable")


class ProgressBar:
    """Bytes read out of a file's size, redrawn in place on ``stream`` with a carriage return.

    Nothing is drawn before ``delay`` seconds (:data:`DELAY`) have passed, so a quick render
    leaves no trace; :meth:`close` erases the bar. Only ASCII is written, and
    nothing goes anywhere but ``stream``. When the transcript goes to the same
    terminal, call :meth:`hide` before writing it: the next :meth:`update`
    draws the bar again below the new lines.
    """

    def __init__(
        self,
        stream: IO[str],
        total: int,
        *,
        delay: float | None = None,
        interval: float = INTERVAL,
        clock: Callable[[], float] = time.monotonic,
        width: int | None = None,
    ) -> None:
        self._stream = stream
        self._total = max(total, 1)
        self._delay = DELAY if delay is None else delay
        self._interval = interval
        self._clock = clock
        self._start = clock()
        self._next = self._start + self._delay
        self._drawn = 0  # length of the bar on screen; 0 when none is
        self._width = width or _terminal_width(stream)

    @staticmethod
    def wanted(stream: IO[Any]) -> bool:
        """True when ``stream`` is a terminal (a bar in a file or a pipe is noise)."""
        isatty = getattr(stream, "isatty", None)
        return bool(isatty and isatty())

    def update(self, done: int) -> None:
        """``done`` bytes of the total have been read; redraw when it is time."""
        now = self._clock()
        if now < self._next:
            return
        self._next = now + self._interval
        fraction = min(done / self._total, 1.0)
        rate = done / max(now - self._start, 1e-9)
        figures = f" {fraction:4.0%}  {_size(done)} / {_size(self._total)}  {_size(rate)}/s"
        room = max(self._width - len(figures) - len("linewise [] "), 10)
        filled = int(room * fraction)
        bar = "linewise [" + "=" * filled + " " * (room - filled) + "]" + figures
        line = bar.ljust(self._drawn)  # covers a longer bar drawn before
        self._stream.write("\r" + line)
        self._stream.flush()
        self._drawn = len(line)

    def hide(self) -> None:
        """Erase the bar (before other output reaches the same terminal)."""
        if self._drawn:
            self._stream.write("\r" + " " * self._drawn + "\r")
            self._stream.flush()
            self._drawn = 0
            self._next = 0.0  # draw again at the next update

    def close(self) -> None:
        """Erase the bar for good."""
        self.hide()
        self._next = float("inf")


def _terminal_width(stream: IO[Any]) -> int:
    try:
        columns = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):
        return _WIDTH
    if columns <= 0:  # a terminal that does not know its size
        return _WIDTH
    # One column spare: a line filling the last column wraps on some terminals.
    return max(min(columns - 1, _WIDTH), 20)
