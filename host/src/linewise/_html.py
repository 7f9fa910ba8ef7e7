"""Deprecated location: use :mod:`linewise.renderers.html` (kept while callers move)."""

from linewise.renderers.html import HtmlRenderer

__all__ = ["HtmlRenderer"]
