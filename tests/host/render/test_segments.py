"""Renderers emit segments; one writer per medium neutralises and escapes them, once.

Only the writers may call ``neutralize`` or ``html.escape`` (a renderer that
did could forget it in a new view, or do it twice), and a hostile text comes
out of every medium neutralised and escaped exactly once: a visible ``␛``, not
a stripped or doubled one; ``&lt;``, not ``&amp;lt;``; one backslash, not two.
"""

from __future__ import annotations

import ast
import html
import io
import json
import re
from pathlib import Path

import linewise.render
import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise.render import create_renderer
from linewise.render.compact import CompactRenderer
from linewise.render.markdown_text import code, inline
from linewise.render.segments import ROLES
from linewise.render.terminal import TerminalWriter
from linewise.render.text import TextRenderer
from linewise.settings.sanitising import neutralize
from markdown_it import MarkdownIt

# GitHub's renderer: CommonMark with tables, raw HTML passed through.
GITHUB = MarkdownIt("commonmark", {"html": True}).enable(["table"])

RENDER = Path(linewise.render.__file__).resolve().parent
#: The writers: the only modules of render/ that neutralise or escape.
WRITERS = frozenset({"terminal.py", "markdown_text.py", "html/markup.py"})

#: Everything a log can hide or break a view with, in one text.
HOSTILE = (
    "title\x1b]0;pwned\x07 red\x1b[31m bell\x07 nul\x00 back\x08 cr\r"
    " rtl\u202etxt.exe zw\u200bsp </script><b>x</b> ``` fence `tick` \\ *star* # head"
)
#: The same text as a terminal shows it (neutralised once).
HOSTILE_SHOWN = (
    "title␛]0;pwned␇ red bell␇ nul␀ back␈ cr␍"
    " rtl<U+202E>txt.exe zw<U+200B>sp </script><b>x</b> ``` fence `tick` \\ *star* # head"
)


def sanitising_uses(source: str, filename: str = "<source>") -> list[str]:
    """Where ``source`` neutralises or escapes itself: imports and uses of the two names."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source, filename=filename)):
        if isinstance(node, ast.ImportFrom) and node.module in (
            "html",
            "linewise.settings.sanitising",
        ):
            found += [f"{node.lineno}: from {node.module} import {a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            found += [f"{node.lineno}: import html" for a in node.names if a.name == "html"]
        elif isinstance(node, ast.Name) and node.id == "neutralize":
            found.append(f"{node.lineno}: neutralize")
        elif isinstance(node, ast.Attribute) and node.attr in ("neutralize", "sanitising"):
            found.append(f"{node.lineno}: .{node.attr}")
    return found


#: The writers' forms: each takes raw text and returns it neutralised and escaped.
FORMS = frozenset(
    {
        "escaped",
        "shortened",
        "markdown",
        "data_text",
        "inline",
        "code",
        "prose",
        "fence",
        "diff_fence",
    }
)


def _name(call: ast.Call) -> str:
    func = call.func
    return (
        func.id
        if isinstance(func, ast.Name)
        else func.attr
        if isinstance(func, ast.Attribute)
        else ""
    )


def nested_forms(source: str, filename: str = "<source>") -> list[str]:
    """Where a writer's form is handed what a form returned (it would escape twice)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source, filename=filename)):
        if isinstance(node, ast.Call) and _name(node) in FORMS:
            for argument in [*node.args, *(keyword.value for keyword in node.keywords)]:
                inner = [
                    n for n in ast.walk(argument) if isinstance(n, ast.Call) and _name(n) in FORMS
                ]
                found += [f"{node.lineno}: {_name(node)}({_name(n)}(...))" for n in inner]
    return found


def _renderer_modules() -> list[Path]:
    return [
        path
        for path in sorted(RENDER.rglob("*.py"))
        if path.relative_to(RENDER).as_posix() not in WRITERS
    ]


@pytest.mark.parametrize("module", _renderer_modules(), ids=lambda p: str(p.relative_to(RENDER)))
def test_no_renderer_module_but_a_writer_neutralises_or_escapes(module: Path) -> None:
    assert sanitising_uses(module.read_text(encoding="utf-8"), str(module)) == []


