"""Safe extraction helpers every parser needs: typed field access, JSON lines, content text."""

from __future__ import annotations

import json
import math
import re
from collections import OrderedDict
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any, Final, Generic, TypeVar

import orjson

from linewise_contracts.entries import DiffChangeType, JsonValue, TranscriptEntry
from linewise_contracts.validation import _MIN_INT, MAX_INT, _flat_json, json_problem

__all__ = [
    "BoundedMap",
    "as_bool",
    "as_int",
    "as_list",
    "as_number",
    "as_object",
    "as_string",
    "as_string_list",
    "content_text",
    "diff_entries",
    "dig",
    "error_text",
    "first_line",
    "iso_timestamp",
    "json_or_placeholder",
    "parse_json_object",
    "stdout_entries",
    "strip_ansi",
    "to_json_text",
    "truncate",
    "with_parent",
]


def as_string(value: object, fallback: str = "") -> str:
    """``value`` when it is a str, else ``fallback``."""
    return value if type(value) is str else fallback


def as_number(value: object, fallback: int | float = 0) -> int | float:
    """``value`` when it is a finite int or float (never a bool), else ``fallback``.

    An int stays an int (annotated ``int | float``, not ``float``, so that the
    mypyc-compiled module does not turn ``3`` into ``3.0``).

    An int beyond float range (a 400-digit token count) is not a number the
    contract allows, so it gives ``fallback`` too.
    """
    if type(value) is int:
        return value if _MIN_INT <= value <= MAX_INT else fallback
    if type(value) is float and math.isfinite(value):
        return value
    return fallback


def as_int(value: object, fallback: int = 0) -> int:
    """``value`` as an int when it is an int or a whole finite float, else ``fallback``.

    An int beyond float range gives ``fallback``, as in :func:`as_number`.
    """
    if type(value) is int:
        return value if _MIN_INT <= value <= MAX_INT else fallback
    if type(value) is float and math.isfinite(value) and value.is_integer():
        return int(value)
    return fallback


def as_bool(value: object, fallback: bool = False) -> bool:
    """``value`` when it is a bool, else ``fallback`` (no truthiness guessing)."""
    return value if type(value) is bool else fallback


def as_object(value: object) -> dict[str, Any]:
    """``value`` when it is a dict, else a new empty dict."""
    return value if type(value) is dict else {}


def as_list(value: object) -> list[Any]:
    """``value`` when it is a list, else a new empty list."""
    return value if type(value) is list else []


def as_string_list(value: object) -> list[str]:
    """The str items of ``value`` when it is a list, else an empty list."""
    if type(value) is not list:
        return []
    return [item for item in value if type(item) is str]


def dig(value: object, *path: str | int) -> Any:
    """Follow dict keys and list indexes through ``value``; None where the path breaks.

    ``dig(event, "message", "content", 0, "text")`` never raises, whatever
    shape ``event`` has.
    """
    for step in path:
        if type(value) is dict:
            value = value.get(step)
        elif type(value) is list and type(step) is int and -len(value) <= step < len(value):
            value = value[step]
        else:
            return None
    return value


def json_or_placeholder(value: object, what: str = "input") -> JsonValue:
    """``value`` when it is a plain JSON value the contract accepts, else a short text saying why.

    For values a parser passes through from agent output (a tool call's
    ``input``): a hostile line nested deeper than the contract's limit would
    otherwise make the whole entry invalid.
    """
    if _flat_json(value):  # the usual tool input, checked without the full walk
        return value  # type: ignore[return-value]
    problem = json_problem(value)
    if problem is None:
        return value  # type: ignore[return-value]
    return f"({what} not shown: it {problem})"


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def parse_json_object(line: str) -> dict[str, Any] | None:
    """The JSON object on ``line``, or None when the line is not one.

    Decodes with orjson (integers beyond 64 bits become floats, as in
    JavaScript); a line orjson refuses but the JSON grammar allows (a lone
    surrogate escape) gets a second chance with the stdlib decoder. NaN and
    Infinity are not JSON and are refused.
    """
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError:
        stripped = line.lstrip()
        if not stripped.startswith("{"):
            return None
        try:
            value = json.loads(stripped, parse_constant=_reject_constant)
        except (ValueError, RecursionError):
            return None
    return value if type(value) is dict else None


