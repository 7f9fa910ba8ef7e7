"""Renderers: draw entries as readable text or as JSON lines; entries know nothing of terminals."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import IO, Any, Final, Protocol

import orjson
from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.extract import to_json_text

from linewise._sanitize import neutralize

__all__ = ["JsonlRenderer", "Renderer", "TextRenderer", "entry_json", "use_color"]

# The reference colour convention: lifecycle and usage blue, assistant green,
# thinking and tool input grey, tool calls yellow, results cyan, errors red.
_CODES: Final = {
    "blue": "34",
    "green": "32",
    "grey": "90",
    "yellow": "33",
    "cyan": "36",
    "red": "31",
    "magenta": "35",
    "bold": "1",
}
_LABEL_WIDTH: Final = 12
_INDENT: Final = " " * _LABEL_WIDTH
_INPUT_PREVIEW: Final = 400
_RESULT_LINES: Final = 12


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


class JsonlRenderer:
    """Each entry as one line of JSON, exactly as the parser produced it (deltas unmerged)."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream

    def write(self, entry: TranscriptEntry) -> None:
        self._stream.write(entry_json(entry) + b"\n")

    def close(self) -> None:
        self._stream.flush()


class TextRenderer:
    """A readable transcript: a coloured kind label, then the entry's text with a hanging indent.

    Consecutive delta fragments of one kind continue the same block. All agent
    text is neutralised first, so a log cannot drive the terminal. Long tool
    inputs and results are shortened unless ``full`` is set.
    """

    def __init__(self, stream: IO[str], *, color: bool = False, full: bool = False) -> None:
        self._stream = stream
        self._color = color
        self._full = full
        self._open_delta: str | None = None

    # -- drawing helpers -----------------------------------------------------

    def _paint(self, text: str, color: str) -> str:
        if not self._color or not text:
            return text
        return f"\x1b[{_CODES[color]}m{text}\x1b[0m"

    def _block(self, label: str, color: str, text: str, body_color: str | None = None) -> None:
        body = neutralize(text).replace("\n", "\n" + _INDENT)
        head = self._paint(label.ljust(_LABEL_WIDTH), color)
        self._stream.write(head + (self._paint(body, body_color) if body_color else body) + "\n")

    def _end_delta(self) -> None:
        if self._open_delta is not None:
            self._stream.write("\n")
            self._open_delta = None

    def _shorten_lines(self, text: str) -> str:
        if self._full:
            return text
        lines = text.split("\n", _RESULT_LINES)
        if len(lines) <= _RESULT_LINES:
            return text
        hidden = lines[-1].count("\n") + 1
        return "\n".join(lines[:_RESULT_LINES]) + f"\n… {hidden} more lines (--full shows all)"

    # -- entries ---------------------------------------------------------------

    def write(self, entry: TranscriptEntry) -> None:
        kind = entry["kind"]
        if entry.get("delta") is True and kind in ("assistant", "thinking"):
            text = neutralize(entry["text"]).replace("\n", "\n" + _INDENT)  # type: ignore[typeddict-item]
            color = "green" if kind == "assistant" else "grey"
            if self._open_delta != kind:
                self._end_delta()
                self._stream.write(self._paint(kind.ljust(_LABEL_WIDTH), color))
                self._open_delta = kind
            self._stream.write(self._paint(text, "grey") if kind == "thinking" else text)
            return
        self._end_delta()
        getattr(self, f"_write_{kind}")(entry)

    def _write_assistant(self, entry: Mapping[str, Any]) -> None:
        self._block("assistant", "green", entry["text"])

    def _write_thinking(self, entry: Mapping[str, Any]) -> None:
        self._block("thinking", "grey", entry["text"], body_color="grey")

    def _write_user(self, entry: Mapping[str, Any]) -> None:
        self._block("user", "magenta", entry["text"])

    def _write_init(self, entry: Mapping[str, Any]) -> None:
        self._block("init", "blue", f"model {entry['model']} · session {entry['sessionId']}")

    def _write_system(self, entry: Mapping[str, Any]) -> None:
        self._block("system", "blue", entry["text"])

    def _write_stderr(self, entry: Mapping[str, Any]) -> None:
        self._block("stderr", "red", entry["text"].rstrip("\n"))

    def _write_stdout(self, entry: Mapping[str, Any]) -> None:
        self._block("stdout", "grey", entry["text"])

    def _write_tool_call(self, entry: Mapping[str, Any]) -> None:
        name = neutralize(entry["name"])
        ident = entry.get("toolUseId")
        head = self._paint("tool_call".ljust(_LABEL_WIDTH), "yellow") + self._paint(name, "bold")
        if ident:
            head += self._paint(f"  [{neutralize(ident)}]", "grey")
        arguments = to_json_text(entry["input"])
        if not self._full and len(arguments) > _INPUT_PREVIEW:
            arguments = arguments[:_INPUT_PREVIEW] + f"… ({len(arguments)} chars)"
        body = neutralize(arguments).replace("\n", "\n" + _INDENT)
        self._stream.write(head + "\n" + _INDENT + self._paint(body, "grey") + "\n")

    def _write_tool_result(self, entry: Mapping[str, Any]) -> None:
        error = entry["isError"]
        status = "error" if error else "ok"
        name = entry.get("toolName")
        head = f"{status}{' · ' + name if name else ''}  [{entry['toolUseId']}]"
        content = self._shorten_lines(entry["content"].rstrip())
        text = neutralize(head)
        if content:
            text += "\n" + content
        self._block("tool_result", "red" if error else "cyan", text)

    def _write_result(self, entry: Mapping[str, Any]) -> None:
        error = entry["isError"]
        usage = (
            f"{entry['subtype'] or 'result'} · in={entry['inputTokens']} "
            f"out={entry['outputTokens']} cached={entry['cachedTokens']} "
            f"cost=${entry['costUsd']:.6f}"
        )
        lines = [usage]
        if entry["text"]:
            lines.append(entry["text"])
        lines.extend(f"error: {message}" for message in entry["errors"])
        self._block("result", "red" if error else "green", "\n".join(lines))

    def _write_diff(self, entry: Mapping[str, Any]) -> None:
        change = entry["changeType"]
        color = {"add": "green", "remove": "red", "hunk": "cyan", "file_header": "bold"}.get(
            change, "grey"
        )
        prefix = {"add": "+ ", "remove": "- "}.get(change, "  ")
        self._block("diff", color, prefix + entry["text"])

    def close(self) -> None:
        self._end_delta()
        self._stream.flush()