def test_the_check_finds_a_renderer_that_neutralises_or_escapes() -> None:
    source = (
        "from html import escape\n"
        "import html\n"
        "from linewise.settings.sanitising import neutralize\n"
        "from linewise.settings import sanitising\n"
        "x = neutralize(t)\n"
        "y = html.escape(t)\n"
        "z = sanitising.neutralize(t)\n"
        "w = re.escape(t)\n"  # a regular expression, not output: allowed
    )
    assert sanitising_uses(source) == [
        "1: from html import escape",
        "2: import html",
        "3: from linewise.settings.sanitising import neutralize",
        "5: neutralize",
        "7: .neutralize",
    ]


@pytest.mark.parametrize(
    "module", sorted(RENDER.rglob("*.py")), ids=lambda p: str(p.relative_to(RENDER))
)
def test_no_text_is_handed_to_a_writer_twice(module: Path) -> None:
    assert nested_forms(module.read_text(encoding="utf-8"), str(module)) == []


def test_the_check_finds_text_escaped_twice() -> None:
    source = "a = escaped(shortened(t))\nb = f'{code(x)}'\nc = fence(inline(t), full=True)\n"
    assert nested_forms(source) == ["1: escaped(shortened(...))", "3: fence(inline(...))"]


def test_every_writer_is_a_module_of_render() -> None:
    assert all((RENDER / writer).is_file() for writer in WRITERS)


# -- the terminal writer --------------------------------------------------------------


@given(st.text())
def test_neutralising_neutralised_text_changes_nothing(text: str) -> None:
    # What lets the compact style fit a line before the writer writes it.
    assert neutralize(neutralize(text)) == neutralize(text)


def test_the_terminal_writer_neutralises_each_segment_once_and_colours_it() -> None:
    writer = TerminalWriter(color=True)
    assert writer.join([("error", HOSTILE), ("plain", " ok")]) == (
        f"\x1b[31m{HOSTILE_SHOWN}\x1b[0m ok"
    )
    assert TerminalWriter(color=False).join([("error", HOSTILE)]) == HOSTILE_SHOWN
    # An agent's colour code is removed; an empty segment draws no colour of ours.
    assert writer.segment("assistant", "\x1b[31m") == ""
    assert all(writer.segment(role, "x") for role in ROLES)


def _text_view(entries: list[dict[str, object]], *, color: bool = False) -> str:
    out = io.StringIO()
    renderer = TextRenderer(out, color=color, full=True, thinking=True)
    for entry in entries:
        renderer.write(entry)  # type: ignore[arg-type]
    renderer.close()
    return out.getvalue()


def _compact_view(entries: list[dict[str, object]]) -> str:
    out = io.StringIO()
    renderer = CompactRenderer(out)
    for entry in entries:
        renderer.write(entry)  # type: ignore[arg-type]
    renderer.close()
    return out.getvalue()


HOSTILE_ENTRIES: list[dict[str, object]] = [
    {"kind": "init", "ts": "", "model": HOSTILE, "sessionId": "s\x1b]8;;x\x07"},
    {"kind": "assistant", "ts": "", "text": HOSTILE},
    {
        "kind": "tool_call",
        "ts": "",
        "name": "Bash",
        "input": {"command": HOSTILE},
        "toolUseId": "t",
    },
    {"kind": "tool_result", "ts": "", "toolUseId": "t", "content": HOSTILE, "isError": False},
    {"kind": "stderr", "ts": "", "text": HOSTILE},
]


@pytest.mark.parametrize("view", [_text_view, _compact_view])
def test_hostile_text_is_shown_neutralised_once_in_the_terminal_views(view: object) -> None:
    out = view(HOSTILE_ENTRIES)  # type: ignore[operator]
    assert not set(out) & {"\x1b", "\x07", "\x00", "\x08", "\r", "\u202e", "\u200b"}
    assert "title␛]0;pwned␇" in out
    assert "rtl<U+202E>txt.exe" in out
    assert "</script><b>x</b> ``` fence `tick` \\ *star*" in out  # a terminal escapes nothing


