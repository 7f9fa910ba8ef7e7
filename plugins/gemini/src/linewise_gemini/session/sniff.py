"""How surely the first lines of a file are a chat Gemini CLI saved on disk.

Three shapes: the pretty-printed JSON document of ``session-*.json`` (``{``,
then ``"sessionId": ...`` and ``"projectHash": ...`` lines), the same document
on one line, and the record lines of a ``session-*.jsonl`` chat (or of
``session_records``): a header object with ``sessionId`` and ``projectHash``
and no ``type``, then messages ``{id, timestamp, type: user|gemini|info...}``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from linewise_contracts.extract import parse_json_object

__all__ = ["sniff"]

_MESSAGE_TYPES: Final = frozenset({"user", "gemini", "model", "info", "warning", "error"})
_DOCUMENT_KEYS: Final = ('"sessionId":', '"projectHash":', '"startTime":', '"messages":')


def _is_header(record: dict[str, Any]) -> bool:
    return (
        "type" not in record
        and type(record.get("sessionId")) is str
        and type(record.get("projectHash")) is str
    )


def _is_message(record: dict[str, Any]) -> bool:
    kind = record.get("type")
    return (
        type(kind) is str
        and kind in _MESSAGE_TYPES
        and type(record.get("id")) is str
        and type(record.get("timestamp")) is str
        and ("content" in record or "parts" in record)
    )


def _document_lines(lines: Sequence[str]) -> bool:
    """The opening of a pretty-printed chat document: ``{`` then its top-level keys."""
    if not lines or lines[0] != "{":
        return False
    keys = {key for line in lines[1:] for key in _DOCUMENT_KEYS if line.startswith(key)}
    return '"sessionId":' in keys and '"projectHash":' in keys


def sniff(lines: Sequence[str]) -> float:
    """0 to 1: how surely ``lines`` open a Gemini CLI chat file (see the module docstring)."""
    if _document_lines(lines):
        return 0.95
    headers = 0
    messages = 0
    other = 0
    for line in lines:
        record = parse_json_object(line)
        if record is None:
            other += 1
        elif _is_header(record):
            headers += 1
        elif _is_message(record):
            messages += 1
        elif not ("$set" in record and len(record) == 1):
            other += 1
    if headers and messages + headers > other:
        return 0.95
    if messages and not other:
        return 0.5  # messages alone could be another tool's export
    return 0.0
