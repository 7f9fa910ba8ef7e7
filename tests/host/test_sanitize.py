"""neutralize: nothing in agent text can drive the terminal, and nothing is silently lost."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise._sanitize import neutralize


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain text\twith tab\nand newline", "plain text\twith tab\nand newline"),
        ("\x1b[31mred\x1b[0m", "red"),
        ("\x1b[2J\x1b[H cleared", " cleared"),
        ("\x1b]0;pwned title\x07after", "after"),
        ("\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", "click"),
        ("\x1b]52;c;ZXZpbA==\x07clipboard", "clipboard"),
        ("\x1bPq#0;2;0;0;0\x1b\\sixel", "sixel"),
        ("\x9b31mC1 CSI", "C1 CSI"),
        ("bell\x07", "bell␇"),
        ("over\rwrite", "over␍write"),
        ("back\x08space", "back␈space"),
        ("nul\x00byte", "nul␀byte"),
        ("del\x7f", "del␡"),
        ("\u202egnp.exe", "<U+202E>gnp.exe"),
        ("lone \ud800 surrogate", "lone \ufffd surrogate"),
        ("unterminated \x1b]0;title", "unterminated "),
    ],
)
def test_neutralize(text: str, shown: str) -> None:
    assert neutralize(text) == shown


@given(st.text())
def test_output_never_contains_a_control_character_but_newline_and_tab(text: str) -> None:
    out = neutralize(text)
    assert not any(
        (ord(c) < 0x20 and c not in "\n\t") or 0x7F <= ord(c) < 0xA0 or 0xD800 <= ord(c) < 0xE000
        for c in out
    )
    out.encode("utf-8")
