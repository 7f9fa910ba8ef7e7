"""The whole-run summary of a Hermes Agent run, and the unknown-session classifier."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from linewise_contracts.entries import JsonValue, TranscriptEntry
from linewise_contracts.extract import strip_ansi, truncate
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage

from linewise_hermes.parser import HermesStdoutParser

__all__ = ["is_unknown_session_error", "summarize_run"]

_UNKNOWN_SESSION: Final = re.compile(
    r"session not found"
    r"|unknown session"
    r"|no session (?:found )?with (?:id|title)"
    r"|\bsession\b[^\n]{0,200}?\bnot found\b",
    re.IGNORECASE,
)
# Where the session id is printed: the quiet-mode footer, the interactive
# footer, the resume hint, the resume notice, and the Paperclip adapter's lines.
_SESSION: Final = (
    re.compile(r"^session_id:\s*(\S+)$"),
    re.compile(r"^Session:\s{2,}(\S+)$"),
    re.compile(r"^hermes\s+(?:--resume|-r)\s+(\S+)$"),
    re.compile(r"^↻\s*Resumed session\s+(\S+)"),
    re.compile(r"^\[hermes\] Session(?: resumed)?:\s*(\S+)$"),
)
_RESUMING: Final = re.compile(r"^\[hermes\] Resuming session:\s*(\S+)$")
_STARTING: Final = re.compile(r"^\[hermes\] Starting Hermes Agent \(model=([^,)\s]+)")
_EXIT: Final = re.compile(r"^\[hermes\] Exit code: (-?\d+|null), timed out: (true|false)")
_MESSAGES: Final = re.compile(r"^Messages:\s+(\d+) \((\d+) user, (\d+) tool calls?\)")
_STOP: Final = re.compile(r"^paperclip_stop_reason:\s*(\S+)$")
_STARTED_FRESH: Final = re.compile(r"^Session\s+\S+\s+found but has no messages")
# Usage and cost, as the reference reads them; only the CLI's own lines are read.
_TOKENS: Final = re.compile(
    r"tokens?[:\s]+(\d+)\s*(?:input|in)\b[^\n]{0,80}?(\d+)\s*(?:output|out)\b", re.IGNORECASE
)
_COST: Final = re.compile(r"(?:cost|spent)[:\s]*\$?(\d+(?:\.\d+)?)", re.IGNORECASE)
# Errors kept, and the length of one (a long traceback is cut).
_MAX_ERRORS: Final = 100
_ERROR_LIMIT: Final = 4000
_LOG_LINE: Final = re.compile(r"^\[\d{4}-\d{2}-\d{2}T")
_BENIGN_LOG: Final = re.compile(r"\b(?:INFO|DEBUG|WARN(?:ING)?)\b")
# Lines after which the run has printed its end: footers and the adapter's exit line.
_MESSAGE_LINE: Final = re.compile(r"^(?:\[done\]\s*)?┊\s*(?:\[done\]\s*)?💬")
_ENDING: Final = re.compile(
    r"^(?:session_id:|Messages:\s|Goodbye!|\[hermes\] Exit code:|Resume this session with:)"
)


def is_unknown_session_error(*texts: str) -> bool:
    """True when Hermes could not ``--resume`` the session it was given.

    Matches "Session not found: <id>" (the CLI's resume notice), "unknown
    session" and "no session with id/title" in any of ``texts`` (stdout lines,
    stderr), so a caller can retry with a fresh session.
    """
    return any(_UNKNOWN_SESSION.search(text) for text in texts)


class _Run:
    """What the lines of one Hermes run have said so far."""

    def __init__(self) -> None:
        self.parser = HermesStdoutParser()
        self.session_id: str | None = None
        self.resumed_from: str | None = None
        self.model: str | None = None
        # The answer block being read, and the last one that had text.
        self.block: list[str] | None = None
        self.last_answer = ""
        self.last_message: str | None = None
        self.message_open = False
        # The previous line was an error too: a traceback reads as one error.
        self.error_open = False
        self.errors: list[str] = []
        self.unknown_session = False
        self.usage = Usage()
        self.tokens = TokenUsage()
        self.cost: float | None = None
        self.stop_reason: str | None = None
        self.exit_code: int | None = None
        self.timed_out = False
        self.started_fresh = False
        self.complete = False
        self.tool_calls = 0
        self.tool_errors = 0
        self.reported: dict[str, JsonValue] = {}

    def take(self, raw: str) -> None:
        text = strip_ansi(raw).strip()
        if not text:
            if self.block is not None:
                self.block.append("")  # a paragraph break inside the answer
            return
        entries = self.parser.parse_line(raw.strip(), "")
        kinds: set[str] = {entry["kind"] for entry in entries}
        if kinds == {"assistant"}:
            if self.block is None:
                self.block = []
            self.block.extend(str(entry.get("text", "")).lstrip("\n") for entry in entries)
            self.message_open = False
            return
        self._close_block()
        self._message(text, entries, kinds)
        was_error, self.error_open = self.error_open, False
        for entry in entries:
            kind = entry["kind"]
            if kind == "tool_result":
                self.tool_calls += 1
                self.tool_errors += entry.get("isError") is True
            elif kind in ("system", "stderr"):
                self.unknown_session = self.unknown_session or is_unknown_session_error(text)
                if kind == "stderr" and not (_LOG_LINE.match(text) and _BENIGN_LOG.search(text)):
                    self._error(text, joined=was_error)
        if kinds & {"system", "stderr"}:
            self._cli_line(text)

    def _close_block(self) -> None:
        if self.block is not None:
            answer = "\n".join(self.block).strip()
            self.last_answer = answer or self.last_answer
            self.block = None

    def _message(self, text: str, entries: list[TranscriptEntry], kinds: set[str]) -> None:
        """Follow ``┊ 💬`` messages and the plain lines continuing them."""
        opened = _MESSAGE_LINE.match(text) is not None
        if kinds != {"thinking"} or not (opened or self.message_open):
            self.message_open = False
            return
        part = "\n".join(str(entry.get("text", "")).lstrip("\n") for entry in entries)
        if opened or self.last_message is None:
            self.last_message = part
        else:
            self.last_message += "\n" + part
        self.message_open = True

    def _error(self, text: str, *, joined: bool) -> None:
        if joined and self.errors:
            self.errors[-1] = truncate(self.errors[-1] + "\n" + text, _ERROR_LIMIT)
        elif len(self.errors) < _MAX_ERRORS:
            self.errors.append(truncate(text, _ERROR_LIMIT))
        self.error_open = True

    def _cli_line(self, text: str) -> None:
        if _ENDING.match(text):
            self.complete = True
        for pattern in _SESSION:
            if match := pattern.match(text):
                self.session_id = match.group(1)
                break
        if match := _RESUMING.match(text):
            self.resumed_from = match.group(1)
        elif match := _STARTING.match(text):
            self.model = match.group(1)
        elif match := _EXIT.match(text):
            self.exit_code = None if match.group(1) == "null" else int(match.group(1))
            self.timed_out = match.group(2) == "true"
        elif match := _MESSAGES.match(text):
            self.reported = {
                "messages": int(match.group(1)),
                "userMessages": int(match.group(2)),
                "toolCallsReported": int(match.group(3)),
            }
        elif match := _STOP.match(text):
            self.stop_reason = match.group(1)
        elif _STARTED_FRESH.match(text):
            self.started_fresh = True
        if match := _TOKENS.search(text):
            self.usage = Usage(input_tokens=int(match.group(1)), output_tokens=int(match.group(2)))
            # Hermes prints one input count, with no cache split: counted as uncached input,
            # the cache reads and writes unknown.
            self.tokens = TokenUsage(uncached_input=int(match.group(1)), output=int(match.group(2)))
        if match := _COST.search(text):
            self.cost = float(match.group(1))

    def summary(self) -> RunSummary:
        self._close_block()
        errors = list(self.errors)
        if self.exit_code not in (None, 0):
            errors.append(f"Hermes exited with code {self.exit_code}")
        if self.timed_out:
            errors.append("Hermes timed out")
        is_error = bool(errors)
        outcome = _outcome(self.stop_reason, is_error=is_error, complete=self.complete)
        details: dict[str, JsonValue] = {
            "toolCalls": self.tool_calls,
            "toolErrors": self.tool_errors,
            "exitCode": self.exit_code,
            "timedOut": self.timed_out,
            "resumedFrom": self.resumed_from,
            "resumeStartedFresh": self.started_fresh,
            "maxTurns": self.stop_reason == "max_turns_exhausted",
            "stopReason": self.stop_reason,
            **self.reported,
        }
        resumed = None if self.unknown_session else self.resumed_from
        return RunSummary(
            # Without a footer, a resumed run kept the session it resumed, unless
            # Hermes could not find it.
            session_id=self.session_id or resumed,
            model=self.model,
            usage=self.usage,
            cost_usd=self.cost,
            final_text=self.last_answer or self.last_message,
            outcome=outcome,
            is_error=is_error,
            errors=tuple(errors),
            unknown_session=self.unknown_session,
            turns=None,
            complete=self.complete,
            details=details,
            token_usage=self.tokens,
            cost_source="reported" if self.cost is not None else None,
        )


def _outcome(stop_reason: str | None, *, is_error: bool, complete: bool) -> str | None:
    """How the run ended in the contract's words (the raw stop reason is in ``details``)."""
    if stop_reason == "max_turns_exhausted":
        return "max_turns"
    if is_error:
        return "failed"
    if complete:
        return "completed"
    return "cut_off" if stop_reason is None else None


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """Summarise a whole Hermes run from its stdout (and interleaved stderr) lines.

    The final text is the last block of answer lines (a response box, or the
    plain text quiet mode prints), blank lines inside it kept; when there is
    none, the last ``┊ 💬`` message. The session id comes from the
    ``session_id:`` footer (or the interactive footer, the resume hint, the
    adapter's lines); the model from the Paperclip adapter's start line.
    Hermes prints no usage in its normal output: usage and cost are read from
    the CLI's own lines when a version prints them, else stay zero and None.
    """
    run = _Run()
    for line in lines:
        run.take(line)
    return run.summary()
