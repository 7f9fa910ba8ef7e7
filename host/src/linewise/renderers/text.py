"""The text format's default style: a coloured kind label, then the text with a hanging indent."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import IO, Any, Final, assert_never

from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.extract import to_json_text
from linewise_contracts.summary import RunSummary

from linewise.renderers.colours import paint
from linewise.renderers.nesting import Subagents
from linewise.renderers.outcome import (
    result_failed,
    result_label,
    result_usage,
    summary_failed,
    summary_outcome,
    summary_usage,
)
from linewise.renderers.preview import tool_preview
from linewise.renderers.sanitising import neutralize

__all__ = ["MAX_PENDING_CALLS", "TextRenderer"]

_LABEL_WIDTH: Final = 12
_INDENT: Final = " " * _LABEL_WIDTH
_INPUT_PREVIEW: Final = 400
_RESULT_LINES: Final = 12
_LINK_PREVIEW: Final = 60
_FOLDED: Final = "⋯ (hidden; --thinking shows it)"
#: Width assumed when the output is not a terminal (a file or a pipe).
DEFAULT_WIDTH: Final = 160
#: Nesting marker drawn once per subagent level.
_NEST: Final = "  │ "
#: Unanswered tool calls remembered for pairing; the oldest is forgotten first.
MAX_PENDING_CALLS: Final = 1024
_UNANSWERED_SHOWN: Final = 10


@dataclass(frozen=True, slots=True)
class _Call:
    number: int
    name: str
    preview: str  # the call's most identifying argument, short and neutralised


def _terminal_width(stream: IO[str]) -> int:
    try:
        columns = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):
        return DEFAULT_WIDTH
    return columns if columns > 0 else DEFAULT_WIDTH


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.strip().encode("utf-8", "surrogatepass"), digest_size=16).digest()


class _Nested:
    """A text stream that starts every line with the current nesting prefix."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.prefix = ""
        self._at_start = True

    def write(self, text: str) -> None:
        if not text:
            return
        if self.prefix:
            lead = self.prefix if self._at_start else ""
            body = text[:-1] if text.endswith("\n") else text
            text = lead + body.replace("\n", "\n" + self.prefix) + text[len(body) :]
        self.stream.write(text)
        self._at_start = text.endswith("\n")


