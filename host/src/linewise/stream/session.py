"""Transcript sessions: one run's output in, validated entries out, with the per-line safety net.

A session is a state machine with no I/O of its own (in the style of
:mod:`linewise.run.child`): the caller hands it what arrived, on which stream
and when, through one door (:meth:`TranscriptSession.receive`), ends it with
:meth:`~TranscriptSession.close`, and every entry leaves through one door, the
session's sink. Reading files or pipes, the clock, Ctrl-C and isolation are the
callers' business; how a chunk's lines reach the parser (one by one, or
batched for an isolated parser) and what a Ctrl-C left are its driver's
(:mod:`linewise.stream.drivers`).

The safety net: a parser exception on a line sends that line through the
generic parser, is recorded in the session's ``diagnostics``, and resets a
stateful parser, which stays in use. Every entry is validated; invalid ones are
dropped and counted, and a line left with no valid entry is shown raw.

A real Ctrl-C inside the parser propagates; the lines read and not parsed yet
stay with the session: its next call parses them first (and returns what the
interrupted one had made), or ``stop_parsing()`` drops them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import TYPE_CHECKING, Literal, TypeAlias, cast

from linewise_contracts.entries import TranscriptEntry

from linewise.plugins.hooks import HookRelay
from linewise.plugins.registry import LoadedParser
from linewise.settings.clock import utc_now
from linewise.settings.defaults import MAX_ENTRIES_PER_LINE, MAX_LINE_CHARS
from linewise.stream.diagnostics import Diagnostics, LineError
from linewise.stream.drivers import LineByLine, driver_for
from linewise.stream.hold import Hold, Message
from linewise.stream.lines import LineReader
from linewise.stream.safety import SafetyNet

if TYPE_CHECKING:
    from linewise.stream.detect import Detection, Sniffer

__all__ = [
    "DEFAULT_MAX_ENTRIES_PER_LINE",
    "DEFAULT_MAX_LINE_CHARS",
    "Diagnostics",
    "EntrySink",
    "LineError",
    "Stream",
    "TranscriptSession",
    "merge_deltas",
]

#: Longest line handed to a parser; longer lines are cut and shown raw (bounds memory).
DEFAULT_MAX_LINE_CHARS = MAX_LINE_CHARS
#: Most entries one line may produce; the rest are dropped and counted.
DEFAULT_MAX_ENTRIES_PER_LINE = MAX_ENTRIES_PER_LINE

#: The session's one door out: each stdout line (as the parser saw it) with its entries,
#: or None with entries that come from no whole line (stderr, host messages, a line cut
#: for length, what the parser held at the end, what a Ctrl-C left).
EntrySink: TypeAlias = Callable[[str | None, list[TranscriptEntry]], None]

#: What :meth:`TranscriptSession.receive` takes: the agent's stdout (parsed line by line),
#: its stderr (one stderr entry a chunk, as the reference host makes it), or a message from
#: the host app itself (one system entry).
Stream: TypeAlias = Literal["stdout", "stderr", "system"]


class TranscriptSession:
    """Turns one run's output into validated TranscriptEntries as it arrives.

    The one door in is :meth:`receive` (``stream``, ``data``, ``ts``): stdout
    as ``str`` or ``bytes`` chunks in any cut (UTF-8 is decoded incrementally
    with replacement; ``\\n`` and ``\\r\\n`` end lines; a partial line waits for
    more data or :meth:`close`), stderr and system text. Lines are trimmed and
    blank ones skipped, as the reference host does. The one door out is the
    ``sink``: each line with its entries, in order. Without a sink the session
    collects the entries itself and each call returns the ones it produced
    (with a sink, calls return ``[]``). ``feed``, ``feed_line``, ``feed_stderr``
    and ``feed_system`` are the same door under the names of 1.x callers.

    ``parser`` may be a :class:`~linewise.stream.detect.Sniffer` instead (what
    ``open_session("auto")`` gives): output is then held back until the first
    lines settle the format (or :meth:`decide` says to stop waiting), and
    :attr:`adapter_type` is ``"auto"`` until then. The safety net and a real
    Ctrl-C: see the module's documentation.
    """

    def __init__(
        self,
        parser: LoadedParser | Sniffer,
        *,
        strict: bool = False,
        hooks: HookRelay | None = None,
        max_line_chars: int = DEFAULT_MAX_LINE_CHARS,
        max_entries_per_line: int = DEFAULT_MAX_ENTRIES_PER_LINE,
        clock: Callable[[], str] = utc_now,
        sink: EntrySink | None = None,
        on_detect: Callable[[Detection], None] | None = None,
    ) -> None:
        if max_line_chars < 1:
            raise ValueError("max_line_chars must be at least 1")
        if max_entries_per_line < 1:
            raise ValueError("max_entries_per_line must be at least 1")
        self._new_net = partial(
            SafetyNet,
            strict=strict,
            hooks=hooks,
            max_line_chars=max_line_chars,
            max_entries=max_entries_per_line,
        )
        self._clock = clock
        # Without a sink of the caller's, entries collect here and each call hands them out.
        self._collected: list[TranscriptEntry] = []
        self._sink: EntrySink = self._collect if sink is None else sink
        self._on_detect = on_detect
        self._reader = LineReader(max_line_chars)
        self._stderr = LineReader(max_line_chars)
        self._closed = False
        self._last_ts: str | None = None
        self.detection: Detection | None = None
        self._hold: Hold | None = None
        self._net: SafetyNet | None = None
        self._driver: LineByLine | None = None
        if isinstance(parser, LoadedParser):
            self.diagnostics = Diagnostics(parser.adapter_type, parser.fallback_reason)
            self._start(parser)
        else:
            self.diagnostics = Diagnostics("auto")
            self._hold = Hold(
                parser,
                self._detected,
                stdout=self._stdout,
                last_line=self._last_line,
                message=self._message,
            )

    @property
    def adapter_type(self) -> str:
        """The adapter type parsing the output (``"auto"`` while it is being detected)."""
        return self.diagnostics.adapter_type

    @property
    def closed(self) -> bool:
        """True after :meth:`close`."""
        return self._closed

    @property
    def sniffed_lines(self) -> int:
        """How many non-blank lines detection has seen so far (0 with a fixed adapter type)."""
        return self._hold.sniffer.lines if self._hold is not None else 0

    @property
    def detecting(self) -> bool:
        """True while output is held back until the format is detected."""
        return self._net is None

    # -- the door in ---------------------------------------------------------

    def receive(
        self, stream: Stream, data: str | bytes, ts: str | None = None
    ) -> list[TranscriptEntry]:
        """What arrived on ``stream`` at ``ts`` (the clock's time when None).

        Stdout is cut into lines and parsed as they complete; a stderr chunk or a
        host message becomes one entry (none if blank). Entries go to the sink;
        without one, the entries this call produced are returned.
        """
        if self._closed:
            raise ValueError("this transcript session is closed")
        stamp = self._clock() if ts is None else ts
        self._last_ts = stamp
        if stream == "stdout":
            pieces = self._reader.feed(data)
            self._take_skipped()
            self._resume(stamp)
            self._stdout(pieces, stamp)
        elif stream in ("stderr", "system"):
            if not isinstance(data, str):
                data = (
                    self._stderr.decode(data)
                    if stream == "stderr"
                    else data.decode("utf-8", "replace")
                )
            if self._hold is not None and self._hold.holding:
                # Stdout waits for detection: what came after it waits too, in order.
                self._hold.message(stream, data, stamp)
            else:
                self._message(stream, data, stamp)
        else:
            raise ValueError(f"unknown stream {stream!r}; expected stdout, stderr or system")
        return self._handed_out()

    def decide(self) -> list[TranscriptEntry]:
        """While detecting: settle the format on what came so far (a caller stopped waiting)."""
        if self._closed:
            raise ValueError("this transcript session is closed")
        if self._hold is not None and self._net is None:
            self._hold.settle()
        return self._handed_out()

    def discard_partial(self) -> str:
        """Drop the unfinished last line (a followed file stopped mid-line) and return it."""
        return self._reader.take_pending()

    def close(self, ts: str | None = None) -> list[TranscriptEntry]:
        """End the stream: the trailing partial line, what the parser held. Idempotent."""
        if self._closed:
            return []
        stamp = ts if ts is not None else (self._last_ts or self._clock())
        self._resume(stamp)
        pieces, partial = self._reader.close()
        self._take_skipped()
        self._stdout(pieces, stamp)
        if partial:
            self._last_line(partial, stamp)
        if self._hold is not None and self._net is None:
            self._hold.settle()
        assert self._net is not None
        self._emit(self._net.finish(stamp))
        # A stderr chunk that ended inside a UTF-8 sequence leaves a replacement char.
        self._message("stderr", self._stderr.flush_block(True), stamp)
        self._closed = True
        return self._handed_out()

    def stop_parsing(self) -> tuple[list[TranscriptEntry], int]:
        """After a real Ctrl-C in the parser: hand out the interrupted call's entries, leave
        the lines read and not parsed unparsed (a hung parser would hang again): their count."""
        left = self._driver.take_leftover() if self._driver is not None else None
        if left is not None:
            self._emit(left.entries)
        unparsed = 0 if left is None else sum(1 for line in left.lines if line.strip())
        return self._handed_out(), unparsed

    # -- the same door, as 1.x callers name it ------------------------------

    def feed(self, chunk: str | bytes, ts: str | None = None) -> list[TranscriptEntry]:
        """``receive("stdout", chunk, ts)``: the entries of the lines the chunk completed."""
        return self.receive("stdout", chunk, ts)

    def feed_line(self, line: str, ts: str | None = None) -> list[TranscriptEntry]:
        """Parse one complete stdout line (it must not contain a newline).

        ``feed_line(x)`` gives what ``receive("stdout", x + "\\n")`` gives.
        """
        if "\n" in line:
            raise ValueError("feed_line() takes one line; use feed() for text with newlines")
        return self.receive("stdout", line + "\n", ts)

    def feed_stderr(self, chunk: str | bytes, ts: str | None = None) -> list[TranscriptEntry]:
        """``receive("stderr", chunk, ts)``: one stderr entry, as the reference host makes it."""
        return self.receive("stderr", chunk, ts)

    def feed_system(self, text: str, ts: str | None = None) -> list[TranscriptEntry]:
        """``receive("system", text, ts)``: a message from the host app itself."""
        return self.receive("system", text, ts)

    # -- internals -----------------------------------------------------------

    def _collect(self, line: str | None, entries: list[TranscriptEntry]) -> None:
        """The sink of a session without one: entries wait for the call to return them."""
        self._collected.extend(entries)

    def _handed_out(self) -> list[TranscriptEntry]:
        """What this call returns: the collected entries (none when a sink took them)."""
        out, self._collected = self._collected, []
        return out

    def _start(self, parser: LoadedParser) -> None:
        self.diagnostics.adapter_type = parser.adapter_type
        self.diagnostics.fallback_reason = parser.fallback_reason
        self._net = net = self._new_net(parser, self.diagnostics)
        self._driver = driver_for(net)

    def _detected(self, detection: Detection) -> None:
        """Detection settled: fix the parser (the hold then replays what it held)."""
        assert self._hold is not None
        self.detection = detection
        self._start(self._hold.sniffer.registry.load(detection.adapter_type))
        if self._on_detect is not None:
            self._on_detect(detection)

    def _take_skipped(self) -> None:
        if self._reader.skipped_chars:
            self.diagnostics.truncated_chars += self._reader.skipped_chars
            self._reader.skipped_chars = 0

    def _stdout(self, pieces: list[str], ts: str) -> None:
        if self._driver is None:
            assert self._hold is not None
            self._hold.stdout(pieces, ts)
        else:  # each line with its entries straight to the sink, no call in between
            self._driver.lines_to(pieces, ts, self._sink)

    def _last_line(self, text: str, ts: str) -> None:
        """The line the stream ended in, without a newline (raw-line parsers see it so)."""
        if self._driver is None:
            assert self._hold is not None
            self._hold.last_line(text, ts)
        else:
            self._driver.last_line_to(text, ts, self._sink)

    def _resume(self, ts: str) -> None:
        """What a Ctrl-C left: the entries not yet handed out, then the lines not yet parsed."""
        if self._driver is None or (left := self._driver.take_leftover()) is None:
            return
        self._emit(left.entries)
        self._stdout(left.lines, ts)

    def _message(self, stream: Message, text: str, ts: str) -> None:
        """Stderr or a host message: one entry, as the reference host makes it (none if blank)."""
        if text.strip():
            self._emit([message_entry(self.diagnostics, stream, text, ts)])

    def _emit(self, entries: list[TranscriptEntry]) -> None:
        """Entries of no whole line to the sink."""
        if entries:
            self._sink(None, entries)


def message_entry(diagnostics: Diagnostics, stream: Message, text: str, ts: str) -> TranscriptEntry:
    """The entry of a stderr chunk or a host message, counted in ``diagnostics``."""
    if stream == "stderr":
        diagnostics.stderr_chunks += 1
    else:
        diagnostics.system_messages += 1
    diagnostics.entries += 1
    return cast("TranscriptEntry", {"kind": stream, "ts": ts, "text": text})


def merge_deltas(entries: Iterable[TranscriptEntry]) -> list[TranscriptEntry]:
    """Merge runs of consecutive ``delta`` entries of the same kind into one entry each.

    The merged entry keeps the first fragment's ``ts`` and ``delta: true``;
    the input entries are not modified. Linear in the total text.
    """
    merged: list[TranscriptEntry] = []
    parts: list[str] = []

    def flush() -> None:
        if len(parts) > 1:
            merged[-1] = cast("TranscriptEntry", {**merged[-1], "text": "".join(parts)})

    for entry in entries:
        fragment = entry.get("delta") is True
        if fragment and parts and merged[-1]["kind"] == entry["kind"]:
            parts.append(cast("str", entry.get("text", "")))
            continue
        flush()
        parts = [cast("str", entry.get("text", ""))] if fragment else []
        merged.append(entry)
    flush()
    return merged