_ANSI: Final = re.compile(
    r"""
    \x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?     # OSC: title, hyperlink, clipboard ... up to BEL or ST
    | \x1b[P^_X][^\x1b]*(?:\x1b\\)?        # DCS, PM, APC, SOS strings up to ST
    | (?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?    # CSI: colours, cursor movement, erase
    | \x1b[ -/]*[0-~]?                     # two-character escapes (charset, keypad, reset)
    """,
    re.VERBOSE,
)


def strip_ansi(text: str) -> str:
    """``text`` without terminal escape sequences (CSI, OSC, DCS and the rest)."""
    if "\x1b" not in text and "\x9b" not in text:
        return text
    return _ANSI.sub("", text)


# Pretty text longer than this is checked against the compact form (see to_json_text).
_PRETTY_GROWTH_LIMIT: Final = 16 * 1024


def to_json_text(value: object, *, pretty: bool = False) -> str:
    """``value`` as JSON text; ``pretty`` indents by two spaces like ``JSON.stringify(v, null, 2)``.

    Values JSON cannot hold are written with ``repr``, and values nested too
    deeply to encode become a short placeholder, instead of raising. Pretty
    text more than four times the compact text (deep nesting: indentation
    grows with depth) is given compact, so a short line cannot balloon.
    """
    option = orjson.OPT_NON_STR_KEYS | (orjson.OPT_INDENT_2 if pretty else 0)
    try:
        text = orjson.dumps(value, option=option).decode()
    except (TypeError, orjson.JSONEncodeError):
        pass
    else:
        if pretty and len(text) > _PRETTY_GROWTH_LIMIT:
            # Indentation grows with depth: a deeply nested value would balloon.
            compact = orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
            if len(text) > 4 * len(compact):
                return compact
        return text
    try:
        # orjson refused: values JSON cannot hold, or nesting deeper than it goes.
        # The same rule: pretty only while it stays within four times the compact text.
        compact = json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=repr)
        if not pretty:
            return compact
        text = json.dumps(value, indent=2, ensure_ascii=False, default=repr)
    except (RecursionError, ValueError):
        # Deeper than the encoders go (hostile input), or a container holding itself.
        return f"<{type(value).__name__} nested too deeply to show>"
    return compact if len(text) > max(_PRETTY_GROWTH_LIMIT, 4 * len(compact)) else text


def _block_text(block: object, depth: int) -> str:
    if type(block) is str:
        return block
    if not isinstance(block, dict):
        return "" if block is None else to_json_text(block)
    text = block.get("text")
    if type(text) is str:
        return text
    kind = block.get("type")
    if kind == "image":
        media = dig(block, "source", "media_type")
        return f"[image: {media}]" if type(media) is str else "[image]"
    if kind == "tool_reference":
        name = block.get("tool_name")
        return f"[tool reference: {name}]" if type(name) is str else "[tool reference]"
    if "content" in block and depth < 8:
        return _content_text(block["content"], "\n", depth + 1)
    return to_json_text(block)


def _content_text(content: object, separator: str, depth: int) -> str:
    if type(content) is str:
        return content
    if isinstance(content, list):
        parts = [_block_text(block, depth) for block in content]
        return separator.join(part for part in parts if part)
    return _block_text(content, depth)


def content_text(content: object, *, separator: str = "\n") -> str:
    """Flatten message content to text.

    A str is itself; a list of content blocks joins the blocks' text with
    ``separator`` (text blocks give their text, images a placeholder, nested
    ``content`` is flattened, anything else its JSON); None is empty.
    """
    return _content_text(content, separator, 0)


def truncate(text: str, limit: int, *, marker: str = "…") -> str:
    """The first ``limit`` characters of ``text`` followed by ``marker`` when it is longer."""
    if len(text) <= limit:
        return text
    return text[: max(limit, 0)] + marker


