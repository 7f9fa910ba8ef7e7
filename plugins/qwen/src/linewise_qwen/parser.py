"""``qwen -p ... -o stream-json`` lines to entries: Claude's reading plus Qwen's own events.

Qwen Code's stream-json writer (``packages/cli/src/nonInteractive/io/``
``StreamJsonOutputAdapter.ts`` and the message types in
``nonInteractive/types.ts``) writes Claude Code's envelope (``system`` /
``assistant`` / ``user`` / ``result`` / ``stream_event``), so the Claude
plugin's parser reads most of it. What Qwen adds is handled here: the
``goal_state`` / ``active_goal`` stream events, ``tool_progress`` heartbeats,
the ``session_start`` system message and the ``error`` object of a failed
result; and the result entry's summary fields in Qwen's meaning of its
counts (:mod:`linewise_qwen.ending`).
"""

from __future__ import annotations

from typing import Any, Final

from linewise_claude.parser import ClaudeStdoutParser
from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.extract import as_object, as_string, parse_json_object, to_json_text

from linewise_qwen.ending import with_result_fields

__all__ = ["QwenStdoutParser", "create_stdout_parser", "parse_stdout_line"]

# Stream events only Qwen writes.
_GOAL_EVENTS: Final = ("goal_state", "active_goal")


def _goal_text(inner: dict[str, Any]) -> str | None:
    """A goal update in words, or None when it says there is no goal (the idle default)."""
    value = inner.get(as_string(inner.get("type")))
    state = as_object(value)
    goal = state.get("goal", value if inner.get("type") == "active_goal" else None)
    if goal is None:
        return None
    shown = as_string(goal) or as_string(as_object(goal).get("text")) or to_json_text(goal)
    activity = as_string(state.get("activity"))
    return f"goal: {shown}" + (f" ({activity})" if activity else "")


def _result_error(event: dict[str, Any]) -> str:
    error = event.get("error")
    return as_string(as_object(error).get("message")) or as_string(error)


class QwenStdoutParser:
    """The stateful Qwen Code stream-json parser (Claude's, with Qwen's additions)."""

    __slots__ = ("_claude",)

    def __init__(self) -> None:
        self._claude = ClaudeStdoutParser()

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        event = parse_json_object(line) if line.lstrip().startswith("{") else None
        if event is not None:
            kind = event.get("type")
            if kind == "stream_event":
                inner = as_object(event.get("event"))
                if inner.get("type") in _GOAL_EVENTS:
                    text = _goal_text(inner)
                    return [{"kind": "system", "ts": ts, "text": text}] if text else []
                if inner.get("type") == "tool_progress":
                    return []  # a liveness heartbeat; the tool's result follows
            elif kind == "system" and event.get("subtype") == "session_start":
                session = as_string(event.get("session_id"))
                return [{"kind": "system", "ts": ts, "text": f"session started {session}".strip()}]
        entries = self._claude.parse_line(line, ts)
        if event is not None and event.get("type") == "result":
            message = _result_error(event)
            for entry in entries:
                if entry["kind"] != "result":
                    continue
                if message and message not in entry["errors"]:
                    entry["errors"] = [*entry["errors"], message]
                # Qwen's input_tokens include the cache reads; the entry's inputTokens
                # means input without them (as Claude's does), so they are taken out.
                entry["inputTokens"] = max(entry["inputTokens"] - entry["cachedTokens"], 0)
                # The summary fields in Qwen's meaning of its counts (contracts 1.5, 1.9).
                with_result_fields(entry, event)
        return entries

    def reset(self) -> None:
        self._claude.reset()


def create_stdout_parser() -> QwenStdoutParser:
    """A fresh stateful Qwen Code parser for one transcript."""
    return QwenStdoutParser()


def parse_stdout_line(line: str, ts: str) -> list[TranscriptEntry]:
    """One line on its own (prefer :func:`create_stdout_parser`)."""
    return QwenStdoutParser().parse_line(line, ts)
