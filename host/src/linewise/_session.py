"""Transcript sessions: stdout bytes in, validated entries out, with the per-line safety net."""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final, cast

from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.validation import entry_problem

from linewise._generic import GenericParser, parse_generic_line
from linewise._hooks import HookRelay
from linewise._registry import LoadedParser
from linewise.errors import ParserLineError

__all__ = [
    "DEFAULT_MAX_ENTRIES_PER_LINE",
    "DEFAULT_MAX_LINE_CHARS",
    "Diagnostics",
    "LineError",
    "TranscriptSession",
    "merge_deltas",
    "utc_now",
]

#: Longest line handed to a parser; longer lines are cut and shown raw (bounds memory).
DEFAULT_MAX_LINE_CHARS: Final = 8 * 1024 * 1024
#: Most entries one line may produce; the rest are dropped and counted.
DEFAULT_MAX_ENTRIES_PER_LINE: Final = 10_000
# Text one line may produce: this many characters per input character, plus a floor.
_OUTPUT_FACTOR: Final = 16
_OUTPUT_FLOOR: Final = 1024 * 1024
_KEPT_ERRORS: Final = 5
_KEPT_REASONS: Final = 50


def utc_now() -> str:
    """The current time as the contract's ``ts``: ISO 8601, UTC, milliseconds, ``Z``."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class LineError:
    """A parser exception on one line (the line went through the generic parser)."""

    line_number: int
    error_type: str
    message: str
    line_preview: str

    def to_json(self) -> dict[str, Any]:
        """A JSON-compatible dict."""
        return {
            "lineNumber": self.line_number,
            "errorType": self.error_type,
            "message": self.message,
            "linePreview": self.line_preview,
        }


@dataclass(slots=True)
class Diagnostics:
    """How a session's input was accounted for.

    Every non-blank stdout line is counted in ``lines`` and ends up either in
    ``lines_with_entries`` or in ``lines_without_entries`` (the parser read it
    and chose to emit nothing), so ``accounted`` always holds.
    ``fallback_lines`` went through the generic parser because the plugin
    raised, returned something that is not a list, or returned no valid entry.
    """

    adapter_type: str
    fallback_reason: str | None = None
    lines: int = 0
    blank_lines: int = 0
    lines_with_entries: int = 0
    lines_without_entries: int = 0
    entries: int = 0
    fallback_lines: int = 0
    parser_errors: int = 0
    first_errors: list[LineError] = field(default_factory=list)
    dropped_entries: int = 0
    drop_reasons: dict[str, int] = field(default_factory=dict)
    truncated_lines: int = 0
    truncated_chars: int = 0
    parser_restarts: int = 0
    stderr_chunks: int = 0
    system_messages: int = 0

    @property
    def accounted(self) -> bool:
        """True when every line is either in ``lines_with_entries`` or ``lines_without_entries``."""
        return self.lines == self.lines_with_entries + self.lines_without_entries

    @property
    def clean(self) -> bool:
        """True when nothing fell back, was dropped or was cut."""
        return not (
            self.fallback_reason
            or self.fallback_lines
            or self.dropped_entries
            or self.truncated_lines
        )

    def summary(self) -> str:
        """One human line: lines, entries, fallbacks, dropped, and what else happened."""
        parts = [
            _count(self.lines, "line"),
            _count(self.entries, "entry", "entries"),
            _count(self.fallback_lines, "fallback"),
            f"{self.dropped_entries} dropped",
        ]
        if self.lines_without_entries:
            parts.append(f"{self.lines_without_entries} without entries")
        if self.blank_lines:
            parts.append(f"{self.blank_lines} blank")
        if self.truncated_lines:
            parts.append(f"{self.truncated_lines} cut (too long)")
        if self.parser_errors:
            parts.append(_count(self.parser_errors, "parser error"))
        return f"{self.adapter_type}: " + ", ".join(parts)

    def to_json(self) -> dict[str, Any]:
        """A JSON-compatible dict (camelCase keys)."""
        return {
            "adapterType": self.adapter_type,
            "fallbackReason": self.fallback_reason,
            "lines": self.lines,
            "blankLines": self.blank_lines,
            "linesWithEntries": self.lines_with_entries,
            "linesWithoutEntries": self.lines_without_entries,
            "entries": self.entries,
            "fallbackLines": self.fallback_lines,
            "parserErrors": self.parser_errors,
            "firstErrors": [error.to_json() for error in self.first_errors],
            "droppedEntries": self.dropped_entries,
            "dropReasons": dict(self.drop_reasons),
            "truncatedLines": self.truncated_lines,
            "truncatedChars": self.truncated_chars,
            "parserRestarts": self.parser_restarts,
            "stderrChunks": self.stderr_chunks,
            "systemMessages": self.system_messages,
            "accounted": self.accounted,
        }


def _count(number: int, singular: str, plural: str | None = None) -> str:
    return f"{number} {singular if number == 1 else plural or singular + 's'}"


def _preview(line: str, limit: int = 200) -> str:
    return line if len(line) <= limit else line[:limit] + "…"


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
    """

    def __init__(
        self,
        parser: LoadedParser,
        *,
        strict: bool = False,
        hooks: HookRelay | None = None,
        max_line_chars: int = DEFAULT_MAX_LINE_CHARS,
        max_entries_per_line: int = DEFAULT_MAX_ENTRIES_PER_LINE,
        clock: Callable[[], str] = utc_now,
    ) -> None:
        if max_line_chars < 1:
            raise ValueError("max_line_chars must be at least 1")
        if max_entries_per_line < 1:
            raise ValueError("max_entries_per_line must be at least 1")
        self.adapter_type = parser.adapter_type
        self.diagnostics = Diagnostics(parser.adapter_type, fallback_reason=parser.fallback_reason)
        self._loaded = parser
        self._strict = strict
        self._hooks = hooks
        self._max_line = max_line_chars
        self._max_entries = max_entries_per_line
        self._clock = clock
        self._parser = self._new_parser()
        self._parse = self._parser.parse_line
        # A parser may ask for lines exactly as printed (see StdoutParser.raw_lines).
        self._raw = getattr(self._parser, "raw_lines", False) is True
        self._stdout_decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._stderr_decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._pending: list[str] = []
        self._pending_chars = 0
        self._discarding = False
        self._started = False
        self._closed = False
        self._last_ts: str | None = None

    # -- feeding -------------------------------------------------------------

    def feed(self, chunk: str | bytes, ts: str | None = None) -> list[TranscriptEntry]:
        """Feed a stdout chunk; returns the entries of the lines it completed."""
        self._check_open()
        if isinstance(chunk, str):
            text = self._stdout_decoder.decode(b"", final=True) + chunk
        else:
            text = self._stdout_decoder.decode(chunk)
        if not self._started and text:
            text = self._start(text)
        return self._split(text, self._ts(ts))

    def feed_line(self, line: str, ts: str | None = None) -> list[TranscriptEntry]:
        """Parse one complete stdout line (it must not contain a newline)."""
        self._check_open()
        if "\n" in line:
            raise ValueError("feed_line() takes one line; use feed() for text with newlines")
        if not self._started and line:
            line = self._start(line)
        out: list[TranscriptEntry] = []
        self._line(line, self._ts(ts), out)
        return out

    def feed_stderr(self, chunk: str | bytes, ts: str | None = None) -> list[TranscriptEntry]:
        """Feed a stderr chunk; it becomes one stderr entry, as the reference host does."""
        self._check_open()
        text = chunk if isinstance(chunk, str) else self._stderr_decoder.decode(chunk)
        if not text.strip():
            return []
        self.diagnostics.stderr_chunks += 1
        self.diagnostics.entries += 1
        return [{"kind": "stderr", "ts": self._ts(ts), "text": text}]

    def feed_system(self, text: str, ts: str | None = None) -> list[TranscriptEntry]:
        """Add a message from the host app itself (not from the agent) as a system entry."""
        self._check_open()
        if not text.strip():
            return []
        self.diagnostics.system_messages += 1
        self.diagnostics.entries += 1
        return [{"kind": "system", "ts": self._ts(ts), "text": text}]

    def close(self, ts: str | None = None) -> list[TranscriptEntry]:
        """End the stream: parse the trailing partial line, if any. Idempotent."""
        if self._closed:
            return []
        stamp = ts if ts is not None else (self._last_ts or self._clock())
        out = self._split(self._stdout_decoder.decode(b"", final=True), stamp)
        if self._pending:
            line = "".join(self._pending)
            self._pending.clear()
            self._pending_chars = 0
            self._line(line, stamp, out)
        self._discarding = False
        out.extend(self._finish(stamp))
        # A stderr chunk that ended inside a UTF-8 sequence leaves a replacement char.
        tail = self._stderr_decoder.decode(b"", final=True)
        if tail.strip():
            self.diagnostics.stderr_chunks += 1
            self.diagnostics.entries += 1
            out.append({"kind": "stderr", "ts": stamp, "text": tail})
        self._closed = True
        return out

    @property
    def closed(self) -> bool:
        """True after :meth:`close`."""
        return self._closed

    # -- internals -----------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise ValueError("this transcript session is closed")

    def _ts(self, ts: str | None) -> str:
        stamp = self._clock() if ts is None else ts
        self._last_ts = stamp
        return stamp

    def _finish(self, ts: str) -> list[TranscriptEntry]:
        """The parser's ``finish(ts)``, if it has one: what it held when the stream ended."""
        finish = getattr(self._parser, "finish", None)
        if not callable(finish):
            return []
        try:
            result = finish(ts)
        except (Exception, SystemExit) as error:
            self._record_error(self.diagnostics.lines, "(end of stream)", error)
            return []
        if type(result) is not list:
            self._drop(f"finish() returned {type(result).__name__}, not a list")
            return []
        kept: list[TranscriptEntry] = []
        for entry in result[: self._max_entries]:
            problem = entry_problem(entry)
            if problem is None:
                kept.append(entry)
            else:
                self._drop(problem)
        if len(result) > self._max_entries:
            self._drop(
                f"more than {self._max_entries} entries from finish()",
                len(result) - self._max_entries,
            )
        self.diagnostics.entries += len(kept)
        return kept

    def _start(self, text: str) -> str:
        # A UTF-8 byte order mark can only open the stream; it is not content.
        self._started = True
        return text[1:] if text[0] == "\ufeff" else text

    def _new_parser(self) -> Any:
        try:
            return self._loaded.new_parser()
        except Exception as error:
            if self._strict:
                raise
            self.diagnostics.fallback_reason = (
                f"{self.adapter_type} parser could not be created: {type(error).__name__}: {error}"
            )
            return GenericParser()

    def _split(self, text: str, ts: str) -> list[TranscriptEntry]:
        out: list[TranscriptEntry] = []
        if not text:
            return out
        # One C-level split per chunk; only the lines are looped over in Python.
        pieces = text.split("\n")
        rest = pieces.pop()
        if pieces:
            first = pieces[0]
            if self._discarding:
                # The end of a line already cut and shown: not a line of its own.
                self.diagnostics.truncated_chars += len(first)
                self._discarding = False
                del pieces[0]
            elif self._pending:
                self._pending.append(first)
                pieces[0] = "".join(self._pending)
                self._pending.clear()
                self._pending_chars = 0
            line = self._line
            if self._raw:
                for piece in pieces:
                    line(piece + "\n", ts, out)
            else:
                for piece in pieces:
                    line(piece, ts, out)
        if rest:
            if self._discarding:
                self.diagnostics.truncated_chars += len(rest)
            else:
                self._pending.append(rest)
                self._pending_chars += len(rest)
                if self._pending_chars > self._max_line:
                    # Cut now rather than wait for a newline that may never come.
                    whole = "".join(self._pending)
                    self._pending.clear()
                    self._pending_chars = 0
                    self._line(whole, ts, out)
                    self._discarding = True
        return out

    def _line(self, raw: str, ts: str, out: list[TranscriptEntry]) -> None:
        line = raw if self._raw else raw.strip()
        diagnostics = self.diagnostics
        if not line:
            diagnostics.blank_lines += 1
            return
        diagnostics.lines += 1
        if len(line) > self._max_line:
            out.extend(self._cut(line, ts))
            return
        try:
            result = self._parse(line, ts)
        except (Exception, SystemExit) as error:
            out.extend(self._parser_raised(line, ts, error))
            return
        if type(result) is not list:
            out.extend(
                self._fallback(line, ts, f"parser returned {type(result).__name__}, not a list")
            )
            return
        if not result:
            diagnostics.lines_without_entries += 1
            return
        if len(result) > self._max_entries:
            out.extend(self._filter(line, ts, result))
            return
        budget = _OUTPUT_FACTOR * len(line) + _OUTPUT_FLOOR
        problem = entry_problem
        for entry in result:
            if problem(entry) is not None:
                out.extend(self._filter(line, ts, result))
                return
            budget -= len(entry.get("text") or entry.get("content") or "")
        if budget < 0:
            out.extend(self._filter(line, ts, result))
            return
        diagnostics.lines_with_entries += 1
        diagnostics.entries += len(result)
        out.extend(result)

    def _cut(self, line: str, ts: str) -> list[TranscriptEntry]:
        diagnostics = self.diagnostics
        diagnostics.truncated_lines += 1
        diagnostics.truncated_chars += len(line) - self._max_line
        diagnostics.lines_with_entries += 1
        diagnostics.entries += 1
        marker = f" … [line cut: longer than {self._max_line} characters]"
        return [{"kind": "stdout", "ts": ts, "text": line[: self._max_line] + marker}]

    def _drop(self, reason: str, count: int = 1) -> None:
        diagnostics = self.diagnostics
        diagnostics.dropped_entries += count
        reasons = diagnostics.drop_reasons
        if reason not in reasons and len(reasons) >= _KEPT_REASONS:
            reason = "other reasons"
        reasons[reason] = reasons.get(reason, 0) + count

    def _filter(self, line: str, ts: str, result: list[Any]) -> list[TranscriptEntry]:
        """The slow path: keep the valid entries within the line's budgets, count the rest."""
        kept: list[TranscriptEntry] = []
        budget = _OUTPUT_FACTOR * len(line) + _OUTPUT_FLOOR
        for index, entry in enumerate(result):
            if index >= self._max_entries:
                self._drop(
                    f"more than {self._max_entries} entries from one line", len(result) - index
                )
                break
            problem = entry_problem(entry)
            if problem is not None:
                self._drop(problem)
                continue
            budget -= len(entry.get("text") or entry.get("content") or "")
            if budget < 0:
                self._drop("entries of one line exceed its text budget")
                continue
            kept.append(entry)
        if not kept:
            return self._fallback(line, ts, None)
        self.diagnostics.lines_with_entries += 1
        self.diagnostics.entries += len(kept)
        return kept

    def _fallback(self, line: str, ts: str, problem: str | None) -> list[TranscriptEntry]:
        diagnostics = self.diagnostics
        if problem is not None:
            self._drop(problem)
        diagnostics.fallback_lines += 1
        diagnostics.lines_with_entries += 1
        diagnostics.entries += 1
        return parse_generic_line(line, ts)

    def _record_error(self, line_number: int, line: str, error: BaseException) -> None:
        diagnostics = self.diagnostics
        diagnostics.parser_errors += 1
        if len(diagnostics.first_errors) < _KEPT_ERRORS:
            diagnostics.first_errors.append(
                LineError(line_number, type(error).__name__, str(error)[:500], _preview(line))
            )
        if self._hooks is not None:
            self._hooks.line_failed(self.adapter_type, line_number, line, error)
        if self._strict:
            raise ParserLineError(self.adapter_type, line_number, line, error) from error

    def _parser_raised(self, line: str, ts: str, error: BaseException) -> list[TranscriptEntry]:
        self._record_error(self.diagnostics.lines, line, error)
        self._recover()
        return self._fallback(line, ts, None)

    def _recover(self) -> None:
        """After an exception: reset the parser; if reset fails too, start a fresh one."""
        try:
            self._parser.reset()
            return
        except Exception:
            pass
        self.diagnostics.parser_restarts += 1
        self._parser = self._new_parser()
        self._parse = self._parser.parse_line
        self._raw = getattr(self._parser, "raw_lines", False) is True


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