def test_the_text_view_shows_the_agent_text_exactly_as_neutralised() -> None:
    out = _text_view([{"kind": "assistant", "ts": "", "text": HOSTILE}], color=True)
    assert out == f"\x1b[32massistant   \x1b[0m\x1b[32m{HOSTILE_SHOWN}\x1b[0m\n"


# -- the Markdown writer ----------------------------------------------------------------


def _markdown_view(entries: list[dict[str, object]]) -> str:
    out = io.StringIO()
    renderer = create_renderer(out, format="markdown", title="run.jsonl", full=True)
    for entry in entries:
        renderer.write(entry)  # type: ignore[arg-type]
    renderer.close()
    return out.getvalue()


def test_hostile_text_is_neutralised_and_escaped_once_in_markdown() -> None:
    markdown = _markdown_view([*HOSTILE_ENTRIES, {"kind": "user", "ts": "", "text": HOSTILE}])
    assert not set(markdown) & {"\x1b", "\x07", "\x00", "\x08", "\r", "\u202e", "\u200b"}
    page = GITHUB.render(markdown)
    # Code (the command, the result, stderr) shows the text exactly as neutralised once;
    # HTML escaping there is the Markdown renderer's, once.
    code_blocks = [t.content for t in GITHUB.parse(markdown) if t.type == "fence"]
    assert code_blocks.count(HOSTILE_SHOWN + "\n") == 3
    # Prose: its HTML shown as text (escaped once: no &amp;lt;), its backslash kept single.
    assert "&lt;/script&gt;&lt;b&gt;x&lt;/b&gt;" in page
    assert "&amp;lt;" not in page
    assert "title␛]0;pwned␇" in page
    assert "<script" not in page
    assert "\\\\" not in markdown  # no backslash escaped twice


def test_the_markdown_writer_escapes_inline_text_and_code_once() -> None:
    assert inline("a\\b `c` <d>\x1b[31m") == "a\\\\b \\`c\\` &lt;d&gt;"
    assert code("x `y` \x07") == "``x `y` ␇``"
    assert GITHUB.render(code("``` \x00")).strip() == "<p><code>``` ␀</code></p>"


# -- the HTML writer --------------------------------------------------------------------


def _html_view(entries: list[dict[str, object]], title: str) -> str:
    out = io.StringIO()
    renderer = create_renderer(out, format="html", title=title, full=True, thinking=True)
    for entry in entries:
        renderer.write(entry)  # type: ignore[arg-type]
    renderer.close()
    return out.getvalue()


def test_hostile_text_is_neutralised_and_escaped_once_in_html() -> None:
    page = _html_view(
        [
            *HOSTILE_ENTRIES,
            {"kind": "thinking", "ts": "", "text": HOSTILE},
            {"kind": "system", "ts": "", "text": HOSTILE},
            {
                "kind": "result",
                "ts": "",
                "text": HOSTILE,
                "subtype": HOSTILE,
                "isError": True,
                "errors": [HOSTILE],
                "inputTokens": 1,
                "outputTokens": 1,
                "cachedTokens": 0,
                "costUsd": None,
            },
        ],
        title=HOSTILE,
    )
    assert not set(page) & {"\x1b", "\x07", "\x00", "\x08", "\r", "\u202e", "\u200b"}
    once = html.escape(HOSTILE_SHOWN, quote=True)
    assert page.count(once) >= 8  # title, model, command, output, stderr, thinking, ...
    assert "&amp;lt;" not in page and "&amp;#x27;" not in page and "&amp;amp;" not in page
    assert "</script><b>" not in page
    # The page's summary data: the model and the title neutralised once, as text.
    data = re.search(r'<script type="application/json" id="linewise-summary">(.*?)</script>', page)
    assert data is not None
    summary = json.loads(data.group(1))
    assert summary["title"] == HOSTILE_SHOWN
    assert summary["models"] == [HOSTILE_SHOWN]
    assert summary["outcome"] == neutralize(summary["outcome"])
