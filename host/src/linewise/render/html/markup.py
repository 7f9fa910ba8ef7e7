"""The HTML writer: text neutralised and escaped once, in the form the page shows it.

The html/ renderers write the page's fixed markup and hand every piece of text
(the agent's, a plugin's or the host's) to this module raw, in the form it
takes: :func:`escaped` (text of an element or an attribute), :func:`shortened`
(the same, cut with a note), :func:`markdown` (the little Markdown agents use,
drawn as markup) or :func:`data_text` (a string of the page's JSON summary, which
:func:`script_json` writes). Each neutralises (control sequences shown, not
acted on) and then escapes; this is the only module of the page that does.
"""

from __future__ import annotations

import json
import re
from html import escape
from typing import Final

from linewise.render.bounds import HTML_TEXT_LIMIT, shorten
from linewise.settings.sanitising import neutralize

__all__ = [
    "data_text",
    "escaped",
    "line_count",
    "lines_label",
    "markdown",
    "number",
    "script_json",
    "shortened",
]

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


def data_text(text: str) -> str:
    """``text`` for the page's JSON summary: neutralised (:func:`script_json` escapes it)."""
    return neutralize(text)


def script_json(value: object) -> str:
    """JSON that cannot end its <script> element or open a comment inside it."""
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"), default=repr)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def markdown(text: str, limit: int = HTML_TEXT_LIMIT) -> str:
    """``text`` shortened and escaped, with code fences, inline code and bold drawn as markup.

    The markup only wraps text already escaped in fixed tags, so it cannot
    introduce markup of the agent's choosing.
    """
    text = shortened(text, limit)
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
