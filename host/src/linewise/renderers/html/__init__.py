"""The html format: one self-contained page (renderer, header, tool drawings, page.css, page.js)."""

from linewise.renderers.html.renderer import PAGE_ENTRIES, HtmlRenderer

__all__ = ["PAGE_ENTRIES", "HtmlRenderer"]
