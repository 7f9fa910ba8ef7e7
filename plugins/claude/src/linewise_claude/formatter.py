"""Claude's own compact format: one line per event, as stream-formatter-design.md specifies.

``format_entries(entries) -> list[CompactLine]`` (contract 1.7) makes the lines
from the entries the parser gave for one stdout line, so the compact style
shows what every other view shows. ``format_stdout_line(line)`` (contract 1.1;
the reference's ``formatStdoutEvent``), which reads the raw line again, stays
the 1.x export for this release, deprecated (a 1.7 host reads ``format_entries``;
code that imports it, and ``linewise check``, still find it). The
host's compact style prints these lines, neutralised and coloured by role;
this module knows Claude's stream-json and entries, the host does not.

What the entries change, each a fix: a tool's output written to stderr (Bash)
or its interruption, which the entry's content carries, is summarised when the
tool printed nothing else; ``→ <N> lines`` of a ``Read`` counts the numbered
lines of the result the entry holds (the ``tool_use_result.file.numLines`` the
raw line gave says the same on every real log but where the log itself was
elided); an API error's text (``stderr`` entries) is an ``error`` line, never
assistant text; a ``[session ...]`` line names the model as the entry does
(``unknown`` when Claude Code gave none); events the specification does not
list but the parser reads are shown as their entries say instead of as raw
JSON: a permission prompt or question the run waits on as one
``[permission requested: <tool>]`` line, rate limits, progress and the like
filtered as ``system`` events are. Streamed fragments (``stream_event`` lines)
are the host's to draw, continued on one line; the complete message's entries
then hold no second copy of their text (the stateful parser skips it), so the
text is shown once either way.

Where the specification is silent, a choice was made and is listed here (for
``format_stdout_line``; ``format_entries`` makes the same choices from entries):
``stream_event`` lines (``--include-partial-messages``, out of the
specification's scope) are filtered, since the complete ``assistant`` line
that follows repeats their text; a missing session id or model prints ``?``;
an error result with no text prints ``→ error``; rule 1 truncates like rule 4
(120 characters, then ``…``); the search queries of ``Grep`` and ``WebSearch``
are truncated as the specification's risk section says; the ``--- Result ---``
heading of a failed run has the role ``error`` (red), its text is unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.extract import as_int, dig, parse_json_object, truncate
from linewise_contracts.protocols import CompactLine

__all__ = ["LIMIT", "format_entries", "format_stdout_line", "tool_label"]

#: Longest command, description, query or summary line shown; longer ones end in ``…``.
LIMIT: Final = 120

_FILE_TOOLS: Final = ("Read", "Write", "Edit", "NotebookEdit")
_SHELL_TOOLS: Final = ("Bash", "PowerShell")
_TASK_TOOLS: Final = ("Task", "Agent")
# Filtered lines: partial-message deltas (their text comes again in the complete message).
_SILENT_TYPES: Final = ("stream_event",)


def _field(arguments: dict[str, Any], key: str) -> str:
    value = arguments.get(key)
    return value if type(value) is str and value.strip() else ""


def _basename(path: str) -> str:
    return path.replace("\\", "/").rsplit("/", 1)[-1]


def _tool(name: str, arguments: dict[str, Any]) -> tuple[str, str]:
    """The label and argument the specification gives a tool call."""
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
    return f"[{name or 'tool'}]", ""  # TodoWrite and every other tool: no argument


def tool_label(name: str, tool_input: object) -> str:
    """The specification's ``[<ToolLabel>] <arg>`` for a tool call."""
    label, argument = _tool(name, tool_input if type(tool_input) is dict else {})
    # Missing or empty input fields: the label alone, no trailing text.
    return f"{label} {argument}" if argument else label


def _summary_line(text: str) -> str:
    """The first non-empty line of tool output, trimmed, at most 120 characters."""
    # A scan, not a split: tool output can be megabytes long and only its start is shown.
    start, size = 0, len(text)
    while start < size:
        end = text.find("\n", start)
        if end == -1:
            end = size
        line = text[start:end].strip()
        if line:
            return truncate(line, LIMIT)
        start = end + 1
    return ""


def _result_summary(content: str, is_error: bool, num_lines: int | None) -> CompactLine:
    """The specification's tool_result summary, its four rules in priority order."""
    if is_error:
        line = _summary_line(content)
        return ("error", f"→ error: {line}" if line else "→ error")
    if num_lines is not None:
        return ("result", f"→ {num_lines} lines")
    if not content.strip():
        return ("result", "→ ok")
    return ("result", f"→ {_summary_line(content)}")


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


def _assistant_lines(event: dict[str, Any]) -> list[CompactLine]:
    content = dig(event, "message", "content")
    if type(content) is str:  # not a block list; treated as one text block
        return [("assistant", content)] if content else []
    lines: list[CompactLine] = []
    for block in content if type(content) is list else ():
        if type(block) is not dict:
            continue  # a broken block is skipped; the rest is still shown
        kind = block.get("type")
        if kind == "text":
            text = block.get("text")
            if type(text) is str and text:
                lines.append(("assistant", text))
        elif kind == "tool_use":
            name = block.get("name")
            lines.append(
                ("tool", tool_label(name if type(name) is str else "", block.get("input")))
            )
        # thinking blocks are filtered, as are block types the specification does not list
    return lines


