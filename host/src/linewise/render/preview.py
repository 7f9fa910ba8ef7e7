"""The one tool-preview rule: which argument of a tool call says best what it does."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, NamedTuple

from linewise.transcript.fold import SUBAGENT_TOOLS, subagent_start

__all__ = [
    "SUBAGENT_TOOLS",
    "Preview",
    "one_line",
    "subagent_kind",
    "subagent_label",
    "tool_preview",
]

# Input keys that say best, in one line, what a tool call does, in priority order.
PREVIEW_KEYS: Final = (
    "command",
    "cmd",
    "file_path",
    "filePath",
    "path",
    "pattern",
    "query",
    "url",
    "description",
    "prompt",
    "skill",
    "name",
)
COMMAND_KEYS: Final = frozenset({"command", "cmd"})
PATH_KEYS: Final = frozenset({"file_path", "filePath", "path"})
# Only the start of a huge argument is ever looked at.
_SCAN: Final = 4096


# A NamedTuple, not a frozen dataclass: building one cost ~4 M instructions at import.
class Preview(NamedTuple):
    """A tool call's most identifying argument: its input key and its text on one line."""

    key: str
    text: str

    @property
    def is_command(self) -> bool:
        return self.key in COMMAND_KEYS

    @property
    def is_path(self) -> bool:
        return self.key in PATH_KEYS

    def short(self) -> str:
        """The compact form: a command after ``$``, a path as its file name."""
        if self.is_command:
            return f"$ {self.text}"
        if self.is_path:
            return self.text.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1] or self.text
        return self.text


def one_line(text: str, limit: int) -> str:
    """The first non-blank line of ``text``, whitespace collapsed, at most ``limit`` characters."""
    start, size = 0, len(text)
    while start < size:  # a scan, not a split: tool output can be megabytes long
        end = text.find("\n", start)
        if end == -1:
            end = size
        line = " ".join(text[start : min(end, start + _SCAN)].split())
        if line:
            return line if len(line) <= limit else line[:limit] + "…"
        start = end + 1
    return ""


def tool_preview(tool_input: object, limit: int = 160) -> Preview | None:
    """The preview of a tool call's input, or None when no field says what it does."""
    if isinstance(tool_input, str):
        text = one_line(tool_input, limit)
        return Preview("input", text) if text else None
    if not isinstance(tool_input, Mapping):
        return None
    for key in PREVIEW_KEYS:
        value = tool_input.get(key)
        if isinstance(value, str):
            text = one_line(value, limit)
            if text:
                return Preview(key, text)
    return None


def subagent_kind(name: str, tool_input: object, *, marker: object = None) -> str | None:
    """The kind of subagent a call starts (``Explore``, ``subagent``); None for any other call.

    ``marker`` is the call's ``startsSubagent`` (contract 1.5): when given it
    decides. The tool name (:data:`linewise.transcript.fold.SUBAGENT_TOOLS`) is
    only the fallback for a call without it, from a plugin of contract 1.4 or
    older; every caller passes the entry's marker.
    """
    if not subagent_start(marker, name):
        return None
    arguments: Mapping[str, Any] = tool_input if isinstance(tool_input, Mapping) else {}
    kind = arguments.get("subagent_type") or arguments.get("agent_type")
    return (one_line(kind, 40) if isinstance(kind, str) else "") or "subagent"


def subagent_label(
    name: str, tool_input: object, limit: int = 120, *, marker: object = None
) -> str | None:
    """``Explore: map the tests`` for a call that starts a subagent; None for any other call."""
    kind = subagent_kind(name, tool_input, marker=marker)
    if kind is None:
        return None
    arguments: Mapping[str, Any] = tool_input if isinstance(tool_input, Mapping) else {}
    about = arguments.get("description") or arguments.get("message") or arguments.get("prompt")
    if isinstance(about, str) and about.strip():
        return f"{kind}: {one_line(about, limit)}"
    return kind
