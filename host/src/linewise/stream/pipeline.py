"""The one stream pipeline: bytes → lines → sniffer → session → sink, for every entry point."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from linewise_contracts.entries import TranscriptEntry

from linewise.plugins.registry import Registry, get_registry
from linewise.settings.defaults import MAX_LINE_CHARS
from linewise.stream.session import TranscriptSession
from linewise.stream.stats import EntryFold

if TYPE_CHECKING:
    # Detection (and pluggy, which serves the sniffers) is imported only to detect.
    from linewise.stream.detect import Detection

__all__ = ["EntryCallback", "LineCallback", "Pipeline", "new_session"]

#: Called with each entry as it is made.
EntryCallback = Callable[[TranscriptEntry], None]
#: Called with each whole stdout line and the entries it gave (a renderer with ``wants_lines``).
LineCallback = Callable[[str, Sequence[TranscriptEntry]], None]


def new_session(
    adapter_type: str,
    *,
    registry: Registry | None = None,
    eager: bool = False,
    **options: Any,
) -> TranscriptSession:
    """The one place sessions are made: a fixed parser, or ``"auto"`` with the sniffer."""
    registry = registry or get_registry()
    options.setdefault("strict", registry.strict)
    options.setdefault("hooks", registry.hooks)
    if adapter_type == "auto":
        from linewise.stream.detect import Sniffer

        return TranscriptSession(Sniffer(registry, eager=eager), **options)
    return TranscriptSession(registry.load(adapter_type), **options)


class Pipeline:
    """One stream's way through the host, each entry given to ``fold`` as it is made.

    Stdout, stderr and host messages go in, in arrival order; out come
    entries, to ``on_entry``, or, for each whole stdout line when ``on_line``
    is given, the line with its entries (a renderer drawing from raw lines).
    A line cut for length, stderr and host messages always go to ``on_entry``.
    """

    def __init__(
        self,
        adapter_type: str,
        *,
        registry: Registry | None = None,
        on_entry: EntryCallback | None = None,
        on_line: LineCallback | None = None,
        on_detect: Callable[[Detection], None] | None = None,
        eager: bool = False,
        max_line_chars: int = MAX_LINE_CHARS,
        fold: EntryFold | None = None,
        **options: Any,
    ) -> None:
        #: The run's fold (:class:`linewise.transcript.fold.RunFold`), fed every entry; or None.
        self.fold = fold
        self._on_entry = on_entry
        self._on_line = on_line
        self._limit = max_line_chars
        self.session = new_session(
            adapter_type,
            registry=registry,
            eager=eager,
            sink=self._sink,
            on_detect=on_detect,
            max_line_chars=max_line_chars,
            **options,
        )
        #: The session's one door in: ``receive(stream, data, ts)`` (see TranscriptSession).
        self.receive = self.session.receive
        self.decide = self.session.decide
        self.discard_partial = self.session.discard_partial

    def _sink(self, line: str | None, entries: list[TranscriptEntry]) -> None:
        fold = self.fold
        if fold is not None and entries:
            fold.add_all(entries)  # one call a line: the loop runs in the (compiled) fold
        if line is not None and self._on_line is not None and len(line) <= self._limit:
            self._on_line(line, entries)
        elif self._on_entry is not None:
            write = self._on_entry
            for entry in entries:
                write(entry)

    @property
    def detecting(self) -> bool:
        """True while output is held back until the format is detected."""
        return self.session.detecting

    def close(self, ts: str | None = None) -> None:
        """End the stream: the trailing partial line, and what the parser held."""
        self.session.close(ts)