def first_line(text: str) -> str:
    """The first line of ``text`` that is not blank, stripped; empty when there is none."""
    # A scan rather than splitlines(): tool output can be megabytes long.
    start, size = 0, len(text)
    while start < size:
        end = text.find("\n", start)
        if end == -1:
            end = size
        stripped = text[start:end].strip()
        if stripped:
            return stripped
        start = end + 1
    return ""


_HUNK: Final = re.compile(r"@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")
_FILE_HEADERS: Final = (
    "---",
    "+++",
    "diff ",
    "index ",
    "Index: ",
    "====",
    "new file",
    "deleted file",
    "similarity",
    "rename ",
    "old mode",
    "new mode",
    "Binary files",
)
# Lines left in a hunk whose header cannot be read: keep treating lines as its body.
_UNCOUNTED: Final = 1 << 30


def diff_entries(
    diff: str, ts: str, *, limit: int = 400, more: str = "more diff lines"
) -> list[TranscriptEntry]:
    """A unified diff as ``diff`` entries, one per line, at most ``limit`` then a marker.

    Lines are classified by where they stand, not only by their first
    character: inside a hunk (counted from its ``@@ -a,b +c,d @@`` header) a
    line starting with ``---`` is a removed line; outside one, a file header.
    """
    lines = diff.splitlines()
    entries: list[TranscriptEntry] = []
    old_left = new_left = 0
    for line in lines[:limit]:
        change: DiffChangeType
        first = line[:1]
        if (old_left > 0 or new_left > 0) and first in ("+", "-", " ", "\\", ""):
            if first == "+":
                change, new_left = "add", new_left - 1
            elif first == "-":
                change, old_left = "remove", old_left - 1
            else:
                change = "context"
                if first != "\\":  # "\ No newline at end of file" is not a line of either side
                    old_left, new_left = old_left - 1, new_left - 1
        elif line.startswith("@@"):
            change = "hunk"
            match = _HUNK.match(line)
            old_left = int(match.group(1) or 1) if match else _UNCOUNTED
            new_left = int(match.group(2) or 1) if match else _UNCOUNTED
        elif line.startswith(_FILE_HEADERS):
            change = "file_header"
        elif first == "+":
            change = "add"
        elif first == "-":
            change = "remove"
        else:
            change = "context"
        entries.append({"kind": "diff", "ts": ts, "changeType": change, "text": line})
    if len(lines) > limit:
        left = len(lines) - limit
        entries.append(
            {"kind": "diff", "ts": ts, "changeType": "truncation", "text": f"… {left} {more}"}
        )
    return entries


# -- helpers every plugin used to carry its own copy of ------------------------------


def stdout_entries(line: str, ts: str) -> list[TranscriptEntry]:
    """The line as one raw ``stdout`` entry: what a parser returns for a line it cannot read."""
    return [{"kind": "stdout", "ts": ts, "text": line}]


_ERROR_KEYS: Final = ("message", "error", "code", "detail")


def error_text(value: object, keys: Iterable[str] = _ERROR_KEYS) -> str:
    """A readable message from an error value.

    A str is itself; an object gives its first non-empty str field among
    ``keys`` (``message``, ``error``, ``code``, ``detail``), else its compact
    JSON; None gives ``""``.
    """
    if type(value) is str:
        return value
    if value is None:
        return ""
    if type(value) is dict:
        for key in keys:
            text = value.get(key)
            if type(text) is str and text:
                return text
    return to_json_text(value)


_K = TypeVar("_K")
_V = TypeVar("_V")


class BoundedMap(Generic[_K, _V]):
    """A dict that forgets its oldest keys past ``limit`` (O(1) per insertion).

    Parsers remember tool names by id, ids already streamed, and the like; a
    long run must not grow that memory without bound.
    """

    __slots__ = ("_items", "_limit")

    def __init__(self, limit: int = 4096) -> None:
        if limit < 1:
            raise ValueError("limit must be at least 1")
        self._items: OrderedDict[_K, _V] = OrderedDict()
        self._limit = limit

    def __setitem__(self, key: _K, value: _V) -> None:
        items = self._items
        if key in items:
            items.move_to_end(key)
        items[key] = value
        if len(items) > self._limit:
            items.popitem(last=False)

    def __getitem__(self, key: _K) -> _V:
        return self._items[key]

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: _K, default: _V | None = None) -> _V | None:
        """The value for ``key``, or ``default``."""
        return self._items.get(key, default)

    def pop(self, key: _K, default: _V | None = None) -> _V | None:
        """Remove ``key`` and return its value, or ``default``."""
        return self._items.pop(key, default)

    def clear(self) -> None:
        """Forget everything (a parser's ``reset``)."""
        self._items.clear()


