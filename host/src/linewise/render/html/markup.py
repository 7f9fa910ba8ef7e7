"""Agent text made inert for HTML, and the little Markdown agents use, in linear time."""

from __future__ import annotations

import re
from html import escape
from typing import Final

from linewise.render.bounds import HTML_TEXT_LIMIT, shorten
from linewise.settings.sanitising import neutralize

__all__ = ["escaped", "line_count", "lines_label", "markdown", "number", "shortened"]

# Linear: a fence opener, then the shortest body up to the next fence or the end.
# Each match consumes its text, and a failed opener fails at its first newline or backtick.
_FENCE: Final = re.compile(r"```[^\n`]*\n(.*?)(?:```|$)", re.DOTALL)
# Linear: one character class between two backticks, no nesting quantifiers.
_INLINE_CODE: Final = re.compile(r"`([^`\n]+)`")
_HINT: Final = "linewise render -f jsonl shows all of it"


def escaped(value: object) -> str:
    """Agent text made inert for HTML: control sequences neutralised, then escaped."""
    return escape(neutralize(value if isinstance(value, str) else str(value)), quote=True)


def shortened(text: str, limit: int = HTML_TEXT_LIMIT) -> str:
    """``text`` escaped, cut at ``limit`` characters with a note saying how much was left out."""
    return escaped(shorten(text, limit, hint=_HINT))


def markdown(text: str) -> str:
    """Escaped ``text`` with code fences, inline code and bold drawn as markup.

    It only wraps text that is already escaped in fixed tags, so it cannot
    introduce markup of the agent's choosing.
    """
    out: list[str] = []
    last = 0
    for fence in _FENCE.finditer(text):
        out.append(_inline(text[last : fence.start()]))
        out.append(f'<pre class="code">{fence.group(1).rstrip(chr(10))}</pre>')
        last = fence.end()
    out.append(_inline(text[last:]))
    return "".join(out)


def _inline(text: str) -> str:
    return "\n".join(_bold(line) for line in _INLINE_CODE.sub(r"<code>\1</code>", text).split("\n"))


def _bold(line: str) -> str:
    """``**text**`` as <strong>, in one left-to-right pass (a regex here went quadratic).

    An opener is ``**`` followed by a non-space; it closes at the next ``**``
    preceded by a non-space with something in between. When an opener finds no
    closer, no later opener on the line can (any closer would have served the
    first), so the scan stops.
    """
    if "**" not in line:
        return line
    out: list[str] = []
    position = 0
    size = len(line)
    while True:
        start = line.find("**", position)
        if start == -1 or start + 2 >= size:
            break
        if line[start + 2].isspace():
            out.append(line[position : start + 1])
            position = start + 1
            continue
        close = line.find("**", start + 3)
        while close != -1 and line[close - 1].isspace():
            close = line.find("**", close + 1)
        if close == -1:
            break
        out.append(line[position:start])
        out.append(f"<strong>{line[start + 2 : close]}</strong>")
        position = close + 2
    out.append(line[position:])
    return "".join(out)


def line_count(text: str) -> int:
    body = text.rstrip("\n")
    return body.count("\n") + 1 if body else 0


def lines_label(count: int) -> str:
    return "1 line" if count == 1 else f"{count:,} lines"


def number(value: float) -> str:
    if isinstance(value, float) and not value.is_integer():
        return f"{value:,.1f}"
    return f"{int(value):,}"
