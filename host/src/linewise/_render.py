"""Renderers: draw entries as readable text or as JSON lines; entries know nothing of terminals."""

from __future__ import annotations

import codecs
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, Final, Protocol

import orjson
from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.extract import to_json_text, truncate

from linewise._sanitize import neutralize

if TYPE_CHECKING:
    from linewise._session import TranscriptSession

__all__ = [
    "JsonlRenderer",
    "LineRenderer",
    "RenderPipeline",
    "Renderer",
    "TextRenderer",
    "entry_json",
    "use_color",
]

# The reference colour convention: init, lifecycle and usage blue; assistant
# green; thinking and tool input grey; tool calls yellow; successful results
# cyan; errors red.
_CODES: Final = {
    "blue": "34",
    "green": "32",
    "grey": "90",
    "dim": "2;90",
    "yellow": "33",
    "bold yellow": "1;33",
    "cyan": "36",
    "red": "31",
    "magenta": "35",
    "bold": "1",
}
_LABEL_WIDTH: Final = 12
_INDENT: Final = " " * _LABEL_WIDTH
_INPUT_PREVIEW: Final = 400
_RESULT_LINES: Final = 12
_LINK_PREVIEW: Final = 60
_FOLDED: Final = "⋯ (hidden; --thinking shows it)"
#: Unanswered tool calls remembered for pairing; the oldest is forgotten first.
MAX_PENDING_CALLS: Final = 1024
_UNANSWERED_SHOWN: Final = 10


def use_color(stream: IO[Any], choice: str = "auto") -> bool:
    """Whether to colour ``stream``: ``always``, ``never``, or ``auto`` (a tty, no NO_COLOR)."""
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and os.environ.get("TERM") != "dumb"


def entry_json(entry: Mapping[str, Any]) -> bytes:
    """One entry as compact JSON bytes (lone surrogates written as ``\\ud8xx`` escapes)."""
    try:
        return orjson.dumps(entry)
    except (TypeError, orjson.JSONEncodeError):
        return json.dumps(entry, ensure_ascii=True, separators=(",", ":")).encode()


class Renderer(Protocol):
    """Draws entries one at a time as they arrive."""

    def write(self, entry: TranscriptEntry) -> None: ...

    def close(self) -> None: ...


class LineRenderer(Renderer, Protocol):
    """A renderer that draws from the raw stdout lines too (the Claude compact style).

    It sets ``wants_lines = True``; :class:`RenderPipeline` then calls
    :meth:`write_line` for each stdout line and :meth:`write` for the entries
    that do not come from a whole line (stderr, lines cut for length).
    """

    wants_lines: bool

    def write_line(self, line: str, entries: Sequence[TranscriptEntry]) -> None: ...


