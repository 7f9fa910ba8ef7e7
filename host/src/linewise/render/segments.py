"""What a renderer hands its medium's writer: ``(role, text)`` segments of raw text.

A renderer decides what is shown and in which role (assistant text, a tool
call, an error, a muted note); the text of a segment is the agent's or the
host's as it is, not yet neutralised or escaped. One writer per medium turns
segments into output and is the only code that neutralises
(:func:`linewise.settings.sanitising.neutralize`) and escapes:
:mod:`linewise.render.terminal` for the text and compact styles,
:mod:`linewise.render.markdown_text` for Markdown, :mod:`linewise.render.html.markup`
for HTML. So a new view cannot forget to neutralise, and no text is escaped
twice (tests/host/render/test_segments.py checks both).
"""

from __future__ import annotations

from typing import Final, Literal, TypeAlias

__all__ = ["NEWLINE", "ROLES", "Role", "Segment"]

#: What a piece of output is; the terminal writer colours it by this
#: (:data:`linewise.render.colours.COLOURS`). A plugin's compact roles
#: (``linewise_contracts.protocols.CompactRole``) are all here.
Role: TypeAlias = Literal[
    "lifecycle",
    "assistant",
    "thinking",
    "input",
    "tool",
    "tool_name",
    "result",
    "error",
    "heading",
    "user",
    "emphasis",
    "muted",
    "plain",
]
ROLES: Final[tuple[Role, ...]] = (
    "lifecycle",
    "assistant",
    "thinking",
    "input",
    "tool",
    "tool_name",
    "result",
    "error",
    "heading",
    "user",
    "emphasis",
    "muted",
    "plain",
)

#: One piece of output: its role and its raw text (a plain tuple: segments are made
#: for every entry, and a tuple is the cheapest thing to make).
Segment: TypeAlias = tuple[Role, str]

#: The end of a line.
NEWLINE: Final[Segment] = ("plain", "\n")