_ISO: Final = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?"
    r"(Z|[+-]\d{2}:?\d{2})?"
)
# Epoch values between 2000 and 2200, in seconds or milliseconds.
_EPOCH_SECONDS: Final = (946_684_800, 7_258_118_400)


def iso_timestamp(value: object) -> str | None:
    """An event's own time as ISO 8601 UTC with milliseconds (``2026-11-22T10:00:00.000Z``).

    Accepts ISO 8601 text (any offset; no offset is read as UTC) and epoch
    seconds or milliseconds as numbers. Returns None for anything else, so a
    parser keeps the host's ``ts``. Deterministic: no clock is read.
    """
    if type(value) is str and _is_canonical(value):
        return value  # already the contract's form (most CLIs write it): nothing to redo
    return _normalised_timestamp(value)


def _is_canonical(value: str) -> bool:
    """True when ``value`` is a real moment written exactly as :func:`iso_timestamp` writes it."""
    if (
        len(value) != 24
        or value[23] != "Z"
        or value[19] != "."
        or value[10] != "T"
        or value[4] != "-"
        or value[7] != "-"
        or value[13] != ":"
        or value[16] != ":"
        or not value.isascii()
    ):
        return False
    try:
        # Digits where the shape has them, and a real date and time (no 31 November).
        datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


def _normalised_timestamp(value: object) -> str | None:
    """:func:`iso_timestamp` the long way: parse, convert to UTC, format."""
    moment: datetime | None = None
    if type(value) is str:
        if len(value) > 40:
            return None
        match = _ISO.fullmatch(value.strip())
        if match is None:
            return None
        year, month, day, hour, minute, second, fraction, zone = match.groups()
        micro = int((fraction or "0")[:6].ljust(6, "0"))
        try:
            moment = datetime(
                int(year), int(month), int(day), int(hour), int(minute), int(second or 0), micro
            )
            if zone and zone != "Z":
                sign = 1 if zone[0] == "+" else -1
                digits = zone[1:].replace(":", "")
                offset = sign * (int(digits[:2]) * 60 + int(digits[2:]))
                moment = moment.replace(tzinfo=UTC) - _minutes(offset)
            else:
                moment = moment.replace(tzinfo=UTC)
        except (ValueError, OverflowError):
            return None
    elif type(value) is int or type(value) is float:
        if not -1e300 < value < 1e300:  # also NaN; a huge int would overflow float()
            return None
        number = float(value)
        low, high = _EPOCH_SECONDS
        if low * 1000 <= number < high * 1000:
            number /= 1000
        if not low <= number < high:
            return None
        moment = datetime.fromtimestamp(number, UTC)
    if moment is None:
        return None
    moment = moment.astimezone(UTC)
    # Formatted by hand: strftime("%Y") does not pad years before 1000 on every platform.
    return (
        f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}T{moment.hour:02d}:"
        f"{moment.minute:02d}:{moment.second:02d}.{moment.microsecond // 1000:03d}Z"
    )


def _minutes(count: int) -> timedelta:
    return timedelta(minutes=count)


def with_parent(
    entries: list[TranscriptEntry], parent_tool_use_id: str | None
) -> list[TranscriptEntry]:
    """Mark ``entries`` as made by the subagent of tool call ``parent_tool_use_id`` (contract 1.1).

    Returns the same list, each entry given ``parentToolUseId``; a None or
    empty id leaves them on the main thread, unchanged.
    """
    if parent_tool_use_id:
        for entry in entries:
            entry["parentToolUseId"] = parent_tool_use_id
    return entries
