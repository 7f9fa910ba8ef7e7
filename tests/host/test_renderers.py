"""linewise.renderers: one table from (format, style) to renderer, one colour table, one protocol."""

from __future__ import annotations

import base64
import hashlib
import io
from typing import Any

import pytest
from linewise.renderers import (
    COLOURS,
    STATUS_ROLES,
    CompactRenderer,
    FormatterRenderer,
    JsonlRenderer,
    LineRenderer,
    Renderer,
    TextRenderer,
    create_renderer,
    paint,
)
from linewise.renderers.html import HtmlRenderer
from linewise.renderers.html.assets import page_assets
from linewise_contracts.entries import ENTRY_KINDS
from linewise_contracts.protocols import COMPACT_ROLES
from support import VALID_ENTRIES


class _Text(io.StringIO):
    def __init__(self) -> None:
        super().__init__()
        self.buffer = io.BytesIO()


@pytest.mark.parametrize(
    ("options", "kind"),
    [
        ({}, TextRenderer),
        ({"style": "compact"}, CompactRenderer),
        ({"style": "compact", "formatter": lambda line: [("plain", line)]}, FormatterRenderer),
        ({"format": "jsonl"}, JsonlRenderer),
        ({"format": "html"}, HtmlRenderer),
        ({"format": "html", "style": "compact"}, HtmlRenderer),
    ],
)
def test_one_table_from_format_and_style(options: dict[str, Any], kind: type) -> None:
    renderer = create_renderer(_Text(), **options)
    assert type(renderer) is kind and isinstance(renderer, Renderer)
    assert isinstance(renderer, LineRenderer) == (kind is FormatterRenderer)


@pytest.mark.parametrize("options", [{"format": "xml"}, {"style": "fancy"}])
def test_an_unknown_format_or_style_is_refused(options: dict[str, str]) -> None:
    with pytest.raises(ValueError, match="choose one of"):
        create_renderer(_Text(), **options)


def test_jsonl_writes_bytes_to_the_buffer() -> None:
    out = _Text()
    renderer = create_renderer(out, format="jsonl")
    renderer.write({"kind": "assistant", "ts": "t", "text": "hi"})
    renderer.close()
    assert out.buffer.getvalue() == b'{"kind":"assistant","ts":"t","text":"hi"}\n'
    assert out.getvalue() == ""


@pytest.mark.parametrize("options", [{}, {"style": "compact"}, {"format": "html"}])
def test_every_renderer_draws_every_kind(options: dict[str, Any]) -> None:
    assert {entry["kind"] for entry in VALID_ENTRIES} == set(ENTRY_KINDS)
    out = _Text()
    renderer = create_renderer(out, thinking=True, **options)
    for entry in VALID_ENTRIES:
        renderer.write(entry)  # type: ignore[arg-type]
    renderer.close()
    assert out.getvalue()


def test_the_colour_table_follows_the_reference_convention() -> None:
    assert COLOURS["lifecycle"] == "34"  # blue
    assert COLOURS["assistant"] == "32"  # green
    assert COLOURS["input"] == "90" and COLOURS["thinking"].endswith("90")  # grey
    assert COLOURS["tool"] == "33"  # yellow
    assert COLOURS["result"] == "36"  # cyan
    assert COLOURS["error"] == "31"  # red
    assert set(COMPACT_ROLES) <= set(COLOURS)  # every role a plugin may use has a colour
    assert set(STATUS_ROLES.values()) <= set(COLOURS)
    assert paint("x", "error") == "\x1b[31mx\x1b[0m"
    assert paint("x", "plain") == paint("x", "error", False) == paint("x", "nope") == "x"


def test_the_page_assets_are_package_files_pinned_by_the_policy() -> None:
    css, js, policy = page_assets()
    assert css.startswith(":root{") and "linewise-match" in css
    assert js.startswith("(() => {") and "use strict" in js
    for source in (css, js):
        digest = base64.b64encode(hashlib.sha256(source.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in policy
    page = io.StringIO()
    HtmlRenderer(page, title="t").close()
    assert (
        f"<style>{css}</style>" in page.getvalue() and f"<script>{js}</script>" in page.getvalue()
    )
