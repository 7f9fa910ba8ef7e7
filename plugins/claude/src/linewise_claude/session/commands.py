"""Claude Code's slash commands in a session file: the markup a user record holds for one.

Typing ``/clear`` (or any slash command) writes a user record whose text is
markup, not words the person wrote::

    <command-name>/clear</command-name>
    <command-message>clear</command-message>
    <command-args></command-args>

It is shown as the command (a ``system`` entry, ``slash command /clear``), so
it is neither shown nor counted as the person's prompt.
"""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.extract import as_list, as_object

__all__ = ["record_text", "slash_command"]

_MARKUP_START: Final = "<command-"
# Longest command name or arguments shown; the markup is short, a longer one is cut.
_MAX_SHOWN: Final = 2000


def _between(text: str, start: str, end: str) -> str | None:
    at = text.find(start)
    if at < 0:
        return None
    at += len(start)
    stop = text.find(end, at)
    return text[at:stop] if stop >= 0 else None


def record_text(record: dict[str, Any]) -> str:
    """A user record's text: its content string, or its first text block's."""
    content = as_object(record.get("message")).get("content")
    if type(content) is str:
        return content
    for block in as_list(content):
        text = as_object(block).get("text")
        if type(text) is str:
            return text
    return ""


def slash_command(text: str) -> str | None:
    """``/clear ARGS`` when ``text`` is a slash command's markup (it starts with it), else None."""
    if not text.lstrip().startswith(_MARKUP_START):
        return None
    name = _between(text, "<command-name>", "</command-name>")
    if name is None or not name.strip():
        return None
    name = name.strip()
    if not name.startswith("/"):
        name = "/" + name
    arguments = (_between(text, "<command-args>", "</command-args>") or "").strip()
    return f"{name} {arguments}".strip()[:_MAX_SHOWN]
