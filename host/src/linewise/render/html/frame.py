"""The page frame: head and toolbar before the entries; header, summary and script after."""

from __future__ import annotations

from typing import Final

from linewise_contracts.summary import RunSummary

from linewise.render.html.assets import page_assets
from linewise.render.html.header import Figures
from linewise.render.html.markup import escaped, script_json
from linewise.settings.version import __version__

__all__ = ["page_end", "page_start"]

_TOOLBAR: Final = """<div class="toolbar" role="search">
<input id="search" type="search" placeholder="Search the transcript  ( / )" autocomplete="off"
 aria-label="Search the transcript; Enter for the next match, Escape to clear">
<span id="search-status" aria-live="polite"></span>
<button id="previous" type="button" title="Previous match (Shift+Enter)">&#8593;</button>
<button id="next" type="button" title="Next match (Enter)">&#8595;</button>
<button id="expand" type="button">Expand all</button>
<button id="collapse" type="button">Collapse all</button>
<button id="next-error" type="button">Next error</button>
</div>
"""


def page_start(title: str) -> str:
    """The document up to the transcript: head (style and its policy) and the toolbar."""
    css, _, policy = page_assets()
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">\n'
        '<meta name="referrer" content="no-referrer">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta name="generator" content="linewise {__version__}">\n'
        f"<title>{escaped(title)} · linewise</title>\n<style>{css}</style>\n"
        "</head>\n<body>\n" + _TOOLBAR
    )


def page_end(title: str, figures: Figures, summary: RunSummary | None) -> str:
    """The document after the transcript: header, machine-readable summary, footer, script."""
    _, js, _ = page_assets()
    data = script_json(figures.to_json(title, summary))
    return (
        "</main>\n"
        + '<button id="more" type="button" hidden>Show more</button>\n'
        + figures.header(title, summary)
        + f'<script type="application/json" id="linewise-summary">{data}</script>\n'
        + f"<footer>Rendered by linewise {__version__} from "
        + f"{figures.entries:,} entries.</footer>\n"
        # Outside the toolbar's markup (written first) so the count is known.
        + f'<template id="error-count" data-errors="{figures.errors}"></template>\n'
        + f"<script>{js}</script>\n</body>\n</html>\n"
    )
