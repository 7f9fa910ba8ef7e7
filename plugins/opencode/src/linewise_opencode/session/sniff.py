"""How surely the first lines of a file are an OpenCode session store or export.

Four shapes: OpenCode's SQLite database read as text (the ``SQLite format 3``
header, then its schema, written by drizzle with backquoted names such as
```session_id` text NOT NULL``), a session export (``[{"info": {...,
"sessionID": "ses_..."}, "parts": [...]}]`` on one line, or pretty-printed),
a session file of the older JSON storage (``{"id": "ses_...", "projectID": ...,
"directory": ...}``), and the record lines ``session_records`` yields.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from linewise_contracts.extract import as_string, dig, parse_json_object

__all__ = ["sniff"]

# Table and column definitions of OpenCode's schema, as they appear in the database's first page.
_SCHEMA_MARKS: Final = (
    "CREATE TABLE `session`",
    "CREATE TABLE `message`",
    "CREATE TABLE `part`",
    "CREATE TABLE `project`",
    "CREATE TABLE `event_sequence`",
    "CREATE TABLE `session_share`",
    "CREATE TABLE `todo`",
    "tablecontrol_accountcontrol_account",
    "`session_id` text NOT NULL",
    "`project_id` text NOT NULL",
    "`message_id` text NOT NULL",
    "`aggregate_id` text NOT NULL",
)


def _database(lines: Sequence[str]) -> bool:
    if not lines or not lines[0].startswith("SQLite format 3"):
        return False
    marks = {mark for line in lines for mark in _SCHEMA_MARKS if mark in line}
    return len(marks) >= 2


def _pretty_export(lines: Sequence[str]) -> bool:
    if not lines or lines[0] not in ("[", "{"):
        return False
    has_info = any(line.startswith('"info": {') for line in lines)
    has_session = any(line.startswith('"sessionID": "ses_') for line in lines)
    return has_info and has_session


def _storage_session(lines: Sequence[str]) -> bool:
    """A session file of the JSON storage, on one line or pretty-printed."""
    if not lines:
        return False
    record = parse_json_object(lines[0])
    if record is not None:
        return (
            isinstance(record.get("id"), str)
            and isinstance(record.get("projectID"), str)
            and isinstance(record.get("directory"), str)
            and isinstance(record.get("time"), dict)
        )
    keys = ('"id": "', '"projectID": "', '"directory": "', '"time": {')
    found = {key for line in lines for key in keys if line.startswith(key)}
    return lines[0] == "{" and len(found) == len(keys)


def _records(lines: Sequence[str]) -> float:
    session = 0
    messages = 0
    for line in lines:
        if line.startswith('[{"info":'):
            return 0.95 if '"sessionID":"ses_' in line else 0.0  # a one-line export
        record = parse_json_object(line)
        if record is None:
            return 0.0
        if record.get("type") in ("session", "subagent") and isinstance(
            record.get("session"), dict
        ):
            session += 1
        elif isinstance(record.get("info"), dict) and isinstance(record.get("parts"), list):
            role = dig(record, "info", "role")
            if role not in ("user", "assistant"):
                return 0.0
            messages += as_string(dig(record, "info", "id")).startswith("msg_")
        else:
            return 0.0
    if session and messages:
        return 0.95
    return 0.5 if messages else 0.0


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``lines`` open an OpenCode database, export or session records."""
    if _database(lines) or _pretty_export(lines) or _storage_session(lines):
        return 0.95
    return _records(lines)
