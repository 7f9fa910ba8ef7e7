"""The compact style: one line per event, as stream-formatter-design.md specifies for Claude.

The specification is written against raw Claude stream-json events, and one of
its rules needs a field that only the raw event carries: a Read result's line
count lives in the ``tool_use_result`` envelope of the ``user`` line, which no
TranscriptEntry holds. So the style has two renderers:

- :class:`ClaudeCompactRenderer` (``claude_local``) formats each raw stdout line
  itself, a line-for-line port of the specification's ``FormatLine``; the
  session still parses every line (diagnostics stay exact), and the entries are
  used only for what never arrives as a whole line: lines cut for length, and
  stderr or host messages.
- :class:`CompactRenderer` (every other adapter) applies the same rules to
  TranscriptEntries: the session line, the tool labels (with a generic label for
  tool names the specification does not know), the result summary rules except
  the line count, the 120-character truncation and ``--- Result ---``.

Where the specification is silent, a choice was made and is listed here:
``stream_event`` lines (``--include-partial-messages``, which the specification
puts out of scope) are filtered rather than printed raw, since the complete
``assistant`` line that follows repeats their text; a missing session id or
model prints ``?``; an error result with no text prints ``→ error``; rule 1
truncates like rule 4 (120 characters, then ``…``), and the search queries of
``Grep`` and ``WebSearch`` are truncated as the specification's risk section
says. All agent text is neutralised; the spec's ``(raw)`` text means "not
reformatted", never "able to drive the terminal".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import IO, Any, Final

from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.extract import as_int, dig, parse_json_object, truncate

from linewise._sanitize import neutralize

__all__ = [
    "ClaudeCompactRenderer",
    "CompactRenderer",
    "claude_compact_lines",
    "format_claude_line",
    "tool_argument",
    "tool_label",
]

#: Longest command, description, query or summary line shown; longer ones end in ``…``.
LIMIT: Final = 120

# A compact line is (role, text); the role picks the colour, the text is already neutralised.
Line = tuple[str, str]

_CODES: Final = {
    "session": "34",  # lifecycle: blue
    "retry": "34",
    "system": "34",
    "assistant": "32",  # assistant: green
    "tool": "33",  # tool calls: yellow
    "ok": "36",  # successful results: cyan
    "error": "31",  # errors: red
    "heading": "1;32",
    "raw": "",
    "text": "",
}

_FILE_TOOLS: Final = ("Read", "Write", "Edit", "NotebookEdit")
_SHELL_TOOLS: Final = ("Bash", "PowerShell")
_TASK_TOOLS: Final = ("Task", "Agent")
_PATH_SEPARATORS: Final = re.compile(r"[\\/]")
_KNOWN_TOOLS: Final = (
    *_FILE_TOOLS,
    *_SHELL_TOOLS,
    *_TASK_TOOLS,
    "Grep",
    "Glob",
    "WebFetch",
    "WebSearch",
    "TodoWrite",
)
# For tools the specification does not name: the first of these fields present.
_GENERIC_FIELDS: Final = (
    ("command", "$ "),
    ("cmd", "$ "),
    ("file_path", ""),
    ("filePath", ""),
    ("path", ""),
    ("pattern", ""),
    ("query", ""),
    ("url", ""),
    ("description", ""),
    ("prompt", ""),
)
_PATH_FIELDS: Final = ("file_path", "filePath", "path")
# Filtered lines: partial-message deltas (their text comes again in the complete message).
_SILENT_TYPES: Final = ("stream_event",)


# -- pieces shared by both renderers ------------------------------------------------


def _field(arguments: dict[str, Any], key: str) -> str:
    value = arguments.get(key)
    return neutralize(value) if type(value) is str and value.strip() else ""


def _basename(path: str) -> str:
    return _PATH_SEPARATORS.split(path)[-1]


def _claude_tool(name: str, arguments: dict[str, Any]) -> tuple[str, str]:
    """The label and argument the specification gives a Claude tool call (neutralised)."""
    if name in _FILE_TOOLS:
        return f"[{name}]", _basename(_field(arguments, "file_path"))
    if name in _SHELL_TOOLS:
        command = _field(arguments, "command")
        return "[Bash]", f"$ {truncate(command, LIMIT)}" if command else ""
    if name == "Grep":
        pattern = _field(arguments, "pattern")
        return "[Grep]", f'"{truncate(pattern, LIMIT)}"' if pattern else ""
    if name == "Glob":
        return "[Glob]", _field(arguments, "pattern")
    if name in _TASK_TOOLS:
        agent = _field(arguments, "subagent_type")
        description = truncate(_field(arguments, "description"), LIMIT)
        return (f"[Task: {agent}]" if agent else "[Task]"), description
    if name == "WebFetch":
        return "[WebFetch]", _field(arguments, "url")
    if name == "WebSearch":
        query = _field(arguments, "query")
        return "[WebSearch]", f'"{truncate(query, LIMIT)}"' if query else ""
    return f"[{neutralize(name) or 'tool'}]", ""  # TodoWrite and every other tool: no argument


def _generic_argument(arguments: dict[str, Any]) -> str:
    # Other adapters name their tools differently; the most identifying field wins.
    for key, prefix in _GENERIC_FIELDS:
        value = _field(arguments, key)
        if value:
            if key in _PATH_FIELDS:
                value = _basename(value) or value
            return prefix + _summary_line(value)
    return ""


def tool_label(name: str, tool_input: object) -> str:
    """The specification's ``[<ToolLabel>] <arg>`` for a Claude tool call (neutralised)."""
    label, argument = _claude_tool(name, tool_input if type(tool_input) is dict else {})
    # Missing or empty input fields: the label alone, no trailing text.
    return f"{label} {argument}" if argument else label


