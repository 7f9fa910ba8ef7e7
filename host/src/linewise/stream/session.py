"""Transcript sessions: stdout bytes in, validated entries out, with the per-line safety net."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import TYPE_CHECKING, TypeAlias, cast

from linewise_contracts.entries import TranscriptEntry

from linewise.plugins.hooks import HookRelay
from linewise.plugins.registry import LoadedParser
from linewise.settings.clock import utc_now
from linewise.settings.defaults import MAX_ENTRIES_PER_LINE, MAX_LINE_CHARS
from linewise.stream.diagnostics import Diagnostics, LineError
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
    "TranscriptSession",
    "merge_deltas",
]

#: Longest line handed to a parser; longer lines are cut and shown raw (bounds memory).
DEFAULT_MAX_LINE_CHARS = MAX_LINE_CHARS
#: Most entries one line may produce; the rest are dropped and counted.
DEFAULT_MAX_ENTRIES_PER_LINE = MAX_ENTRIES_PER_LINE

#: Where a session with a sink hands its output: each stdout line (as the parser saw it)
#: with its entries, or None with entries that come from no whole line (stderr, host
#: messages, a line cut for length, what the parser held at the end).
EntrySink: TypeAlias = Callable[[str | None, list[TranscriptEntry]], None]


class TranscriptSession:
    """Turns one run's output into validated TranscriptEntries as it arrives.

    Feed stdout as ``str`` or ``bytes`` chunks in any cut (UTF-8 is decoded
    incrementally with replacement; ``\\n`` and ``\\r\\n`` end lines; a partial
    line waits for more data or :meth:`close`), stderr and system text, or
    single lines. Each call returns the entries it produced. Lines are
    trimmed and blank ones skipped, as the reference host does.

    The safety net: a parser exception on a line sends that line through the
    generic parser, is recorded in :attr:`diagnostics`, and resets a stateful
    parser, which stays in use. Every entry is validated; invalid ones are
    dropped and counted, and a line left with no valid entry is shown raw.

    ``parser`` may be a :class:`~linewise.stream.detect.Sniffer` instead (what
    ``open_session("auto")`` gives): output is then held back until the first
    lines settle the format, and :attr:`adapter_type` is ``"auto"`` until then.
    With ``sink``, output goes to it in order instead of being returned.
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
        self._sink = sink
        self._on_detect = on_detect
        self._reader = LineReader(max_line_chars)
        self._stderr = LineReader(max_line_chars)
        self._closed = False
        self._last_ts: str | None = None
        self.detection: Detection | None = None
        self._hold: Hold | None = None
        self._net: SafetyNet | None = None
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

    # -- feeding -------------------------------------------------------------

    def feed(self, chunk: str | bytes, ts: str | None = None) -> list[TranscriptEntry]:
        """Feed a stdout chunk; returns the entries of the lines it completed."""
        self._check_open()
        stamp = self._ts(ts)
        pieces = self._reader.feed(chunk)
        self._take_skipped()
        out = self._resume(stamp)
        self._stdout(pieces, stamp, out)
        return out

    def feed_line(self, line: str, ts: str | None = None) -> list[TranscriptEntry]:
        """Parse one complete stdout line (it must not contain a newline).

        The same door as :meth:`feed`: ``feed_line(x)`` gives what ``feed(x + "\\n")`` gives.
        """
        if "\n" in line:
            raise ValueError("feed_line() takes one line; use feed() for text with newlines")
        net = self._net
        if net is None or net.leftover or self._closed or self._sink or not self._reader.idle:
            return self.feed(line + "\n", ts)
        # Nothing is held anywhere: the reader would hand this very line on.
        out: list[TranscriptEntry] = []
        self._stdout([line], self._ts(ts), out)
        return out

    def feed_stderr(self, chunk: str | bytes, ts: str | None = None) -> list[TranscriptEntry]:
        """Feed a stderr chunk; it becomes one stderr entry, as the reference host does."""
        self._check_open()
        text = chunk if isinstance(chunk, str) else self._stderr.decode(chunk)
        return self._other("stderr", text, self._ts(ts))

    def feed_system(self, text: str, ts: str | None = None) -> list[TranscriptEntry]:
        """Add a message from the host app itself (not from the agent) as a system entry."""
        self._check_open()
        return self._other("system", text, self._ts(ts))

    def decide(self) -> list[TranscriptEntry]:
        """While detecting: settle the format on what came so far (a caller stopped waiting)."""
        self._check_open()
        out: list[TranscriptEntry] = []
        if self._hold is not None and self._net is None:
            self._hold.settle(out)
        return out

    def discard_partial(self) -> str:
        """Drop the unfinished last line (a followed file stopped mid-line) and return it."""
        return self._reader.take_pending()

    def close(self, ts: str | None = None) -> list[TranscriptEntry]:
        """End the stream: parse the trailing partial line, if any. Idempotent."""
        if self._closed:
            return []
        stamp = ts if ts is not None else (self._last_ts or self._clock())
        out = self._resume(stamp)
        pieces, partial = self._reader.close()
        self._take_skipped()
        self._stdout(pieces, stamp, out)
        if partial:
            self._last_line(partial, stamp, out)
        if self._hold is not None and self._net is None:
            self._hold.settle(out)
        assert self._net is not None
        self._emit(None, self._net.finish(stamp), out)
        # A stderr chunk that ended inside a UTF-8 sequence leaves a replacement char.
        self._message("stderr", self._stderr.flush_block(True), stamp, out)
        self._closed = True
        return out

    # -- internals -----------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise ValueError("this transcript session is closed")

    def _ts(self, ts: str | None) -> str:
        stamp = self._clock() if ts is None else ts
        self._last_ts = stamp
        return stamp

    def _start(self, parser: LoadedParser) -> None:
        self.diagnostics.adapter_type = parser.adapter_type
        self.diagnostics.fallback_reason = parser.fallback_reason
        self._net = self._new_net(parser, self.diagnostics)

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

    def _stdout(self, pieces: list[str], ts: str, out: list[TranscriptEntry]) -> None:
        net = self._net
        if net is None:
            assert self._hold is not None
            self._hold.stdout(pieces, ts, out)
            return
        # A real Ctrl-C inside the parser leaves net.leftover: what was parsed, and the
        # lines not parsed yet (the interrupted one first), for the next call or close().
        if self._sink is None:
            net.lines(pieces, ts, out)
        else:  # each line with its entries straight to the sink, no call in between
            net.lines_to(pieces, ts, self._sink)

    def _last_line(self, text: str, ts: str, out: list[TranscriptEntry]) -> None:
        """The line the stream ended in, without a newline (raw-line parsers see it so)."""
        net = self._net
        if net is None:
            assert self._hold is not None
            self._hold.last_line(text, ts, out)
            return
        if self._sink is None:
            net.line(text, ts, out)
        else:
            net.last_line_to(text, ts, self._sink)

    def stop_parsing(self) -> tuple[list[TranscriptEntry], int]:
        """After a real Ctrl-C in the parser: hand out the interrupted call's entries, leave
        the lines read and not parsed unparsed (a hung parser would hang again): their count."""
        left = self._net.take_leftover() if self._net is not None else None
        out: list[TranscriptEntry] = []
        if left is not None and left.entries:
            self._emit(None, left.entries, out)
        return out, 0 if left is None else sum(1 for line in left.lines if line.strip())

    def _resume(self, ts: str) -> list[TranscriptEntry]:
        """What a Ctrl-C left: the entries not yet handed out, the lines not yet parsed."""
        if self._net is None or (left := self._net.take_leftover()) is None:
            return []
        self._stdout(left.lines, ts, left.entries)
        return left.entries

    def _other(self, stream: Message, text: str, ts: str) -> list[TranscriptEntry]:
        out: list[TranscriptEntry] = []
        if self._hold is not None and self._hold.holding:
            # Stdout waits for detection: what came after it waits too, in order.
            self._hold.message(stream, text, ts, out)
        else:
            self._message(stream, text, ts, out)
        return out

    def _message(self, stream: Message, text: str, ts: str, out: list[TranscriptEntry]) -> None:
        """Stderr or a host message: one entry, as the reference host makes it (none if blank)."""
        if text.strip():
            self._emit(None, [message_entry(self.diagnostics, stream, text, ts)], out)

    def _emit(
        self, line: str | None, entries: list[TranscriptEntry], out: list[TranscriptEntry]
    ) -> None:
        if self._sink is None:
            out.extend(entries)
        elif entries or line is not None:
            self._sink(line, entries)


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
