"""Usernames in home-directory paths, masked before a transcript is shared.

The masking of entries and text; :mod:`linewise.render.privacy` wraps a renderer with it.
"""

from __future__ import annotations

import re
from typing import Any, Final, cast

from linewise_contracts.entries import TranscriptEntry

__all__ = ["censor_text", "censor_usernames"]

# /Users/name, /home/name and C:\Users\name: the name is the part worth hiding.
_HOME: Final = re.compile(r"""(?<![\w.-])((?:/Users/|/home/|[A-Za-z]:\\Users\\))([^/\\\s"':]+)""")
_TEXT_FIELDS: Final = ("text", "content")


def _mask(match: re.Match[str]) -> str:
    name = match.group(2)
    return f"{match.group(1)}{name[0]}****"


def _censor_value(value: Any) -> Any:
    """``value`` with home-path user names masked in every string, however deep.

    A loop with its own stack, not recursion: tool inputs may nest as deep as
    the contract allows (512 levels), past Python's recursion limit.
    """
    if type(value) is str:
        return _HOME.sub(_mask, value)
    if type(value) is not list and type(value) is not dict:
        return value
    root: Any = [] if type(value) is list else {}
    stack: list[tuple[Any, Any]] = [(value, root)]
    while stack:
        source, target = stack.pop()
        items = enumerate(source) if type(source) is list else source.items()
        for key, item in items:
            masked: Any = item
            if type(item) is str:
                masked = _HOME.sub(_mask, item)
            elif type(item) is list or type(item) is dict:
                masked = [] if type(item) is list else {}
                stack.append((item, masked))
            if type(target) is list:
                target.append(masked)
            else:
                target[key] = masked
    return root


def censor_usernames(entry: TranscriptEntry) -> TranscriptEntry:
    """``entry`` with user names in home paths masked (``/Users/dotta`` -> ``/Users/d****``).

    Text, content and tool inputs are masked; the entry passed in is not
    modified. The reference transcript builder offers the same, off by default.
    """
    changed: dict[str, Any] = {}
    for field in _TEXT_FIELDS:
        value = entry.get(field)
        if type(value) is str and _HOME.search(value):
            changed[field] = _HOME.sub(_mask, value)
    if entry["kind"] == "tool_call":
        changed["input"] = _censor_value(entry["input"])
    if not changed:
        return entry
    return cast("TranscriptEntry", {**entry, **changed})


def censor_text(text: str) -> str:
    """``text`` with user names in home-directory paths masked."""
    return _HOME.sub(_mask, text)
