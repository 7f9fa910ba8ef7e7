"""The jsonl format: each entry as one line of JSON, exactly as the parser produced it."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import IO, Any, Final

import orjson
from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.summary import RunSummary

__all__ = ["JsonlRenderer", "entry_json"]

_dumps: Final = orjson.dumps
_APPEND_NEWLINE: Final = orjson.OPT_APPEND_NEWLINE


def entry_json(entry: Mapping[str, Any]) -> bytes:
    """One entry as compact JSON bytes (lone surrogates written as ``\\ud8xx`` escapes)."""
    try:
        return orjson.dumps(entry)
    except (TypeError, orjson.JSONEncodeError):
        return json.dumps(entry, ensure_ascii=True, separators=(",", ":")).encode()


class JsonlRenderer:
    """Each entry as one line of JSON (deltas unmerged); the output is data, not a display."""

    #: The run's summary is not drawn (it is not an entry), so callers need not compute it.
    draws_summary = False

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream
        # Looked up once: write() runs for every entry.
        self._write: Callable[[bytes], object] = stream.write

    def write(self, entry: TranscriptEntry) -> None:
        try:
            line = _dumps(entry, option=_APPEND_NEWLINE)
        except (TypeError, orjson.JSONEncodeError):
            line = entry_json(entry) + b"\n"
        self._write(line)

    def close(self, *, summary: RunSummary | None = None) -> None:
        # The summary is not an entry: the entry stream stays exactly the parser's.
        self._stream.flush()
