"""Claude Code's older output shapes, as the stream-json events the parser reads.

- Before 1.0 (until May 2025) ``--output-format stream-json`` wrote bare
  Anthropic API messages, one a line, with no envelope: the assistant's
  ``{"id": "msg_...", "type": "message", "role": "assistant", "content",
  "usage", ...}``, the user's ``{"role": "user", "content": [tool_result
  ...]}``, and last ``{"role": "system", "cost_usd", "duration_ms",
  "duration_api_ms", "num_turns"?, "result"?, "session_id"?, "is_error"?}``.
- ``--output-format json`` writes one document: the final ``result`` object
  (read as it is), or with ``--verbose`` a JSON array of every message.

:func:`modern_event` wraps a bare message in today's envelope
(``{"type": "assistant", "message": ...}``, the system line as a
``result``), and :func:`document_events` splits an array into its messages.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Final

import orjson

__all__ = ["LegacyUsage", "document_events", "is_legacy_event", "modern_event", "modern_lines"]

_RESULT_KEYS: Final = ("duration_ms", "duration_api_ms", "num_turns", "session_id", "result")
_USAGE_KEYS: Final = (
    "input_tokens",
    "output_tokens",
    "cache_read_input_tokens",
    "cache_creation_input_tokens",
)
# Message ids remembered so a repeated message counts once (bounded for a long run).
_REMEMBERED: Final = 4096


class LegacyUsage:
    """The pre-1.0 stream's tokens: its final system line has none, so they are the sum
    of the assistant messages' ``usage`` (once per message id), as the API billed them."""

    __slots__ = ("_seen", "totals")

    def __init__(self) -> None:
        self._seen: set[str] = set()
        self.totals: dict[str, int] = {}

    def add(self, event: dict[str, Any]) -> None:
        if event.get("role") != "assistant" or type(event.get("usage")) is not dict:
            return
        ident = event.get("id")
        if type(ident) is str:
            if ident in self._seen:
                return
            if len(self._seen) >= _REMEMBERED:
                self._seen.clear()
            self._seen.add(ident)
        for key in _USAGE_KEYS:
            value = event["usage"].get(key)
            if type(value) is int and 0 <= value < 2**53:
                self.totals[key] = self.totals.get(key, 0) + value

    def take(self) -> dict[str, int] | None:
        """The sum so far (None when no message reported any), and start again."""
        totals, self.totals = self.totals, {}
        self._seen.clear()
        return totals or None


def is_legacy_event(event: dict[str, Any]) -> bool:
    """A bare API message of the pre-1.0 stream (no envelope of today's types)."""
    kind = event.get("type")
    role = event.get("role")
    if kind == "message":
        return role == "assistant"
    if kind is not None:
        return False
    if role == "system":
        return "cost_usd" in event or "duration_ms" in event
    return role in ("user", "assistant") and "content" in event


def modern_event(event: dict[str, Any], usage: LegacyUsage | None = None) -> dict[str, Any]:
    """``event`` in today's envelope when it is a pre-1.0 bare message, else ``event``.

    With ``usage``, an assistant message's tokens are added to it and the final
    system line (a ``result``) carries their sum.
    """
    if not is_legacy_event(event):
        return event
    if usage is not None:
        usage.add(event)
    role = event.get("role")
    if role != "system":
        modern: dict[str, Any] = {"type": role, "message": event}
        if "session_id" in event:
            modern["session_id"] = event["session_id"]
        return modern
    failed = event.get("is_error") is True
    result: dict[str, Any] = {
        "type": "result",
        "subtype": "error_during_execution" if failed else "success",
        "is_error": failed,
        "total_cost_usd": event.get("cost_usd"),
    }
    result.update((key, event[key]) for key in _RESULT_KEYS if key in event)
    totals = usage.take() if usage is not None else None
    if totals is not None:
        result["usage"] = totals
    return result


def document_events(line: str) -> list[dict[str, Any]] | None:
    """The messages of a ``--output-format json --verbose`` array on ``line``, or None."""
    if not line.lstrip().startswith("["):
        return None
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    if type(value) is not list or not value or not all(type(item) is dict for item in value):
        return None
    return value


def _maybe_legacy(line: str) -> bool:
    # Today's events open with "type"; a bare message opens with "id" or "role".
    text = line.lstrip()
    return text.startswith("{") and not text.startswith('{"type"') and '"role"' in text


def _lines_of(line: str, events: list[dict[str, Any]], usage: LegacyUsage) -> list[str]:
    """``events`` as one JSON line each; ``[line]`` when one cannot be written back
    (orjson refuses ints beyond 64 bits and nesting deeper than 254 levels)."""
    try:
        return [orjson.dumps(modern_event(event, usage)).decode() for event in events]
    except (TypeError, orjson.JSONEncodeError):
        return [line]


def modern_lines(lines: Iterable[str]) -> Iterator[str]:
    """``lines`` with bare messages re-enveloped and arrays split, one event a line."""
    usage = LegacyUsage()
    for line in lines:
        events = document_events(line) if line.lstrip().startswith("[") else None
        if events is None and _maybe_legacy(line):
            try:
                event = orjson.loads(line)
            except orjson.JSONDecodeError:
                event = None
            if type(event) is dict and is_legacy_event(event):
                events = [event]
        if events is None:
            yield line
        else:
            yield from _lines_of(line, events, usage)