class JsonlRenderer:
    """Each entry as one line of JSON, exactly as the parser produced it (deltas unmerged)."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream

    def write(self, entry: TranscriptEntry) -> None:
        self._stream.write(entry_json(entry) + b"\n")

    def close(self) -> None:
        self._stream.flush()


@dataclass(frozen=True, slots=True)
class _Call:
    number: int
    name: str
    preview: str  # the call's most identifying argument, short and neutralised


class TextRenderer:
    """The default terminal style: a coloured kind label, then the text with a hanging indent.

    Grouping while streaming. A tool call is drawn the moment it arrives (someone
    watching a live run sees what the agent is doing) and numbered ``#1``,
    ``#2``, ... A result is matched to its call by ``toolUseId`` only, never by
    position, so parallel calls cannot be mis-paired. A result drawn directly
    under its call is visibly that call's; when anything came in between
    (parallel calls, a subagent's work) its header links back to the call with
    its number and most identifying argument: ``← #3 main.go``. A result whose
    id matches no call seen is an orphan and is drawn plainly. Calls still
    unanswered at :meth:`close` are listed. Only unanswered calls are
    remembered (at most :data:`MAX_PENDING_CALLS`, the oldest forgotten
    first), so memory stays constant however long the run. (Holding a call
    back until its result arrives would group more tightly, but someone
    watching would see nothing while a long command runs.)

    Consecutive delta fragments of one kind continue one block. Thinking is
    folded to a one-line marker unless ``thinking`` is set, then shown dimmed.
    All agent text is neutralised, so a log cannot drive the terminal. Long tool
    inputs and results are shortened unless ``full`` is set.
    """

    def __init__(
        self,
        stream: IO[str],
        *,
        color: bool = False,
        full: bool = False,
        thinking: bool = False,
    ) -> None:
        self._stream = stream
        self._color = color
        self._full = full
        self._thinking = thinking
        # "assistant" / "thinking": a delta block still being written (no newline yet);
        # "folded": a thinking marker already drawn for the current run of thinking.
        self._open: str | None = None
        self._calls: dict[str, _Call] = {}
        self._numbered = 0
        self._last_call: str | None = None  # id of a call drawn last, nothing after it

    # -- drawing helpers -----------------------------------------------------

    def _paint(self, text: str, color: str | None) -> str:
        if not self._color or not text or color is None:
            return text
        return f"\x1b[{_CODES[color]}m{text}\x1b[0m"

    def _label(self, label: str, color: str) -> str:
        return self._paint(label.ljust(_LABEL_WIDTH), color)

    def _body(self, text: str, color: str | None = None) -> str:
        return self._paint(neutralize(text).replace("\n", "\n" + _INDENT), color)

    def _block(self, label: str, color: str, text: str, body_color: str | None = None) -> None:
        self._stream.write(self._label(label, color) + self._body(text, body_color) + "\n")

    def _end_open(self) -> None:
        if self._open in ("assistant", "thinking"):
            self._stream.write("\n")
        self._open = None

    def _shorten_lines(self, text: str) -> str:
        if self._full:
            return text
        lines = text.split("\n", _RESULT_LINES)
        if len(lines) <= _RESULT_LINES:
            return text
        hidden = lines[-1].count("\n") + 1
        more = f"{hidden} more line" + ("s" if hidden > 1 else "")
        return "\n".join(lines[:_RESULT_LINES]) + f"\n… {more} (--full shows all)"

    # -- entries ---------------------------------------------------------------

    def write(self, entry: TranscriptEntry) -> None:
        """Draw one entry (a delta fragment continues the block it belongs to)."""
        kind = entry["kind"]
        after_call, self._last_call = self._last_call, None
        if kind == "thinking" and not self._thinking:
            self._fold()
        elif kind in ("assistant", "thinking") and entry.get("delta") is True:
            self._fragment(kind, entry["text"])  # type: ignore[typeddict-item]
        elif kind == "tool_result":
            self._end_open()
            self._write_tool_result(entry, after_call)
        else:
            self._end_open()
            getattr(self, f"_write_{kind}")(entry)

    def _fold(self) -> None:
        if self._open == "folded":
            return  # one marker for a whole run of thinking
        self._end_open()
        self._stream.write(self._label("thinking", "grey") + self._paint(_FOLDED, "dim") + "\n")
        self._open = "folded"

    def _fragment(self, kind: str, text: str) -> None:
        color = "green" if kind == "assistant" else "dim"
        if self._open != kind:
            self._end_open()
            self._stream.write(self._label(kind, "green" if kind == "assistant" else "grey"))
            self._open = kind
        self._stream.write(self._body(text, color))

    def _write_assistant(self, entry: Mapping[str, Any]) -> None:
        self._block("assistant", "green", entry["text"], body_color="green")

    def _write_thinking(self, entry: Mapping[str, Any]) -> None:
        self._block("thinking", "grey", entry["text"], body_color="dim")

    def _write_user(self, entry: Mapping[str, Any]) -> None:
        self._block("user", "magenta", entry["text"])

    def _write_init(self, entry: Mapping[str, Any]) -> None:
        text = f"model {entry['model']} · session {entry['sessionId']}"
        self._block("init", "blue", text, body_color="blue")

    def _write_system(self, entry: Mapping[str, Any]) -> None:
        self._block("system", "blue", entry["text"], body_color="blue")

    def _write_stderr(self, entry: Mapping[str, Any]) -> None:
        self._block("stderr", "red", entry["text"].rstrip("\n"), body_color="red")

    def _write_stdout(self, entry: Mapping[str, Any]) -> None:
        self._block("stdout", "grey", entry["text"])

    def _write_tool_call(self, entry: Mapping[str, Any]) -> None:
        from linewise._compact import tool_argument  # here: `linewise list` imports this module

        self._numbered += 1
        number = self._numbered
        name = neutralize(entry["name"])
        ident = entry.get("toolUseId")
        arguments = to_json_text(entry["input"])
        head = self._label("tool_call", "yellow") + self._paint(f"#{number} {name}", "bold yellow")
        if ident:
            head += self._paint(f"  [{neutralize(ident)}]", "grey")
            preview = truncate(tool_argument(entry["name"], entry["input"]), _LINK_PREVIEW)
            self._remember(ident, _Call(number, name, preview))
        self._stream.write(head + "\n")
        if entry["input"] not in ({}, [], None, ""):
            if not self._full and len(arguments) > _INPUT_PREVIEW:
                arguments = arguments[:_INPUT_PREVIEW] + f"… ({len(arguments)} chars)"
            self._stream.write(_INDENT + self._body(arguments, "grey") + "\n")
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
        color = "red" if error else "cyan"
        name = entry.get("toolName") or (call.name if call else "")
        head = f"{'error' if error else 'ok'}{' · ' + name if name else ''}  [{ident}]"
        line = self._label("tool_result", color) + self._paint(neutralize(head), color)
        if call is not None and ident != after_call:
            link = f"  ← #{call.number} {call.preview}" if call.preview else f"  ← #{call.number}"
            line += self._paint(link, "grey")
        self._stream.write(line + "\n")
        content = self._shorten_lines(entry["content"].rstrip())
        if content:
            self._stream.write(_INDENT + self._body(content, "red" if error else None) + "\n")

    def _write_result(self, entry: Mapping[str, Any]) -> None:
        error = entry["isError"]
        usage = (
            f"{entry['subtype'] or 'result'} · in={entry['inputTokens']} "
            f"out={entry['outputTokens']} cached={entry['cachedTokens']} "
            f"cost=${entry['costUsd']:.6f}"
        )
        parts = [self._body(usage, "blue")]
        if entry["text"]:
            parts.append(self._body(entry["text"]))
        parts.extend(self._body(f"error: {message}", "red") for message in entry["errors"])
        label = self._label("result", "red" if error else "green")
        self._stream.write(label + ("\n" + _INDENT).join(parts) + "\n")

    def _write_diff(self, entry: Mapping[str, Any]) -> None:
        change = entry["changeType"]
        color = {"add": "green", "remove": "red", "hunk": "cyan", "file_header": "bold"}.get(
            change, "grey"
        )
        text = entry["text"]
        # Plugins usually keep the unified-diff marker in the text; add it only when missing.
        marker = {"add": "+", "remove": "-"}.get(change)
        if marker and not text.startswith(marker):
            text = f"{marker} {text}"
        self._block("diff", color, text)

    def close(self) -> None:
        """End an open block, list calls that never got a result, and flush."""
        self._end_open()
        if self._calls:
            calls = list(self._calls.values())
            shown = ", ".join(f"#{call.number} {call.name}" for call in calls[:_UNANSWERED_SHOWN])
            if len(calls) > _UNANSWERED_SHOWN:
                shown += f" and {len(calls) - _UNANSWERED_SHOWN} more"
            self._block("unanswered", "grey", f"no result for {shown}", body_color="grey")
            self._calls.clear()
        self._stream.flush()


class _LineSplitter:
    """Bytes or text to whole lines, as a session splits them, for renderers that want lines.

    Incremental UTF-8 decoding with replacement; a line longer than ``limit``
    is handed over cut (one character past the limit, so the session marks it)
    and the rest of it skipped, which bounds memory like the session does.
    """

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._pending: list[str] = []
        self._size = 0
        self._skipping = False
        self._started = False

    def feed(self, chunk: bytes | str) -> list[str]:
        text = chunk if isinstance(chunk, str) else self._decoder.decode(chunk)
        if not self._started and text:
            # A UTF-8 byte order mark can only open the stream; it is not content.
            self._started = True
            text = text.removeprefix("\ufeff")
        pieces = text.split("\n")
        rest = pieces.pop()
        lines: list[str] = []
        for piece in pieces:
            if self._skipping:  # the end of a line already handed over cut
                self._skipping = False
            elif self._pending:
                self._pending.append(piece)
                lines.append("".join(self._pending))
                self._pending.clear()
                self._size = 0
            else:
                lines.append(piece)
        if rest and not self._skipping:
            self._pending.append(rest)
            self._size += len(rest)
            if self._size > self._limit:
                lines.append("".join(self._pending)[: self._limit + 1])
                self._pending.clear()
                self._size = 0
                self._skipping = True
        return lines

    def close(self) -> list[str]:
        lines = self.feed(self._decoder.decode(b"", final=True))
        if self._pending and not self._skipping:
            lines.append("".join(self._pending))
        self._pending.clear()
        return lines


class RenderPipeline:
    """One session feeding one renderer: stdout and stderr chunks in, drawn entries out.

    What ``linewise render`` and ``linewise run`` both do. A renderer with
    ``wants_lines`` (:class:`LineRenderer`, the Claude compact style) gets each
    raw stdout line with the entries the session made of it; every other
    renderer gets the entries. The session's diagnostics are the same either way.
    """

    def __init__(
        self,
        session: TranscriptSession,
        renderer: Renderer,
        *,
        max_line_chars: int | None = None,
    ) -> None:
        from linewise._session import DEFAULT_MAX_LINE_CHARS

        self.session = session
        self.renderer = renderer
        self._limit = max_line_chars or DEFAULT_MAX_LINE_CHARS
        self._write_line: Callable[[str, Sequence[TranscriptEntry]], None] | None = None
        self._lines: _LineSplitter | None = None
        if getattr(renderer, "wants_lines", False):
            self._write_line = renderer.write_line  # type: ignore[attr-defined]
            self._lines = _LineSplitter(self._limit)

    def feed(self, chunk: bytes | str, ts: str | None = None) -> None:
        """A stdout chunk, cut anywhere."""
        if self._lines is None:
            write = self.renderer.write
            for entry in self.session.feed(chunk, ts):
                write(entry)
            return
        for line in self._lines.feed(chunk):
            self._line(line, ts)

    def _line(self, line: str, ts: str | None) -> None:
        entries = self.session.feed_line(line, ts)
        stripped = line.strip()
        if stripped and len(stripped) <= self._limit and self._write_line is not None:
            self._write_line(stripped, entries)
        else:  # blank, or cut for length: only the session's entries can show it
            for entry in entries:
                self.renderer.write(entry)

    def feed_stderr(self, chunk: bytes | str, ts: str | None = None) -> None:
        """A stderr chunk; it becomes one stderr entry."""
        for entry in self.session.feed_stderr(chunk, ts):
            self.renderer.write(entry)

    def close(self, ts: str | None = None) -> None:
        """End the stream: the trailing partial line, then the renderer."""
        if self._lines is not None:
            for line in self._lines.close():
                self._line(line, ts)
        for entry in self.session.close(ts):
            self.renderer.write(entry)
        self.renderer.close()
