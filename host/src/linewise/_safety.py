"""The per-line safety net: one parser's lines in, validated copies of its entries out."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Any, Final

from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.validation import MAX_JSON_DEPTH, entry_problem

from linewise._diagnostics import Diagnostics, LineError, preview
from linewise._generic import GenericParser, parse_generic_line
from linewise._guard import is_plugin_failure
from linewise._hooks import HookRelay
from linewise._lines import stripped
from linewise._registry import LoadedParser
from linewise.errors import ParserLineError

__all__ = ["LineSink", "SafetyNet"]

#: Called with each stdout line (stripped, or as printed for a raw-line parser) and its entries.
LineSink = Callable[[str, list[TranscriptEntry]], None]

# Text one line may produce: this many characters per input character, plus a floor.
_OUTPUT_FACTOR: Final = 16
_OUTPUT_FLOOR: Final = 1024 * 1024
_KEPT_ERRORS: Final = 5
_KEPT_REASONS: Final = 50
_BOM: Final = "\ufeff"
_SCALAR_SIZE: Final = 8


def _copy(value: Any, depth: int) -> tuple[Any, int]:
    """A copy of a JSON-shaped container the parser cannot reach any more, and its size.

    Containers deeper than the contract allows are left as they are: validation refuses them.
    """
    if depth > MAX_JSON_DEPTH:
        return value, 0
    size = 0
    if type(value) is dict:
        copied: dict[Any, Any] = {}
        for key, item in value.items():
            kind = type(item)
            if kind is str:
                size += len(item)
            elif kind is dict or kind is list:
                item, cost = _copy(item, depth + 1)  # noqa: PLW2901 - the copy replaces it
                size += cost
            else:
                size += _SCALAR_SIZE
            copied[key] = item
            size += len(key) if type(key) is str else _SCALAR_SIZE
        return copied, size
    items: list[Any] = []
    for item in value:
        kind = type(item)
        if kind is str:
            size += len(item)
        elif kind is dict or kind is list:
            item, cost = _copy(item, depth + 1)  # noqa: PLW2901 - the copy replaces it
            size += cost
        else:
            size += _SCALAR_SIZE
        items.append(item)
    return items, size


def _snapshot(entry: Any) -> tuple[Any, int]:
    """A copy of an entry and the characters it costs (flat entries take the fast path)."""
    if type(entry) is not dict:
        return entry, 0
    copied = entry.copy()
    size = 0
    for key, value in copied.items():
        kind = type(value)
        if kind is str:
            size += len(value)
        elif kind is dict or kind is list:
            copied[key], cost = _copy(value, 1)
            size += cost
        else:
            size += _SCALAR_SIZE
    return copied, size


class SafetyNet:
    """Runs one parser over lines: anything it raises (but a real Ctrl-C) or returns that is
    not a list of valid entries sends the line through the generic parser, is counted in
    the diagnostics, and resets the parser, which stays in use. Entries handed out are
    validated copies, so a parser that changes them later changes nothing shown."""

    def __init__(
        self,
        loaded: LoadedParser,
        diagnostics: Diagnostics,
        *,
        strict: bool,
        hooks: HookRelay | None,
        max_line_chars: int,
        max_entries: int,
    ) -> None:
        self.adapter_type = loaded.adapter_type
        self.diagnostics = diagnostics
        self._loaded = loaded
        self._strict = strict
        self._hooks = hooks
        self._max_line = max_line_chars
        self._max_entries = max_entries
        self._parser = self._new_parser()
        self._parse = self._parser.parse_line
        #: The parser asks for lines exactly as printed (see StdoutParser.raw_lines).
        self.raw = getattr(self._parser, "raw_lines", False) is True
        self._batch = _batch_of(self._parser)
        self._restarts_seen = 0
        self._unparsed: list[str] = []

    def lines(self, pieces: list[str], ts: str, out: list[TranscriptEntry]) -> None:
        """Parse whole lines (without their ``\\n``) into ``out``."""
        if self._batch is not None:
            for _, entries in self._batched(pieces, ts):
                out.extend(entries)
            return
        line = self.line
        diagnostics = self.diagnostics
        before = diagnostics.lines + diagnostics.blank_lines
        try:
            if self.raw:
                for piece in pieces:
                    line(piece + "\n", ts, out)
            else:
                for piece in pieces:
                    line(piece, ts, out)
        except KeyboardInterrupt:
            self._interrupted(pieces, before)
            raise

    def _interrupted(self, pieces: list[str], before: int) -> None:
        # Each line is counted before it is parsed: the interrupted one is counted already.
        diagnostics = self.diagnostics
        started = diagnostics.lines + diagnostics.blank_lines - before
        diagnostics.lines -= 1
        self._unparsed = pieces[max(started - 1, 0) :]

    def take_unparsed(self) -> list[str]:
        """After a Ctrl-C inside the parser: the lines not parsed yet, the interrupted one first."""
        pieces, self._unparsed = self._unparsed, []
        return pieces

    def lines_to(self, pieces: list[str], ts: str, sink: LineSink) -> None:
        """Parse whole lines, handing each non-blank one to ``sink`` with its entries."""
        if self._batch is not None:
            for raw, entries in self._batched(pieces, ts):
                if self.raw:
                    sink(raw, entries)
                elif entries or raw.strip():
                    sink(stripped(raw), entries)
            return
        for index, piece in enumerate(pieces):
            raw = piece + "\n" if self.raw else piece
            out: list[TranscriptEntry] = []
            try:
                self.line(raw, ts, out)
            except KeyboardInterrupt:
                self.diagnostics.lines -= 1
                self._unparsed = pieces[index:]
                raise
            if self.raw:
                sink(raw, out)
            elif out or raw.strip():
                sink(stripped(raw), out)

    def _batched(self, pieces: list[str], ts: str) -> list[tuple[str, list[TranscriptEntry]]]:
        """A parser that takes lines in batches (an isolated one): each line with its entries.

        The same accounting as :meth:`line`, one call for the batch, each
        line's result taken as it arrives; the parser has reset itself after a
        line that raised, so the net does not again.
        """
        assert self._batch is not None
        raws = [piece + "\n" for piece in pieces] if self.raw else pieces
        prepared = [self._prepare(raw) for raw in raws]
        sent = [line for line in prepared if line is not None and len(line) <= self._max_line]
        results = self._batch(sent, ts) if sent else iter(())
        done: list[tuple[str, list[TranscriptEntry]]] = []
        try:
            for raw, line in zip(raws, prepared, strict=True):
                out: list[TranscriptEntry] = []
                if line is not None:
                    if len(line) > self._max_line:
                        out.append(self._cut(line, ts))
                    else:
                        self._accept(line, ts, next(results), out, recover=False)
                done.append((raw, out))
        except KeyboardInterrupt:
            left = prepared[len(done) :]
            blank = left.count(None)
            self.diagnostics.lines -= len(left) - blank
            self.diagnostics.blank_lines -= blank
            self._unparsed = list(pieces[len(done) :])
            raise
        restarts = getattr(self._parser, "restarts", 0)
        if type(restarts) is int and restarts > self._restarts_seen:
            self.diagnostics.parser_restarts += restarts - self._restarts_seen
            self._restarts_seen = restarts
        return done

    def _prepare(self, raw: str) -> str | None:
        """The line the parser gets (counted), or None for a blank line (counted as blank)."""
        if self.raw:
            line = raw
        else:
            line = raw.strip()
            if line and line[0] == _BOM:
                line = stripped(line)
        if not line:
            self.diagnostics.blank_lines += 1
            return None
        self.diagnostics.lines += 1
        return line

    def line(self, raw: str, ts: str, out: list[TranscriptEntry]) -> None:
        """Parse one line into ``out`` (the hot path)."""
        if self.raw:
            line = raw
        else:
            line = raw.strip()
            if line and line[0] == _BOM:
                line = stripped(line)
        diagnostics = self.diagnostics
        if not line:
            diagnostics.blank_lines += 1
            return
        diagnostics.lines += 1
        if len(line) > self._max_line:
            out.append(self._cut(line, ts))
            return
        try:
            result = self._parse(line, ts)
        except BaseException as error:
            if not is_plugin_failure(error):
                raise
            out.extend(self._parser_raised(line, ts, error))
            return
        self._accept(line, ts, result, out)

    def _accept(
        self, line: str, ts: str, result: Any, out: list[TranscriptEntry], *, recover: bool = True
    ) -> None:
        """What the parser made of ``line``: valid copies within budget to ``out``, or fallback."""
        diagnostics = self.diagnostics
        if isinstance(result, BaseException):
            out.extend(self._parser_raised(line, ts, result, recover=recover))
            return
        if type(result) is not list:
            out.extend(
                self._fallback(line, ts, f"parser returned {type(result).__name__}, not a list")
            )
            return
        if not result:
            diagnostics.lines_without_entries += 1
            return
        # The fast path, inline: copies of valid entries within the budget, straight to out.
        if len(result) <= self._max_entries:
            budget = _OUTPUT_FACTOR * len(line) + _OUTPUT_FLOOR
            mark = len(out)
            append = out.append
            problem = entry_problem
            for entry in result:
                if type(entry) is not dict:
                    break
                copy = entry.copy()
                text = copy.get("text")
                if len(copy) <= 4 and type(text) is str and copy.get("ts") is ts:
                    # A text entry stamped as asked: no container to copy, only its text counts.
                    budget -= len(text)
                else:
                    for key, value in copy.items():
                        if type(value) is str:
                            budget -= len(value)
                        elif type(value) is dict or type(value) is list:
                            copy[key], cost = _copy(value, 1)
                            budget -= cost
                if problem(copy) is not None:
                    break
                append(copy)  # type: ignore[arg-type]
            else:
                if budget >= 0:
                    diagnostics.lines_with_entries += 1
                    diagnostics.entries += len(result)
                    return
            del out[mark:]
        out.extend(self._keep(line, ts, result))

    def _keep(self, line: str, ts: str, result: list[Any]) -> list[TranscriptEntry]:
        """The valid entries within the line's budgets, as copies; the rest dropped and counted."""
        kept: list[TranscriptEntry] = []
        budget = _OUTPUT_FACTOR * len(line) + _OUTPUT_FLOOR
        for index, original in enumerate(result):
            if index >= self._max_entries:
                self._drop(
                    f"more than {self._max_entries} entries from one line", len(result) - index
                )
                break
            entry, size = _snapshot(original)
            problem = entry_problem(entry)
            if problem is not None:
                self._drop(problem)
                continue
            budget -= size
            if budget < 0:
                self._drop("entries of one line exceed its output budget")
                continue
            kept.append(entry)
        if not kept:
            return self._fallback(line, ts, None)
        self.diagnostics.lines_with_entries += 1
        self.diagnostics.entries += len(kept)
        return kept

    def finish(self, ts: str) -> list[TranscriptEntry]:
        """The parser's ``finish(ts)``, if it has one: what it held when the stream ended."""
        finish = getattr(self._parser, "finish", None)
        if not callable(finish):
            return []
        try:
            result = finish(ts)
        except BaseException as error:
            if not is_plugin_failure(error):
                raise
            self._record_error(self.diagnostics.lines, "(end of stream)", error)
            return []
        if type(result) is not list:
            self._drop(f"finish() returned {type(result).__name__}, not a list")
            return []
        kept: list[TranscriptEntry] = []
        for index, original in enumerate(result):
            if index >= self._max_entries:
                self._drop(
                    f"more than {self._max_entries} entries from finish()", len(result) - index
                )
                break
            entry, _ = _snapshot(original)
            problem = entry_problem(entry)
            if problem is None:
                kept.append(entry)
            else:
                self._drop(problem)
        self.diagnostics.entries += len(kept)
        return kept

    # -- failures --------------------------------------------------------------

    def _new_parser(self) -> Any:
        try:
            return self._loaded.new_parser()
        except BaseException as error:
            if not is_plugin_failure(error):
                raise
            if self._strict:
                raise
            self.diagnostics.fallback_reason = (
                f"{self.adapter_type} parser could not be created: {type(error).__name__}: {error}"
            )
            return GenericParser()

    def _cut(self, line: str, ts: str) -> TranscriptEntry:
        diagnostics = self.diagnostics
        diagnostics.truncated_lines += 1
        diagnostics.truncated_chars += len(line) - self._max_line
        diagnostics.lines_with_entries += 1
        diagnostics.entries += 1
        marker = f" … [line cut: longer than {self._max_line} characters]"
        return {"kind": "stdout", "ts": ts, "text": line[: self._max_line] + marker}

    def _drop(self, reason: str, count: int = 1) -> None:
        diagnostics = self.diagnostics
        diagnostics.dropped_entries += count
        reasons = diagnostics.drop_reasons
        if reason not in reasons and len(reasons) >= _KEPT_REASONS:
            reason = "other reasons"
        reasons[reason] = reasons.get(reason, 0) + count

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
                LineError(line_number, type(error).__name__, _message(error), preview(line))
            )
        if self._hooks is not None:
            self._hooks.line_failed(self.adapter_type, line_number, line, error)
        if self._strict:
            raise ParserLineError(self.adapter_type, line_number, line, error) from error

    def _parser_raised(
        self, line: str, ts: str, error: BaseException, *, recover: bool = True
    ) -> list[TranscriptEntry]:
        self._record_error(self.diagnostics.lines, line, error)
        if recover:
            self._recover()
        return self._fallback(line, ts, None)

    def _recover(self) -> None:
        """After an exception: reset the parser; if reset fails too, start a fresh one."""
        try:
            self._parser.reset()
            return
        except BaseException as error:
            if not is_plugin_failure(error):
                raise
        self.diagnostics.parser_restarts += 1
        self._parser = self._new_parser()
        self._parse = self._parser.parse_line
        self.raw = getattr(self._parser, "raw_lines", False) is True
        self._batch = _batch_of(self._parser)


def _batch_of(parser: object) -> Callable[[list[str], str], Iterator[Any]] | None:
    """The host's own batch door of an isolated parser; None for a plugin's parser.

    Only :class:`~linewise._isolation._parser.IsolatedParser` (host code) is
    trusted with it: a plugin's object with a ``parse_batch`` attribute gets
    the ordinary per-line path.
    """
    module = sys.modules.get("linewise._isolation._parser")
    if module is None or type(parser) is not module.IsolatedParser:
        return None
    return parser.parse_batch  # type: ignore[attr-defined, no-any-return]


def _message(error: BaseException) -> str:
    try:
        return str(error)[:500]
    except Exception as problem:
        return f"(message unavailable: {type(problem).__name__})"
