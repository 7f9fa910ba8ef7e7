"""The runner parser's value rules (spec §2.4), with JavaScript's semantics kept exactly.

``str_`` accepts the empty string (it stops a fallback chain), ``first`` falls
back only on absent or null (JavaScript's ``??``), numbers are never booleans,
and cuts count UTF-16 code units as JavaScript's ``slice`` does.
"""

from __future__ import annotations

import json
import math
from typing import Any, Final

from linewise_contracts.validation import MAX_INT

__all__ = [
    "channel_of",
    "cut",
    "first",
    "item_id",
    "item_text",
    "js_number",
    "nnum",
    "norm_type",
    "ntext",
    "num",
    "obj",
    "str_",
    "stringify",
    "tool_failure",
    "trim_start",
]

DEFAULT_ITEM_ID: Final = "paperclip-runner-item"
_CHANNELS: Final = frozenset({"progress", "final", "summary", "detail"})
_FAILED_STATUSES: Final = frozenset({"failed", "error", "errored", "cancelled"})
# JavaScript's trimStart: every Unicode space separator, the line terminators and the BOM.
_JS_SPACE: Final = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def obj(value: object) -> dict[str, Any]:
    """``value`` when it is a JSON object, else ``{}``."""
    return value if type(value) is dict else {}


def str_(value: object, fallback: str | None = "") -> str:
    """``value`` when it is a str (``""`` included), else ``fallback`` (``""`` for None)."""
    if type(value) is str:
        return value
    return fallback if fallback is not None else ""


def first(*values: object) -> object:
    """The first value that is neither absent nor null (JavaScript's ``a ?? b ?? c``)."""
    for value in values:
        if value is not None:
            return value
    return None


def _finite(value: object) -> bool:
    kind = type(value)
    if kind is int:
        return -MAX_INT <= value <= MAX_INT  # type: ignore[operator]
    return kind is float and math.isfinite(value)  # type: ignore[arg-type]


def js_number(value: int | float) -> int | float:
    """A number as JavaScript prints it: ``2.0`` is ``2``."""
    if type(value) is float and value.is_integer() and abs(value) <= MAX_INT:
        return int(value)
    return value


def num(value: object) -> int | float:
    """A finite number (never a bool), else 0."""
    return js_number(value) if _finite(value) else 0  # type: ignore[arg-type]


def nnum(value: object) -> int | float | None:
    """A finite number at least 0 (never a bool), else None."""
    if _finite(value) and value >= 0:  # type: ignore[operator]
        return js_number(value)  # type: ignore[arg-type]
    return None


def ntext(value: object) -> str | None:
    """A non-empty str, else None."""
    return value if type(value) is str and value else None


def cut(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` UTF-16 code units, as JavaScript's ``slice(0, limit)``.

    A cut inside a surrogate pair drops the half character (JavaScript would
    keep a lone surrogate, which no UTF-8 output can carry).
    """
    if len(text) <= limit // 2:
        return text
    encoded = text.encode("utf-16-le", "surrogatepass")
    if len(encoded) <= 2 * limit:
        return text
    return encoded[: 2 * limit].decode("utf-16-le", "ignore")


def trim_start(text: str) -> str:
    """JavaScript's ``trimStart`` (which, unlike ``str.lstrip``, also strips U+FEFF)."""
    return text.lstrip(_JS_SPACE)


def norm_type(text: str) -> str:
    """``agent_message``, ``agentMessage`` and ``AgentMessage`` all become ``agentmessage``."""
    return text.replace("_", "").lower()


def _js_ordered(value: object) -> object:
    """``value`` with JavaScript's key order (integer-like keys first, ascending) and
    integral floats as ints, for output that matches ``JSON.stringify``."""
    if type(value) is dict:
        indexes = sorted((int(k), k) for k in value if _array_index(k))
        keys = [k for _, k in indexes] + [k for k in value if not _array_index(k)]
        return {key: _js_ordered(value[key]) for key in keys}
    if type(value) is list:
        return [_js_ordered(item) for item in value]
    if type(value) is float:
        return js_number(value)
    return value


def _array_index(key: object) -> bool:
    return (
        type(key) is str
        and key.isascii()
        and key.isdigit()
        and (key == "0" or key[0] != "0")
        and int(key) < 2**32 - 1
    )


def ordered_keys(value: dict[str, Any]) -> list[str]:
    """The keys of ``value`` in JavaScript's enumeration order."""
    indexes = sorted((int(key), key) for key in value if _array_index(key))
    return [key for _, key in indexes] + [key for key in value if not _array_index(key)]


def stringify(value: object) -> str:
    """A str as it is, nullish as ``""``, anything else as 2-space JSON (JavaScript's order)."""
    if type(value) is str:
        return value
    if value is None:
        return ""
    try:
        return json.dumps(_js_ordered(value), indent=2, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return str(value)


def item_text(item: dict[str, Any], payload: dict[str, Any]) -> str:
    """An item's text: ``item.text``, else ``payload.text``, else its summary parts joined."""
    text = str_(item.get("text"), str_(payload.get("text")))
    if text:
        return text
    summary = item.get("summary")
    if type(summary) is not list:
        return ""
    parts = []
    for part in summary:
        piece = str_(part.get("text")) if type(part) is dict else str_(part)
        if piece:
            parts.append(piece)
    return "\n".join(parts)


def item_id(event: dict[str, Any], item: dict[str, Any]) -> str:
    """``event.itemId``, else ``item.id``, else ``paperclip-runner-item``."""
    return str_(event.get("itemId"), str_(item.get("id"), DEFAULT_ITEM_ID))


def channel_of(payload: dict[str, Any]) -> str:
    """``payload.channel`` when it is progress, final, summary or detail; else ``unknown``."""
    channel = payload.get("channel")
    return channel if type(channel) is str and channel in _CHANNELS else "unknown"


def tool_failure(item: dict[str, Any]) -> bool:
    """True when the item says it failed (an error flag, a non-zero exit, a failed status)."""
    if item.get("isError") is True or item.get("is_error") is True:
        return True
    if item.get("success") is False:
        return True
    code = first(item.get("exitCode"), item.get("exit_code"))
    if _finite(code) and code != 0:
        return True
    return str_(item.get("status")).lower() in _FAILED_STATUSES


def number_text(value: int | float) -> str:
    """A number as JavaScript's template literal writes it (``1``, ``1.5``)."""
    value = js_number(value)
    return str(value) if type(value) is int else repr(value)
