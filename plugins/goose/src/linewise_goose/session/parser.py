"""A Goose session's records (see :mod:`linewise_goose.session.store`) to TranscriptEntries.

The messages are goose Messages, read by the stream parser
(:class:`~linewise_goose.parser.GooseStdoutParser`) as ``goose run``'s message
events are; the session record becomes the ``init`` and a few notes.
"""

from __future__ import annotations

from typing import Any

from linewise_contracts.entries import InitEntry, TranscriptEntry
from linewise_contracts.extract import as_object, as_string, iso_timestamp, parse_json_object

from linewise_goose.parser import GooseStdoutParser

# The sniff is defined in its own module, which detection imports alone (named here too).
from linewise_goose.session.sniff import session_sniff
from linewise_goose.session.store import SESSION_RECORD

__all__ = ["GooseSessionParser", "create_stdout_parser", "session_model", "session_sniff"]


def session_model(session: dict[str, Any]) -> str:
    """The model a session row names (``model_config.model_name``), or ""."""
    config = as_object(session.get("model_config"))
    return as_string(config.get("model_name")) or as_string(config.get("model"))


class GooseSessionParser:
    """One Goose session: its row (or metadata line), then its messages in order.

    Entries take their message's ``created`` time; before the first, the
    session's ``created_at``.
    """

    __slots__ = ("_messages", "_ts")

    def __init__(self) -> None:
        self._messages = GooseStdoutParser()
        self._ts: str | None = None

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        record = parse_json_object(line)
        if record is not None and record.get("type") == SESSION_RECORD:
            return self._start(as_object(record.get("session")), ts)
        if record is not None and record.get("type") == "message":
            self._ts = iso_timestamp(as_object(record.get("message")).get("created")) or self._ts
        return self._messages.parse_line(line, self._ts or ts)

    def _start(self, session: dict[str, Any], ts: str) -> list[TranscriptEntry]:
        self._ts = iso_timestamp(session.get("created_at")) or self._ts
        at = self._ts or ts
        entry: InitEntry = {
            "kind": "init",
            "ts": at,
            "model": session_model(session),
            "sessionId": as_string(session.get("id")),
        }
        cwd = as_string(session.get("working_dir"))
        if cwd:
            entry["cwd"] = cwd
        entries: list[TranscriptEntry] = [entry]
        title = as_string(session.get("name")) or as_string(session.get("description"))
        if title:
            entries.append({"kind": "system", "ts": at, "text": f"title: {title}"})
        kind = as_string(session.get("session_type"))
        if kind and kind != "user":
            entries.append({"kind": "system", "ts": at, "text": f"session type: {kind}"})
        return entries

    def reset(self) -> None:
        self._messages.reset()
        self._ts = None


def create_stdout_parser() -> GooseSessionParser:
    """A fresh parser for one Goose session."""
    return GooseSessionParser()
