"""The html format: one self-contained page, drawn by HtmlRenderer from one module per part."""

from linewise.render.html.renderer import PAGE_ENTRIES, HtmlRenderer

__all__ = ["PAGE_ENTRIES", "HtmlRenderer"]