class TextRenderer:
    """The default terminal style: one labelled block per entry, tool calls paired with results.

    Grouping while streaming. A tool call is drawn the moment it arrives and
    numbered ``#1``, ``#2``, ... A result is matched to its call by
    ``toolUseId`` only, never by position. A result drawn directly under its
    call is visibly that call's; when anything came in between its header links
    back: ``← #3 main.go``. Calls still unanswered at :meth:`close` are listed.
    Only unanswered calls are remembered (at most :data:`MAX_PENDING_CALLS`).

    Subagents: entries with a ``parentToolUseId`` are indented under a ``│``
    bar per level, after a line naming the call that started them
    (``⤷ #3 Explore: map the tests``); the call line itself names the subagent.

    Consecutive delta fragments of one kind continue one block. Thinking is
    folded unless ``thinking`` is set. All agent text is neutralised. Unless
    ``full`` is set, tool input, tool output, system and raw output lines longer
    than the terminal's width (``width``; :data:`DEFAULT_WIDTH` off a terminal)
    are cut with a note of what was hidden, and long outputs keep their first
    lines; prose (assistant, user, thinking) is left for the terminal to wrap.
    """

    def __init__(
        self,
        stream: IO[str],
        *,
        color: bool = False,
        full: bool = False,
        thinking: bool = False,
        width: int | None = None,
    ) -> None:
        self._out = _Nested(stream)
        self._color = color
        self._full = full
        self._thinking = thinking
        self._width = max(width or _terminal_width(stream), 40)
        # "assistant" / "thinking": a delta block still being written (no newline yet);
        # "folded": a thinking marker already drawn for the current run of thinking.
        self._open: str | None = None
        self._calls: dict[str, _Call] = {}
        self._numbered = 0
        self._last_call: str | None = None  # id of a call drawn last, nothing after it
        self._subagents = Subagents()
        self._parent: str | None = None  # the parentToolUseId of the entry drawn last
        self._last_assistant: bytes | None = None

    # -- drawing helpers -----------------------------------------------------

    def _paint(self, text: str, role: str | None) -> str:
        return paint(text, role, self._color)

    def _label(self, label: str, role: str) -> str:
        return self._paint(label.ljust(_LABEL_WIDTH), role)

    def _body(self, text: str, role: str | None = None) -> str:
        return self._paint(neutralize(text).replace("\n", "\n" + _INDENT), role)

    def _block(self, label: str, role: str, text: str, body_role: str | None = None) -> None:
        self._out.write(self._label(label, role) + self._body(text, body_role) + "\n")

    def _end_open(self) -> None:
        if self._open in ("assistant", "thinking"):
            self._out.write("\n")
        self._open = None

    def _cut_lines(self, text: str) -> str:
        """Each line at most the room the terminal has beside the label, with what was hidden."""
        if self._full:
            return text
        room = max(self._width - _LABEL_WIDTH - len(self._out.prefix), 30)
        if all(len(line) <= room for line in text.split("\n")):
            return text
        lines = []
        for line in text.split("\n"):
            hidden = len(line) - room
            lines.append(
                f"{line[:room]}… ({hidden:,} more characters; --full shows all)"
                if hidden > 0
                else line
            )
        return "\n".join(lines)

    def _shorten_lines(self, text: str) -> str:
        if self._full:
            return text
        lines = text.split("\n", _RESULT_LINES)
        if len(lines) > _RESULT_LINES:
            hidden = lines[-1].count("\n") + 1
            more = f"{hidden} more line" + ("s" if hidden > 1 else "")
            text = "\n".join(lines[:_RESULT_LINES]) + f"\n… {more} (--full shows all)"
        return self._cut_lines(text)

    # -- nesting ---------------------------------------------------------------

    def _enter(self, entry: Mapping[str, Any]) -> None:
        """Indent for the entry's subagent, naming the subagent when it changes."""
        parent = entry.get("parentToolUseId")
        parent = parent if isinstance(parent, str) and parent else None
        if parent == self._parent:
            return
        self._end_open()
        self._parent = parent
        agent = self._subagents.parent(entry)
        if agent is None:
            self._out.prefix = ""
            return
        self._out.prefix = _NEST * agent.depth
        self._out.write(self._paint(f"⤷ {self._agent_name(agent.number, agent.label)}", "muted"))
        self._out.write("\n")
        self._out.prefix = _NEST * (agent.depth + 1)

    @staticmethod
    def _agent_name(number: int, label: str) -> str:
        return f"#{number} {neutralize(label)}" if number else neutralize(label)

    # -- entries ---------------------------------------------------------------

    def write(self, entry: TranscriptEntry) -> None:
        """Draw one entry (a delta fragment continues the block it belongs to)."""
        self._enter(entry)
        item: Mapping[str, Any] = entry
        after_call, self._last_call = self._last_call, None
        kind = entry["kind"]
        match kind:
            case "thinking" if not self._thinking:
                self._fold()
            case "assistant" | "thinking" if item.get("delta") is True:
                self._fragment(kind, item["text"])
            case "assistant":
                self._end_open()
                self._last_assistant = _digest(item["text"])
                self._block("assistant", "assistant", item["text"], body_role="assistant")
            case "thinking":
                self._end_open()
                self._block("thinking", "input", item["text"], body_role="thinking")
            case "user":
                self._end_open()
                self._block("user", "user", item["text"])
            case "init":
                self._end_open()
                self._write_init(item)
            case "system":
                self._end_open()
                self._block("system", "lifecycle", self._cut_lines(item["text"]), "lifecycle")
            case "stderr":
                self._end_open()
                text = self._cut_lines(item["text"].rstrip("\n"))
                self._block("stderr", "error", text, body_role="error")
            case "stdout":
                self._end_open()
                self._block("stdout", "input", self._cut_lines(item["text"]))
            case "tool_call":
                self._end_open()
                self._write_tool_call(item)
            case "tool_result":
                self._end_open()
                self._write_tool_result(item, after_call)
            case "result":
                self._end_open()
                self._write_result(item)
            case "diff":
                self._end_open()
                self._write_diff(item)
            case _:
                assert_never(kind)

    def _fold(self) -> None:
        if self._open == "folded":
            return  # one marker for a whole run of thinking
        self._end_open()
        self._out.write(self._label("thinking", "input") + self._paint(_FOLDED, "thinking") + "\n")
        self._open = "folded"

    def _fragment(self, kind: str, text: str) -> None:
        role = "assistant" if kind == "assistant" else "thinking"
        if self._open != kind:
            self._end_open()
            self._out.write(self._label(kind, "assistant" if kind == "assistant" else "input"))
            self._open = kind
        self._out.write(self._body(text, role))

    def _write_init(self, entry: Mapping[str, Any]) -> None:
        model = entry["model"] or "not reported"
        text = f"model {model} · session {entry['sessionId'] or 'not reported'}"
        self._block("init", "lifecycle", text, body_role="lifecycle")

    def _write_tool_call(self, entry: Mapping[str, Any]) -> None:
        self._numbered += 1
        number = self._numbered
        name = neutralize(entry["name"])
        ident = entry.get("toolUseId")
        head = self._label("tool_call", "tool") + self._paint(f"#{number} {name}", "tool_name")
        agent = self._subagents.called(entry, number)
        if agent is not None:
            head += self._paint(f"  subagent {neutralize(agent.label)}", "tool")
        if ident:
            head += self._paint(f"  [{neutralize(ident)}]", "muted")
            preview = tool_preview(entry["input"], _LINK_PREVIEW)
            link = neutralize(preview.short()) if preview else ""
            self._remember(ident, _Call(number, name, link))
        self._out.write(head + "\n")
        if entry["input"] not in ({}, [], None, ""):
            arguments = to_json_text(entry["input"])  # compact: its size follows the input's
            if not self._full and len(arguments) > _INPUT_PREVIEW:
                arguments = arguments[:_INPUT_PREVIEW] + f"… ({len(arguments)} chars)"
            self._out.write(_INDENT + self._body(arguments, "input") + "\n")
        self._last_call = ident

    def _remember(self, ident: str, call: _Call) -> None:
        calls = self._calls
        calls.pop(ident, None)  # a reused id: the newest call owns it
        calls[ident] = call
        if len(calls) > MAX_PENDING_CALLS:
            del calls[next(iter(calls))]

    def _write_tool_result(self, entry: Mapping[str, Any], after_call: str | None) -> None:
        ident = entry["toolUseId"]
        call = self._calls.pop(ident, None)
        error = entry["isError"]
        role = "error" if error else "result"
        name = entry.get("toolName") or (call.name if call else "")
        head = f"{'error' if error else 'ok'}{' · ' + name if name else ''}  [{ident}]"
        line = self._label("tool_result", role) + self._paint(neutralize(head), role)
        if call is not None and ident != after_call:
            link = f"  ← #{call.number} {call.preview}" if call.preview else f"  ← #{call.number}"
            line += self._paint(link, "muted")
        self._out.write(line + "\n")
        content = self._shorten_lines(entry["content"].rstrip())
        if content:
            self._out.write(_INDENT + self._body(content, "error" if error else None) + "\n")

    def _write_result(self, entry: Mapping[str, Any]) -> None:
        failed = result_failed(entry)
        role = "error" if failed else "assistant"
        head = f"{'failed' if failed else 'finished'} · {result_label(entry)}"
        parts = [self._body(head, role), self._body(result_usage(entry), "lifecycle")]
        text: str = entry["text"]
        if text.strip():
            if self._last_assistant is not None and self._last_assistant == _digest(text):
                parts.append(self._body("final message: the assistant message above", "muted"))
            else:
                parts.append(self._body(self._shorten_lines(text)))
        parts.extend(self._body(f"error: {message}", "error") for message in entry["errors"])
        label = self._label("result", role)
        self._out.write(label + ("\n" + _INDENT).join(parts) + "\n")

    def _write_diff(self, entry: Mapping[str, Any]) -> None:
        change = entry["changeType"]
        role = {"add": "assistant", "remove": "error", "hunk": "result", "file_header": "emphasis"}
        text = entry["text"]
        # Plugins usually keep the unified-diff marker in the text; add it only when missing.
        marker = {"add": "+", "remove": "-"}.get(change)
        if marker and not text.startswith(marker):
            text = f"{marker} {text}"
        self._block("diff", role.get(change, "input"), self._cut_lines(text))

    def close(self, *, summary: RunSummary | None = None) -> None:
        """End an open block, list calls that never got a result, the run's summary; flush."""
        self._end_open()
        self._out.prefix = ""
        self._parent = None
        if self._calls:
            calls = list(self._calls.values())
            shown = ", ".join(f"#{call.number} {call.name}" for call in calls[:_UNANSWERED_SHOWN])
            if len(calls) > _UNANSWERED_SHOWN:
                shown += f" and {len(calls) - _UNANSWERED_SHOWN} more"
            self._block("unanswered", "muted", f"no result for {shown}", body_role="muted")
            self._calls.clear()
        if summary is not None:
            self._write_summary(summary)
        self._out.stream.flush()

    def _write_summary(self, summary: RunSummary) -> None:
        role = "error" if summary_failed(summary) else "assistant"
        lines = [self._body(summary_outcome(summary), role)]
        if summary.model:  # never invented: a model the run did not name is left out
            lines.append(self._body(f"model {summary.model}", "lifecycle"))
        lines.append(self._body(summary_usage(summary), "lifecycle"))
        lines.extend(self._body(f"error: {message}", "error") for message in summary.errors)
        self._out.write(self._label("run", role) + ("\n" + _INDENT).join(lines) + "\n")