def _user_lines(event: dict[str, Any]) -> list[CompactLine]:
    content = dig(event, "message", "content")
    if type(content) is not list:
        return []
    num_lines = as_int(dig(event, "tool_use_result", "file", "numLines"), -1)
    lines: list[CompactLine] = []
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


def _result_lines(event: dict[str, Any]) -> list[CompactLine]:
    text = event.get("result")
    subtype = event.get("subtype")
    failed = event.get("is_error") is True or (type(subtype) is str and subtype.startswith("error"))
    # `\n--- Result ---\n<text>\n`: an empty line, the heading, the text.
    return [
        ("plain", ""),
        ("error" if failed else "heading", "--- Result ---"),
        ("plain", text if type(text) is str else ""),
    ]


def format_stdout_line(line: str) -> list[CompactLine]:
    """One Claude stream-json line as compact ``(role, text)`` lines; ``[]`` when filtered."""
    event = parse_json_object(line)
    kind = event.get("type") if event is not None else None
    if event is None or kind not in ("system", "assistant", "user", "result", *_SILENT_TYPES):
        return [("plain", line)]  # unrecognised or not JSON: the raw line
    if kind == "system":
        subtype = event.get("subtype")
        if subtype == "init":
            session, model = event.get("session_id"), event.get("model")
            ident = session[:8] if type(session) is str and session else "?"
            name = model if type(model) is str and model else "?"
            return [("lifecycle", f"[session {ident} · {name}]")]
        if subtype == "api_retry":
            return [("lifecycle", "[Retrying API call...]")]
        return []
    if kind == "assistant":
        return _assistant_lines(event)
    if kind == "user":
        return _user_lines(event)
    if kind == "result":
        return _result_lines(event)
    return []


# -- from entries (contract 1.7) ----------------------------------------------------------

#: A line of a ``Read`` result: its line number (right-aligned), then an arrow or a tab.
#: A pattern, not a loop over lines: a result may be thousands of lines long.
_NUMBERED_LINE: Final = r"(?m)^ *[0-9]+(?:→|\t)"
_API_RETRY: Final = "API retry"


def _session_line(entry: Mapping[str, Any]) -> CompactLine:
    session, model = entry["sessionId"], entry["model"]
    return ("lifecycle", f"[session {session[:8] or '?'} · {model or '?'}]")


def _read_lines(entry: Mapping[str, Any]) -> int | None:
    """How many lines a ``Read`` result gave (its numbered lines), None for other results."""
    if entry.get("toolName") != "Read" or entry["isError"]:
        return None
    # re compiles the pattern on first use and keeps it: nothing is compiled at import.
    count = sum(1 for _ in re.finditer(_NUMBERED_LINE, entry["content"]))
    return count or None


def _entry_lines(entry: Mapping[str, Any]) -> list[CompactLine]:
    kind = entry["kind"]
    if kind == "assistant":
        return [("assistant", entry["text"])] if entry["text"] else []
    if kind == "tool_call":
        return [("tool", tool_label(entry["name"], entry["input"]))]
    if kind == "tool_result":
        return [_result_summary(entry["content"], entry["isError"], _read_lines(entry))]
    if kind == "init":
        return [_session_line(entry)]
    if kind == "result":
        failed = entry["isError"] is True or entry["subtype"].startswith("error")
        # `\n--- Result ---\n<text>\n`: an empty line, the heading, the text.
        return [
            ("plain", ""),
            ("error" if failed else "heading", "--- Result ---"),
            ("plain", entry["text"]),
        ]
    if kind == "system":
        # The specification shows one system event, the API retry; the others are filtered.
        return (
            [("lifecycle", "[Retrying API call...]")]
            if entry["text"].startswith(_API_RETRY)
            else []
        )
    if kind == "stderr":
        return [("error", entry["text"])] if entry["text"] else []
    if kind == "stdout":
        return [("plain", entry["text"])]
    if kind == "runtime_request" and entry["status"] == "pending":
        # A permission prompt or question the run waits on: its first line, once (the
        # entry that resolves it comes with the tool's result, which says the answer).
        return [("lifecycle", f"[{_summary_line(entry['prompt']) or 'request'}]")]
    # thinking, user turns, diffs of an edit, the run's end state, the other contract 1.3
    # kinds: filtered, as the specification filters what it does not list.
    return []


def format_entries(entries: Sequence[TranscriptEntry]) -> list[CompactLine]:
    """One Claude stdout line's entries as the specification's compact lines; ``[]`` when
    the line shows nothing (a system event, a user turn, thinking)."""
    lines: list[CompactLine] = []
    for entry in entries:
        lines.extend(_entry_lines(entry))
    return lines
