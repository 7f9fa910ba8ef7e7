"""Neutralise agent text before it reaches a terminal: no escape sequence in a log may act."""

from __future__ import annotations

import re
from typing import Final

__all__ = ["neutralize"]

# Whole escape sequences are removed (their payload would be noise); any other
# control character is replaced by a visible stand-in so nothing is silently lost.
_SEQUENCE: Final = re.compile(
    r"""
    \x1b\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?      # OSC (titles, hyperlinks, clipboard)
    | \x9d[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?      # 8-bit OSC
    | \x1b[P^_X][^\x1b\x9c]*(?:\x1b\\|\x9c)?         # DCS, PM, APC, SOS
    | [\x90\x9e\x9f\x98][^\x1b\x9c]*(?:\x1b\\|\x9c)? # their 8-bit forms
    | (?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?              # CSI (colour, cursor movement, erase)
    | \x1b[ -/]*[0-~]?                               # other escapes
    """,
    re.VERBOSE,
)


def _stand_in(code: int) -> str:
    if code < 0x20:
        return chr(0x2400 + code)  # the Unicode "control pictures" block: ␀ ␇ ␈ ...
    if code == 0x7F:
        return "\u2421"  # ␡
    return f"<U+{code:04X}>"


_TABLE: Final[dict[int, str]] = {
    code: _stand_in(code)
    for code in [*range(0x20), 0x7F, *range(0x80, 0xA0)]
    if code not in (0x09, 0x0A)
}
# Bidirectional overrides and isolates can make displayed text differ from the
# bytes (the "Trojan Source" trick), and zero-width joiners hide content.
_TABLE.update(
    {code: f"<U+{code:04X}>" for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}
)
# Lone surrogates (from a decoder's surrogateescape) cannot be written to a UTF-8 stream.
_TABLE.update(dict.fromkeys(range(55296, 57344), "�"))

_UNSAFE: Final = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def neutralize(text: str) -> str:
    """``text`` made safe to print: escape sequences removed, other controls made visible.

    Newlines and tabs are kept; carriage returns, backspaces and bells become
    visible symbols, so a log can neither move the cursor, rewrite earlier
    output, set the window title, ring the bell nor plant a hyperlink.
    """
    if _UNSAFE.search(text) is None:
        return text
    return _SEQUENCE.sub("", text).translate(_TABLE)
