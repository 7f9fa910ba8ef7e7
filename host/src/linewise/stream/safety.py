"""The per-line safety net: one parser's lines in, validated copies of its entries out."""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.validation import entry_problem

from linewise.plugins.generic import parse_generic_line
from linewise.plugins.guard import is_plugin_failure
from linewise.plugins.hooks import HookRelay
from linewise.plugins.registry import LoadedParser
from linewise.settings.errors import ParserLineError
from linewise.stream.batching import batch_of
from linewise.stream.copies import (
    OUTPUT_FACTOR,
    OUTPUT_FLOOR,
    copy_container,
    output_budget,
    validated_copies,
)
from linewise.stream.diagnostics import Diagnostics
from linewise.stream.lines import stripped
from linewise.stream.recovery import new_parser, recovered

__all__ = ["SafetyNet"]

_BOM: Final = "\ufeff"


class SafetyNet:
    """Runs one parser over lines, one at a time: anything it raises (but a real Ctrl-C) or
    returns that is not a list of valid entries sends the line through the generic parser,
    is counted in the diagnostics, and resets the parser, which stays in use. Entries handed
    out are validated copies, so a parser that changes them later changes nothing shown.

    How a chunk's lines reach it, and what a Ctrl-C leaves, is a driver's business
    (:mod:`linewise.stream.drivers`)."""

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
        self._max_line = self.max_line = max_line_chars
        self._max_entries = max_entries
        self._use(new_parser(loaded, diagnostics, strict=strict))

    def line(self, raw: str, ts: str, out: list[TranscriptEntry]) -> str:
        """Parse one line into ``out`` (the hot path); the line as the parser saw it."""
        if self.raw:
            line = raw
        else:
            line = raw.strip()
            if line and line[0] == _BOM:
                line = stripped(line)
        diagnostics = self.diagnostics
        if not line:
            diagnostics.blank_lines += 1
            return line
        diagnostics.lines += 1
        if len(line) > self._max_line:
            out.append(self.cut(line, ts))
            return line
        try:
            result = self._parse(line, ts)
        except BaseException as error:
            if not is_plugin_failure(error):
                raise
            out.extend(self._parser_raised(line, ts, error))
            return line
        self.accept(line, ts, result, out)
        return line

    def accept(
        self, line: str, ts: str, result: Any, out: list[TranscriptEntry], *, recover: bool = True
    ) -> None:
        """What the parser made of ``line``: valid copies within budget to ``out``, or fallback.

        ``result`` may be the exception the parser raised (a batch's result);
        ``recover=False`` when the parser has reset itself already.
        """
        diagnostics = self.diagnostics
        if type(result) is not list:  # tested first: a list is the usual result, and cheap to see
            if isinstance(result, BaseException):
                out.extend(self._parser_raised(line, ts, result, recover=recover))
            else:
                why = f"parser returned {type(result).__name__}, not a list"
                out.extend(self._fallback(line, ts, why))
            return
        if not result:
            diagnostics.lines_without_entries += 1
            return
        # The fast path, inline: copies of valid entries within the budget, straight to out.
        if len(result) <= self._max_entries:
            budget = OUTPUT_FACTOR * len(line) + OUTPUT_FLOOR  # output_budget(), inline
            mark = len(out)
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
                            copy[key], cost = copy_container(value, 1)
                            budget -= cost
                if problem(copy) is not None:
                    break
                # out.append itself, not a bound method kept in a local: compiled, that
                # is a direct list append instead of an attribute lookup per line.
                out.append(copy)  # type: ignore[arg-type]
            else:
                if budget >= 0:
                    diagnostics.lines_with_entries += 1
                    diagnostics.entries += len(result)
                    return
            del out[mark:]
        out.extend(self._keep(line, ts, result))

    def _keep(self, line: str, ts: str, result: list[Any]) -> list[TranscriptEntry]:
        """The valid entries within the line's budgets, as copies; the rest dropped and counted."""
        kept = validated_copies(
            result,
            limit=self._max_entries,
            budget=output_budget(line),
            source="one line",
            drop=self.diagnostics.drop,
        )
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
            self.diagnostics.drop(f"finish() returned {type(result).__name__}, not a list")
            return []
        kept = validated_copies(
            result,
            limit=self._max_entries,
            budget=None,
            source="finish()",
            drop=self.diagnostics.drop,
        )
        self.diagnostics.entries += len(kept)
        return kept

    # -- failures --------------------------------------------------------------

    def _use(self, parser: Any) -> None:
        self._parser = self.parser = parser
        self._parse = parser.parse_line
        #: The parser asks for lines exactly as printed (see StdoutParser.raw_lines).
        self.raw = getattr(parser, "raw_lines", False) is True
        #: An isolated parser's batch door (see linewise.stream.batching), else None.
        self.batch = batch_of(self._loaded, parser)

    def cut(self, line: str, ts: str) -> TranscriptEntry:
        diagnostics = self.diagnostics
        diagnostics.truncated_lines += 1
        diagnostics.truncated_chars += len(line) - self._max_line
        diagnostics.lines_with_entries += 1
        diagnostics.entries += 1
        marker = f" … [line cut: longer than {self._max_line} characters]"
        return {"kind": "stdout", "ts": ts, "text": line[: self._max_line] + marker}

    def _fallback(self, line: str, ts: str, problem: str | None) -> list[TranscriptEntry]:
        diagnostics = self.diagnostics
        if problem is not None:
            self.diagnostics.drop(problem)
        diagnostics.fallback_lines += 1
        diagnostics.lines_with_entries += 1
        diagnostics.entries += 1
        return parse_generic_line(line, ts)

    def _record_error(self, line_number: int, line: str, error: BaseException) -> None:
        self.diagnostics.parser_error(line_number, line, error)
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
        fresh = recovered(self._parser, self._loaded, self.diagnostics, strict=self._strict)
        if fresh is not None:
            self._use(fresh)
