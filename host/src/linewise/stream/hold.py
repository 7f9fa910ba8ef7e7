"""The hold: a session's output kept back, in order, while the sniffer detects the format."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, TypeAlias

from linewise.settings.defaults import PEEK_LIMIT
from linewise.stream.lines import stripped

if TYPE_CHECKING:
    from linewise.stream.detect import Detection, Sniffer

__all__ = ["Hold", "Message"]

#: The streams that are not stdout: the agent's stderr and the host's own messages.
Message: TypeAlias = Literal["stderr", "system"]
_Held: TypeAlias = tuple[Literal["line", "last", "stderr", "system"], str, str]


class Hold:
    """Output of a session whose adapter is ``"auto"``, held until detection settles it.

    Each non-blank stdout line goes to the sniffer; stderr and host messages
    that come after stdout wait with it, so the order stays as it arrived.
    Detection settles when the sniffer is sure, when :data:`PEEK_LIMIT`
    characters are held, or on :meth:`settle`; then ``on_detect`` fixes the
    parser and everything held is replayed, in order, to the session's
    ``stdout``, ``last_line`` and ``message`` steps, which from then on take
    the output directly.
    """

    __slots__ = ("_chars", "_held", "_last_line", "_message", "_on_detect", "_stdout", "sniffer")

    def __init__(
        self,
        sniffer: Sniffer,
        on_detect: Callable[[Detection], None],
        *,
        stdout: Callable[[list[str], str], None],
        last_line: Callable[[str, str], None],
        message: Callable[[Message, str, str], None],
    ) -> None:
        self.sniffer = sniffer
        self._on_detect = on_detect
        self._stdout = stdout
        self._last_line = last_line
        self._message = message
        self._held: list[_Held] = []
        self._chars = 0

    @property
    def holding(self) -> bool:
        """True once stdout is held: what comes after it must wait too."""
        return bool(self._held)

    def stdout(self, pieces: list[str], ts: str) -> None:
        """Hold stdout lines; the ones after the line that settles detection go downstream."""
        sniffer = self.sniffer
        for index, piece in enumerate(pieces):
            self._held.append(("line", piece, ts))
            self._chars += len(piece)
            line = stripped(piece)
            detection = sniffer.add(line) if line else None
            if detection is not None:
                self._settled(detection)
                if index + 1 < len(pieces):
                    self._stdout(pieces[index + 1 :], ts)
                return
        if sniffer.eager and pieces:
            detection = sniffer.try_partial()
            if detection is not None:
                self._settled(detection)
                return
        self._check_size()

    def last_line(self, text: str, ts: str) -> None:
        """Hold the line the stream ended in, without a newline."""
        self._held.append(("last", text, ts))
        line = stripped(text)
        detection = self.sniffer.add(line) if line else None
        if detection is not None:
            self._settled(detection)

    def message(self, stream: Message, text: str, ts: str) -> None:
        """Hold stderr or a host message that came after held stdout."""
        self._held.append((stream, text, ts))
        self._chars += len(text)
        self._check_size()

    def settle(self) -> None:
        """Settle detection on what came so far (the stream ended, or a caller stopped waiting)."""
        self._settled(self.sniffer.finish())

    def _check_size(self) -> None:
        if self._chars >= PEEK_LIMIT:
            self.settle()

    def _settled(self, detection: Detection) -> None:
        self._on_detect(detection)
        held, self._held = self._held, []
        self._chars = 0
        for stream, text, stamp in held:
            if stream == "line":
                self._stdout([text], stamp)
            elif stream == "last":
                self._last_line(text, stamp)
            else:
                self._message(stream, text, stamp)
