"""Where Gemini CLI keeps its chats, and one chat as the record lines ``gemini_session`` reads.

Gemini CLI records each chat under ``~/.gemini/tmp/<project hash>/chats/``:
older versions as one JSON document per session (``session-*.json``,
``{sessionId, projectHash, startTime, lastUpdated, messages: [...]}``), newer
ones as JSON lines (``session-*.jsonl``: a header line with the session's
fields, then one line per message, and ``{"$set": {...}}`` lines updating the
header's fields).

:func:`session_records` turns either into the same lines: first the session's
own fields (everything but ``messages``) as one JSON line, then one compact
JSON line per message, in order. Two things are synthesised, both documented:

- when the session's fields name no ``model``, the header line gets the
  ``model`` of the first message that names one (so the ``init`` entry can
  say which model ran);
- a JSON-lines message written again under the same ``id`` (an update of a
  message already recorded) replaces the earlier one, in the earlier one's place.

A file that is neither (a truncated document, say) comes back line by line as
it is, so the parser shows what it cannot read instead of losing it; so does
a document too big to hold whole (past ``MAX_DOCUMENT_CHARS``). Every line is
bounded (``record_lines``): a longer one reaches the host cut, with its marker.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Final

from linewise_contracts.extract import parse_json_object, to_json_text
from linewise_contracts.sessions import SessionStore, read_document, record_lines, store_root

__all__ = ["session_records", "session_stores"]

_PATTERNS: Final = ("tmp/*/chats/session-*.json", "tmp/*/chats/session-*.jsonl")


def session_stores(environ: Mapping[str, str], home: Path) -> list[SessionStore]:
    """Gemini CLI's chats: ``~/.gemini/tmp/*/chats/session-*.json`` (and ``.jsonl``)."""
    del environ  # Gemini CLI documents no variable moving its ~/.gemini directory
    return [SessionStore("gemini", store_root(None, home, ".gemini"), _PATTERNS)]


def _with_model(header: dict[str, Any], messages: list[Any]) -> dict[str, Any]:
    meta = header.get("meta")
    if type(header.get("model")) is str or (type(meta) is dict and type(meta.get("model")) is str):
        return header
    for message in messages:
        model = message.get("model") if type(message) is dict else None
        if type(model) is str and model:
            return {**header, "model": model}
    return header


def _document_records(document: dict[str, Any]) -> Iterator[str]:
    messages = document.get("messages")
    items = messages if type(messages) is list else []
    header = {key: value for key, value in document.items() if key != "messages"}
    yield to_json_text(_with_model(header, items))
    for message in items:
        yield to_json_text(message)


def _jsonl_records(lines: list[str]) -> Iterator[str]:
    header: dict[str, Any] | None = None
    records: list[str | dict[str, Any]] = []
    where: dict[str, int] = {}
    for line in lines:
        record = parse_json_object(line)
        if record is None:
            records.append(line)
            continue
        ident = record.get("id")
        if header is None and not records and "type" not in record and "sessionId" in record:
            header = record
        elif type(ident) is str and type(record.get("type")) is str and ident in where:
            records[where[ident]] = record  # a message written again: the later version
        else:
            if type(ident) is str and type(record.get("type")) is str:
                where[ident] = len(records)
            records.append(record)
    if header is not None:
        messages = [item for item in records if type(item) is dict]
        yield to_json_text(_with_model(header, messages))
    for item in records:
        yield item if type(item) is str else to_json_text(item)


def session_records(path: Path, key: str | None = None) -> Iterator[str]:
    """The chat at ``path`` as record lines (see the module docstring); ``key`` is not used."""
    del key  # one session per file
    text = read_document(path)  # None past MAX_DOCUMENT_CHARS: then read as (bounded) lines
    if text is not None and text.lstrip().startswith("{"):
        try:
            document = json.loads(text)
        except ValueError:  # JSON lines, or a damaged document
            document = None
        if type(document) is dict and type(document.get("messages")) is list:
            del text
            yield from _document_records(document)
            return
    del text
    yield from _jsonl_records(list(record_lines(path)))
