"""Renderers: readable text with kinds at a glance, colour only when asked, JSON lines exact."""

from __future__ import annotations

import io
import json
import re

import pytest
from linewise._render import JsonlRenderer, TextRenderer, use_color
from support import VALID_ENTRIES


def _text(entries: list[dict[str, object]], **options: object) -> str:
    out = io.StringIO()
    renderer = TextRenderer(out, **options)  # type: ignore[arg-type]
    for entry in entries:
        renderer.write(entry)  # type: ignore[arg-type]
    renderer.close()
    return out.getvalue()


def test_every_kind_renders_with_its_label() -> None:
    text = _text(VALID_ENTRIES)
    for label in (
        "assistant",
        "thinking",
        "user",
        "tool_call",
        "tool_result",
        "init",
        "result",
        "stderr",
        "system",
        "stdout",
        "diff",
    ):
        assert f"\n{label}" in "\n" + text
    assert "\x1b" not in text


def test_colour_follows_the_reference_convention_when_enabled() -> None:
    text = _text(
        [
            {"kind": "init", "ts": "t", "model": "m", "sessionId": "s"},
            {"kind": "assistant", "ts": "t", "text": "hi"},
            {"kind": "tool_call", "ts": "t", "name": "bash", "input": {}},
            {"kind": "tool_result", "ts": "t", "toolUseId": "1", "content": "", "isError": True},
        ],
        color=True,
    )
    assert "\x1b[34minit" in text
    assert "\x1b[32massistant" in text
    assert "\x1b[33mtool_call" in text
    assert "\x1b[31mtool_result" in text


def test_deltas_continue_one_block() -> None:
    text = _text(
        [
            {"kind": "assistant", "ts": "t", "text": "Hel", "delta": True},
            {"kind": "assistant", "ts": "t", "text": "lo", "delta": True},
            {"kind": "thinking", "ts": "t", "text": "hm", "delta": True},
            {"kind": "system", "ts": "t", "text": "done"},
        ]
    )
    assert text.splitlines() == ["assistant   Hello", "thinking    hm", "system      done"]


def test_agent_text_cannot_reach_the_terminal_raw() -> None:
    evil = "\x1b]0;owned\x07\x1b[2Jsafe\r"
    text = _text(
        [
            {"kind": "assistant", "ts": "t", "text": evil},
            {"kind": "tool_call", "ts": "t", "name": evil, "input": {"k": evil}, "toolUseId": evil},
            {
                "kind": "tool_result",
                "ts": "t",
                "toolUseId": evil,
                "toolName": evil,
                "content": evil,
                "isError": False,
            },
            {"kind": "assistant", "ts": "t", "text": evil, "delta": True},
        ],
        color=True,
    )
    ours = re.sub(r"\x1b\[\d+m", "", text)  # the renderer's own colours
    assert "\x1b" not in ours and "\x07" not in ours and "\r" not in ours
    assert "owned" not in ours.replace("\\u001b]0;owned", "")  # only as inert JSON text


def test_long_tool_results_are_shortened_unless_full() -> None:
    entry = {
        "kind": "tool_result",
        "ts": "t",
        "toolUseId": "1",
        "content": "\n".join(map(str, range(100))),
        "isError": False,
    }
    assert "… 88 more lines (--full shows all)" in _text([entry])
    assert "99" in _text([entry], full=True)


def test_jsonl_is_the_entries_exactly() -> None:
    out = io.BytesIO()
    renderer = JsonlRenderer(out)
    for entry in VALID_ENTRIES:
        renderer.write(entry)  # type: ignore[arg-type]
    renderer.write({"kind": "stdout", "ts": "t", "text": "lone \ud800"})
    renderer.close()
    lines = out.getvalue().decode().splitlines()
    assert [json.loads(line) for line in lines[:-1]] == VALID_ENTRIES
    assert json.loads(lines[-1])["text"] == "lone \ud800"


@pytest.mark.parametrize(
    ("choice", "tty", "no_color", "expected"),
    [
        ("auto", True, None, True),
        ("auto", False, None, False),
        ("auto", True, "1", False),
        ("always", False, "1", True),
        ("never", True, None, False),
    ],
)
def test_use_color(
    monkeypatch: pytest.MonkeyPatch, choice: str, tty: bool, no_color: str | None, expected: bool
) -> None:
    class Stream(io.StringIO):
        def isatty(self) -> bool:
            return tty

    monkeypatch.delenv("TERM", raising=False)
    if no_color is not None:
        monkeypatch.setenv("NO_COLOR", no_color)
    assert use_color(Stream(), choice) is expected
