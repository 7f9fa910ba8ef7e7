"""linewise.render: one table from (format, style) to renderer, one colour table, one protocol."""

from __future__ import annotations

import base64
import hashlib
import io
from typing import Any

import pytest
from linewise.render import (
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
from linewise.render.html import HtmlRenderer
from linewise.render.html.assets import page_assets
from linewise_contracts.entries import ENTRY_KINDS
from linewise_contracts.protocols import COMPACT_ROLES
from linewise_contracts.usage import TokenUsage
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


# -- unknown is not zero, in every view -----------------------------------------------------

_CURSOR_RESULT: dict[str, Any] = {
    "kind": "result",
    "ts": "2026-01-01T00:00:01.000Z",
    "text": "done",
    "inputTokens": 0,
    "outputTokens": 0,
    "cachedTokens": 0,
    "costUsd": 0,
    "subtype": "success",
    "isError": False,
    "errors": [],
}


def _views(summary: Any) -> dict[str, str]:
    """What text, compact and the HTML header show for one zero-usage result and ``summary``."""
    shown: dict[str, str] = {}
    for name, options in (
        ("text", {}),
        ("compact", {"style": "compact"}),
        ("html", {"format": "html"}),
    ):
        out = _Text()
        renderer = create_renderer(out, **options)
        renderer.write(_CURSOR_RESULT)  # type: ignore[arg-type]
        renderer.close(summary=summary)
        shown[name] = out.getvalue()
    page = shown["html"]
    shown["html"] = page[page.index('<header id="summary"') : page.index("</header>")]
    shown["html-json"] = page[
        page.index('id="linewise-summary">') : page.index(
            "</script>", page.index('id="linewise-summary">')
        )
    ]
    return shown


def test_a_run_that_reported_no_tokens_shows_unknown_tokens_in_every_view() -> None:
    from linewise_contracts.summary import RunSummary

    summary = RunSummary(outcome="success", complete=True, details={"usageBasis": "none"})
    views = _views(summary)
    for name in ("text", "compact"):
        assert "whole run: tokens not reported · cost unknown" in views[name], name
        assert "whole run: input 0" not in views[name]
        assert "input 0" not in views[name]  # nor the result's zeros
    header = views["html"]
    for tile in ("Uncached input", "Cache read", "Cache write", "Output"):
        assert f"<dt>{tile}</dt><dd>not reported</dd>" in header, tile
    assert "<dt>Cost</dt><dd>unknown</dd>" in header
    assert '"inputTokens":null' in views["html-json"] and '"costUsd":null' in views["html-json"]
    # The same run with reported (zero) tokens says zero: only unreported means unknown.
    reported = _views(
        RunSummary(outcome="completed", complete=True, token_usage=TokenUsage(uncached_input=0))
    )
    assert (
        "whole run: uncached input 0 · not reported: cache read, cache write, output"
        in (reported["text"])
    )
    assert "<dt>Uncached input</dt><dd>0</dd>" in reported["html"]


def test_a_result_cost_of_zero_without_a_summary_is_not_reported_in_every_view() -> None:
    views = _views(None)
    assert "cost" not in views["text"]  # a 0 cost in a result may be unreported: not shown
    assert "<dt>Cost</dt><dd>unknown</dd>" in views["html"]
    for name, shown in views.items():
        assert "$0" not in shown, name
    # Compact draws a result the CLI's way (no usage line): it shows no cost at all.
    assert "cost" not in views["compact"] and "--- Result ---" in views["compact"]


def test_the_text_footer_lists_a_few_errors_and_counts_the_rest() -> None:
    from linewise.render.text import SUMMARY_ERRORS
    from linewise_contracts.summary import RunSummary

    errors = tuple(f"failure number {n}" for n in range(SUMMARY_ERRORS + 3))
    text = _views(RunSummary(outcome="failed", is_error=True, complete=True, errors=errors))["text"]
    assert f"error: failure number {SUMMARY_ERRORS - 1}" in text
    assert f"failure number {SUMMARY_ERRORS}" not in text
    assert "… 3 more errors not shown (linewise summarize --json lists them)" in text
    few = _views(RunSummary(outcome="failed", is_error=True, complete=True, errors=errors[:2]))
    assert "error: failure number 1" in few["text"] and "not shown" not in few["text"]