def tool_argument(name: str, tool_input: object) -> str:
    """A tool call's most identifying argument on one line: the spec's for the tools it names."""
    arguments = tool_input if type(tool_input) is dict else {}
    if name in _KNOWN_TOOLS:
        return _claude_tool(name, arguments)[1]
    return _generic_argument(arguments)


def _generic_tool_label(name: str, tool_input: object) -> str:
    label = tool_label(name, tool_input)
    if name in _KNOWN_TOOLS:
        return label
    argument = tool_argument(name, tool_input)
    return f"{label} {argument}" if argument else label


def _summary_line(text: str) -> str:
    """The first non-empty line of tool output, neutralised, trimmed, at most 120 characters."""
    # A scan, not a split: tool output can be megabytes long and only its start is shown.
    start, size = 0, len(text)
    while start < size:
        end = text.find("\n", start)
        if end == -1:
            end = size
        line = neutralize(text[start:end].strip()).strip()
        if line:
            return truncate(line, LIMIT)
        start = end + 1
    return ""


def _result_summary(content: str, is_error: bool, num_lines: int | None) -> Line:
    """The specification's tool_result summary, its four rules in priority order."""
    if is_error:
        line = _summary_line(content)
        return ("error", f"→ error: {line}" if line else "→ error")
    if num_lines is not None:
        return ("ok", f"→ {num_lines} lines")
    if not content.strip():
        return ("ok", "→ ok")
    return ("ok", f"→ {_summary_line(content)}")


def _session_line(session_id: object, model: object) -> Line:
    ident = neutralize(session_id)[:8] if type(session_id) is str and session_id else "?"
    name = neutralize(model) if type(model) is str and model else "?"
    return ("session", f"[session {ident} · {name}]")


def _result_lines(text: str) -> list[Line]:
    # `\n--- Result ---\n<text>\n`: an empty line, the heading, the text.
    return [("text", ""), ("heading", "--- Result ---"), ("text", neutralize(text))]


# -- Claude: the raw line ---------------------------------------------------------


def _content_text(content: object) -> str:
    """A tool_result's content: a string as is; an array joins its ``text`` blocks."""
    if type(content) is str:
        return content
    if type(content) is not list:
        return ""
    parts = [
        block["text"]
        for block in content
        if type(block) is dict and block.get("type") == "text" and type(block.get("text")) is str
    ]
    return "\n".join(parts)


def _assistant_lines(event: dict[str, Any]) -> list[Line]:
    content = dig(event, "message", "content")
    if type(content) is str:  # not a block list; treated as one text block
        return [("assistant", neutralize(content))] if content else []
    lines: list[Line] = []
    for block in content if type(content) is list else ():
        if type(block) is not dict:
            continue  # a broken block is skipped; the rest is still shown
        kind = block.get("type")
        if kind == "text":
            text = block.get("text")
            if type(text) is str and text:
                lines.append(("assistant", neutralize(text)))
        elif kind == "tool_use":
            name = block.get("name")
            lines.append(
                ("tool", tool_label(name if type(name) is str else "", block.get("input")))
            )
        # thinking blocks are filtered, as are block types the specification does not list
    return lines


def _user_lines(event: dict[str, Any]) -> list[Line]:
    content = dig(event, "message", "content")
    if type(content) is not list:
        return []
    num_lines = as_int(dig(event, "tool_use_result", "file", "numLines"), -1)
    lines: list[Line] = []
    for block in content:
        if type(block) is dict and block.get("type") == "tool_result":
            lines.append(
                _result_summary(
                    _content_text(block.get("content")),
                    block.get("is_error") is True,
                    num_lines if num_lines >= 0 else None,
                )
            )
    return lines


