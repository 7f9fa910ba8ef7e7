"""The Markdown writer: raw text made into Markdown by its form, neutralised and escaped once.

The Markdown renderer decides what is shown and in which form: ``inline``
(a heading, a label, a list item: every special character escaped, HTML as
entities), ``code`` (inline code), ``prose`` (the agent's Markdown kept
readable but unable to break out of its quote) or ``fence`` (a fenced block,
its fence longer than any backtick run inside). Each form neutralises its raw
text (:func:`linewise.settings.sanitising.neutralize`) and escapes it by its
rules exactly once; this module is the only place Markdown text is neutralised
or escaped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from linewise.settings.sanitising import neutralize

__all__ = [
    "SHOWN_CHARS",
    "SHOWN_LINES",
    "code",
    "diff_fence",
    "fence",
    "inline",
    "prose",
    "shorten",
]

#: Lines of a tool result, input or file shown unless ``full``.
SHOWN_LINES: Final = 40
#: Characters of one such line shown unless ``full``.
SHOWN_CHARS: Final = 2000

_BACKTICKS: Final = re.compile(r"`+")
# Characters that mean something to Markdown inline, and the HTML ones.
_INLINE_SPECIAL: Final = re.compile(r"([\\`*_\[\]|~#])")
_HTML: Final = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_HTML_CHARS: Final = re.compile(r"[&<>]")
# A line of prose that Markdown would read as structure of ours: a heading, a thematic
# break or setext underline, a link reference definition.
_LINE_START: Final = re.compile(r"^( {0,3})(#|=+\s*$|-{3,}\s*$|\*{3,}\s*$|_{3,}\s*$|\[)")
# A fence the agent's prose opens or closes (its code keeps its own characters).
_FENCE: Final = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_LANGUAGE: Final = re.compile(r"[A-Za-z0-9+#-]{1,20}")


def shorten(text: str, full: bool) -> str:
    """``text`` cut to what is shown, saying how much was left out (it escapes nothing)."""
    if full:
        return text
    lines = text.split("\n")
    note = []
    if len(lines) > SHOWN_LINES:
        note.append(f"{len(lines) - SHOWN_LINES:,} more lines")
        lines = lines[:SHOWN_LINES]
    cut = 0
    for index, line in enumerate(lines):
        if len(line) > SHOWN_CHARS:
            cut += len(line) - SHOWN_CHARS
            lines[index] = line[:SHOWN_CHARS] + " …"
    if cut:
        note.append(f"{cut:,} characters of long lines")
    shown = "\n".join(lines)
    if note:
        shown += f"\n… {' and '.join(note)} not shown (--full shows all)"
    return shown


def _fenced(text: str, language: str) -> list[str]:
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    mark = "`" * max(3, longest + 1)
    language = language if _LANGUAGE.fullmatch(language) else ""
    return [mark + language, *text.split("\n"), mark]


def fence(
    text: str, language: str = "", *, full: bool = True, omit_empty: bool = False
) -> list[str]:
    """``text`` as a fenced code block, neutralised, then shortened unless ``full``.

    The fence is longer than any backtick run inside, so nothing in ``text`` can
    close it; the language is a plain word or nothing. With ``omit_empty`` a
    text that shows nothing (it held only colour codes) makes no block.
    """
    shown = neutralize(text)
    if omit_empty and not shown:
        return []
    return _fenced(shorten(shown, full), language)


def diff_fence(lines: Iterable[tuple[str, str]], full: bool) -> list[str]:
    """Diff lines, each ``(marker, text)``, as one ``diff`` block; the marker (``+``,
    ``-``, `` `` or nothing) is added where the text, neutralised, does not start with it."""
    shown = []
    for marker, text in lines:
        line = neutralize(text)
        shown.append(marker + line if marker and not line.startswith(marker) else line)
    return _fenced(shorten("\n".join(shown), full), "diff")


def inline(text: str) -> str:
    """``text`` for one line of Markdown (a heading, a label): every special character
    escaped, HTML as entities, line breaks as spaces."""
    text = neutralize(text).replace("\r", " ").replace("\n", " ")
    text = _INLINE_SPECIAL.sub(r"\\\1", text)
    return _HTML_CHARS.sub(lambda m: _HTML[m.group()], text)


def code(text: str) -> str:
    """``text`` as inline code, delimited by more backticks than it holds."""
    text = neutralize(text).replace("\r", " ").replace("\n", " ")
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    mark = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{mark}{pad}{text}{pad}{mark}"


def prose(text: str) -> list[str]:
    """Agent prose (Markdown, usually) kept readable, but unable to break out of the
    quote it is drawn in: outside its code blocks, HTML becomes entities and lines
    Markdown would read as headings, rules or link definitions are escaped; a code
    block it leaves open ends with the quote. Emphasis, lists, links and code render."""
    lines = []
    opened: str | None = None  # the fence of the agent's open code block
    for line in neutralize(text.rstrip()).split("\n"):
        mark = _FENCE.match(line)
        if opened is not None:
            fence_mark = mark.group(1) if mark else ""
            closes = fence_mark[:1] == opened[0] and len(fence_mark) >= len(opened)
            if closes and mark and not line[mark.end() :].strip():
                opened = None
            lines.append(line)
            continue
        if mark and not (mark.group(1)[0] == "`" and "`" in line[mark.end() :]):
            opened = mark.group(1)
            lines.append(line)
            continue
        escaped = _HTML_CHARS.sub(lambda m: _HTML[m.group()], line)
        lines.append(_LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2), escaped))
    return lines
