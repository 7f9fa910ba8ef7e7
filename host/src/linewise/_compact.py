"""Deprecated location: use :mod:`linewise.renderers.compact` (kept while callers move)."""

from __future__ import annotations

from typing import IO

from linewise_contracts.protocols import FORMAT_STDOUT_LINE

from linewise.renderers.compact import CompactRenderer, FormatterRenderer

__all__ = ["ClaudeCompactRenderer", "CompactRenderer"]


def ClaudeCompactRenderer(stream: IO[str], *, color: bool = False) -> CompactRenderer:
    """The compact style of ``claude_local``: the Claude plugin's formatter when installed."""
    from linewise._registry import get_registry

    formatter = getattr(get_registry().load("claude_local").target, FORMAT_STDOUT_LINE, None)
    if callable(formatter):
        return FormatterRenderer(stream, formatter, color=color)
    return CompactRenderer(stream, color=color)
