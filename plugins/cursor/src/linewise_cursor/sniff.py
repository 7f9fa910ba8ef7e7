"""How surely the first lines of a log are Cursor CLI stream-json or Cursor Cloud events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.extract import parse_json_object

__all__ = ["normalize_line", "sniff", "sniff_cloud"]

# Defined beside the sniff, which detection imports alone (the parser and the summary
# import normalize_line from here).
# Paperclip multiplexes a run's streams into one log as `stdout{...}` /
# `stderr: {...}`; only a JSON payload after the prefix counts.
_STREAMS: Final = ("stdout", "stderr")


def normalize_line(line: str) -> str:
    """``line`` trimmed, without a ``stdout``/``stderr`` multiplexing prefix before JSON."""
    stripped = line.strip()
    # String methods, not a regex: two optional runs of spaces around an optional `:` made
    # the regex quadratic on a line of "stdout" and many spaces.
    if stripped[:6].lower() not in _STREAMS:
        return stripped
    rest = stripped[6:].lstrip()
    if rest[:1] in (":", "="):
        rest = rest[1:].lstrip()
    return rest if rest[:1] in ("[", "{") else stripped


# Event types cursor-agent writes; a JSON line of any other type (Claude's
# "stream_event", Codex's "thread.started", Gemini's "init", OpenCode's
# "step_start", Pi's "agent_start" ...) means another CLI wrote the log.
_CURSOR_TYPES: Final = frozenset(
    {"system", "user", "assistant", "thinking", "tool_call", "result", "error"}
)
# Fields only Claude Code writes on the event types both CLIs share.
_CLAUDE_FIELDS: Final = ("parent_tool_use_id", "uuid", "num_turns", "modelUsage", "tools")


def _events(lines: Sequence[str]) -> tuple[list[tuple[dict[str, Any], bool]], int]:
    """The JSON events of ``lines``, each with whether it came behind a stream prefix."""
    events: list[tuple[dict[str, Any], bool]] = []
    other = 0
    for line in lines:
        normalized = normalize_line(line)
        if not normalized:
            continue
        event = parse_json_object(normalized)
        if event is None:
            other += 1
        else:
            events.append((event, normalized != line.strip()))
    return events, other


def _claude_only(event: dict[str, Any]) -> bool:
    if any(field in event for field in _CLAUDE_FIELDS):
        return True
    message = event.get("message")
    return type(message) is dict and str(message.get("id", "")).startswith("msg_")


def _distinctive(event: dict[str, Any]) -> bool:
    """Shapes only cursor-agent writes."""
    kind = event.get("type")
    subtype = event.get("subtype")
    if kind == "tool_call":
        # The tool is named by its key: {"shellToolCall": {...}}, {"readToolCall": {...}}.
        tool = event.get("tool_call")
        return (
            subtype in ("started", "completed")
            and type(tool) is dict
            and any(type(key) is str and key.endswith("ToolCall") for key in tool)
        )
    if kind == "thinking":
        return subtype in ("delta", "completed")
    if kind == "system" and subtype == "init":
        # Cursor's init: apiKeySource and permissionMode, without Claude's tool list.
        return "apiKeySource" in event and "permissionMode" in event
    if kind == "assistant":
        return "model_call_id" in event
    if kind == "result":
        return "request_id" in event
    return False


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``cursor-agent -p --output-format stream-json`` wrote ``lines``.

    Every JSON line must be a Cursor event type without Claude-only fields,
    and one must have a shape only Cursor writes (a ``*ToolCall`` tool call, a
    thinking delta, its init, a ``model_call_id``) or come behind Paperclip's
    ``stdout{...}`` multiplexing prefix, which only its Cursor adapter writes;
    plain text lines are tolerated when events dominate.
    """
    events, other = _events(lines)
    if not events or other > len(events):
        return 0.0
    distinctive = 0
    for event, prefixed in events:
        if (
            type(event.get("type")) is not str
            or event["type"] not in _CURSOR_TYPES
            or _claude_only(event)
        ):
            return 0.0
        distinctive += prefixed or _distinctive(event)
    if distinctive:
        return 0.95 if other == 0 else 0.85
    # Only generic system/user/assistant/result lines: Claude's stream looks alike.
    return 0.2


def sniff_cloud(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``lines`` are the ``cursor_cloud.*`` events of a Cursor Cloud run."""
    events, other = _events(lines)
    if not events or other > len(events):
        return 0.0
    for event, _ in events:
        kind = event.get("type")
        if type(kind) is not str or not kind.startswith("cursor_cloud."):
            return 0.0
    return 0.95 if other == 0 else 0.85