def claude_compact_lines(line: str) -> list[Line]:
    """One Claude stream-json line as compact ``(role, text)`` lines; empty when filtered."""
    event = parse_json_object(line)
    kind = event.get("type") if event is not None else None
    if event is None or kind not in ("system", "assistant", "user", "result", *_SILENT_TYPES):
        return [("raw", neutralize(line))]  # unrecognised or not JSON: the raw line
    if kind == "system":
        subtype = event.get("subtype")
        if subtype == "init":
            return [_session_line(event.get("session_id"), event.get("model"))]
        if subtype == "api_retry":
            return [("retry", "[Retrying API call...]")]
        return []
    if kind == "assistant":
        return _assistant_lines(event)
    if kind == "user":
        return _user_lines(event)
    if kind == "result":
        text = event.get("result")
        return _result_lines(text if type(text) is str else "")
    return []


def format_claude_line(line: str) -> str:
    """The specification's ``FormatLine``: the compact text of one line (``""`` when filtered)."""
    return "".join(text + "\n" for _, text in claude_compact_lines(line))


# -- the renderers ------------------------------------------------------------------


class CompactRenderer:
    """The compact style for any adapter: one line per entry, the Claude rules on entries.

    Consecutive delta fragments of one kind continue one line; thinking is
    filtered (as the specification does); user text is not shown; system
    entries are one bracketed line (``[Retrying API call...]`` for Claude's API
    retries); stderr is ``[stderr] <first line>``; raw stdout and diff lines
    are printed as they are. ``color`` follows the reference convention.
    """

    def __init__(self, stream: IO[str], *, color: bool = False) -> None:
        self._stream = stream
        self._color = color
        self._open: str | None = None  # kind of the delta line still being written

    def _paint(self, role: str, text: str) -> str:
        code = _CODES.get(role, "")
        if not self._color or not code or not text:
            return text
        return f"\x1b[{code}m{text}\x1b[0m"

    def _lines(self, lines: Sequence[Line]) -> None:
        self._end_fragment()
        self._stream.write("".join(self._paint(role, text) + "\n" for role, text in lines))

    def _end_fragment(self) -> None:
        if self._open is not None:
            self._stream.write("\n")
            self._open = None

    def write(self, entry: TranscriptEntry) -> None:
        """Draw one entry."""
        kind = entry["kind"]
        if kind in ("thinking", "user"):
            return
        if entry["kind"] == "assistant":
            text = neutralize(entry["text"])
            if entry.get("delta") is True:
                if self._open != kind:
                    self._end_fragment()
                    self._open = kind
                self._stream.write(self._paint("assistant", text))
            elif text:
                self._lines([("assistant", text)])
            return
        self._lines(self._entry_lines(entry))

    def _entry_lines(self, entry: TranscriptEntry) -> list[Line]:
        if entry["kind"] == "init":
            return [_session_line(entry["sessionId"], entry["model"])]
        if entry["kind"] == "tool_call":
            return [("tool", _generic_tool_label(entry["name"], entry["input"]))]
        if entry["kind"] == "tool_result":
            return [_result_summary(entry["content"], entry["isError"], None)]
        if entry["kind"] == "result":
            text = entry["text"]
            if not text and entry["isError"] and entry["errors"]:
                text = "error: " + entry["errors"][0]
            return _result_lines(text)
        if entry["kind"] == "system":
            if entry["text"].startswith("API retry"):
                return [("retry", "[Retrying API call...]")]
            return [("system", f"[{_summary_line(entry['text'])}]")]
        if entry["kind"] == "stderr":
            return [("error", f"[stderr] {_summary_line(entry['text'])}")]
        if entry["kind"] == "diff":
            return [("raw", neutralize(entry["text"]))]
        # stdout: a raw line no parser understood, shown as it is
        return [("raw", neutralize(entry["text"]))]

    def close(self) -> None:
        """End the last line and flush."""
        self._end_fragment()
        self._stream.flush()


class ClaudeCompactRenderer(CompactRenderer):
    """The compact style for ``claude_local``, formatted from each raw stream-json line.

    Give it every stdout line with :meth:`write_line` (``RenderPipeline`` does);
    :meth:`write` takes the entries that do not come from a whole line (stderr,
    host messages, lines cut for length) and draws them as :class:`CompactRenderer`.
    """

    #: Tells ``RenderPipeline`` to hand over raw stdout lines.
    wants_lines = True

    def write_line(self, line: str, entries: Sequence[TranscriptEntry]) -> None:
        """Draw one raw stdout line (its entries are not needed: the line says more)."""
        lines = claude_compact_lines(line)
        if lines:
            self._lines(lines)
