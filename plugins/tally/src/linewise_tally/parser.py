"""Tally agent output to linewise TranscriptEntries (adapter type ``tally_local``).

Tally is a small agent CLI invented for this repository, to show a third-party
plugin made with ``linewise new``. It prints one event per line, each opened
by a marker character::

    @session 7f3a model=tally-2          the session starts
    > I'll run the tests.                 assistant text (consecutive lines: one message)
    ~ the failure is in add()             thinking (consecutive lines: one block)
    $ [1] shell: pytest -q                a tool call, with its id and arguments
    = [1] exit 1 (0.4s): 1 failed\\n2 ok   its result: status, duration, output (\\n escaped)
    ! rate limited, retrying in 2s        a notice from the CLI
    # done in=1200 out=340 cached=800 cost=0.0042
    # error budget exhausted

The stateful parser remembers tool names by id (so results carry them) and
whether the previous line continued a message (so follow-on lines become
deltas joined by newlines).
"""

from __future__ import annotations

import math
import re
from typing import Final

from linewise_contracts.entries import JsonValue, ToolResultEntry, TranscriptEntry
from linewise_contracts.extract import BoundedMap, stdout_entries

# Defined beside the sniff, which detection imports alone.
from linewise_tally.sniff import CALL, MARKERS, SESSION

__all__ = ["CALL", "MARKERS", "SESSION", "TallyParser", "create_stdout_parser", "parse_stdout_line"]

_RESULT: Final = re.compile(r"=\s*\[([^\]]+)\]\s*(ok|exit\s+(-?\d+))(?:\s*\(([^)]*)\))?:?\s?(.*)")
# A field starts where a word starts: without the lookbehind, findall retries
# every position inside a long word and the search turns quadratic.
_FIELD: Final = re.compile(r"(?<!\w)(\w+)=(\S+)")


def _number(text: str | None) -> float:
    try:
        value = float(text) if text is not None else 0.0
    except ValueError:
        return 0.0
    return value if math.isfinite(value) else 0.0


def _tool_id(raw: str) -> str:
    return f"tally-{raw.strip()}"


class TallyParser:
    """One transcript's Tally parser."""

    __slots__ = ("_continuing", "_names")

    def __init__(self) -> None:
        # Tool names by id; bounded, so a long run cannot grow it forever.
        self._names: BoundedMap[str, str] = BoundedMap()
        self._continuing: str | None = None  # "assistant" or "thinking" after such a line

    def reset(self) -> None:
        self._names.clear()
        self._continuing = None

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        text = line.strip()
        marker = text[:1]
        if marker in (">", "~"):
            kind = "assistant" if marker == ">" else "thinking"
            body = text[1:].strip()
            joined = "\n" + body if self._continuing == kind else body
            self._continuing = kind
            if kind == "assistant":
                return [{"kind": "assistant", "ts": ts, "text": joined, "delta": True}]
            return [{"kind": "thinking", "ts": ts, "text": joined, "delta": True}]
        self._continuing = None
        if text.startswith("@session"):
            match = SESSION.match(text)
            if match:
                model = match.group(2) or "unknown"
                return [{"kind": "init", "ts": ts, "model": model, "sessionId": match.group(1)}]
        elif marker == "$":
            match = CALL.match(text)
            if match:
                ident, name, arguments = _tool_id(match.group(1)), match.group(2), match.group(3)
                self._names[ident] = name
                call_input: JsonValue = {"args": arguments}
                return [
                    {
                        "kind": "tool_call",
                        "ts": ts,
                        "name": name,
                        "input": call_input,
                        "toolUseId": ident,
                    }
                ]
        elif marker == "=":
            match = _RESULT.match(text)
            if match:
                ident = _tool_id(match.group(1))
                code = match.group(3)
                duration = match.group(4)
                output = match.group(5).replace("\\n", "\n")
                status = "ok" if code is None else f"exit {code}"
                content = f"{status} ({duration})" if duration else status
                result: ToolResultEntry = {
                    "kind": "tool_result",
                    "ts": ts,
                    "toolUseId": ident,
                    "content": f"{content}\n{output}" if output else content,
                    "isError": code is not None and code != "0",
                }
                if ident in self._names:
                    result["toolName"] = self._names[ident]
                return [result]
        elif marker == "!":
            return [{"kind": "system", "ts": ts, "text": text[1:].strip()}]
        elif marker == "#":
            return [_result(text[1:].strip(), ts)]
        return stdout_entries(line, ts)


def _result(body: str, ts: str) -> TranscriptEntry:
    fields = dict(_FIELD.findall(body))
    failed = body.startswith("error")
    return {
        "kind": "result",
        "ts": ts,
        "text": body[len("error") :].strip() if failed else "",
        "inputTokens": _number(fields.get("in")),
        "outputTokens": _number(fields.get("out")),
        "cachedTokens": _number(fields.get("cached")),
        "costUsd": _number(fields.get("cost")),
        "subtype": "error" if failed else "success",
        "isError": failed,
        "errors": [body[len("error") :].strip()] if failed else [],
    }


def create_stdout_parser() -> TallyParser:
    """A fresh parser for one transcript."""
    return TallyParser()


def parse_stdout_line(line: str, ts: str) -> list[TranscriptEntry]:
    """One line on its own (results lack the tool name; every message line stands alone)."""
    return TallyParser().parse_line(line, ts)
