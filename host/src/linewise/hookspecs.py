"""Hook specifications a host app implements to observe linewise (``@hookimpl`` functions)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from linewise.plugins.failed_load import FailedLoad
    from linewise.plugins.guard import PluginCallFailure
    from linewise.plugins.parser_info import ParserInfo

__all__ = ["hookimpl", "hookspec"]

hookspec = pluggy.HookspecMarker("linewise")
hookimpl = pluggy.HookimplMarker("linewise")


@hookspec
def linewise_parser_loaded(info: ParserInfo) -> None:
    """Called once when a parser plugin has been imported and checked."""


@hookspec
def linewise_parser_failed(failure: FailedLoad) -> None:
    """Called once when a plugin is refused (contract) or fails to load."""


@hookspec
def linewise_plugin_call_failed(failure: PluginCallFailure) -> None:
    """Called when a call into a loaded plugin fails: a sniffer that raises or returns no
    score, a formatter, a factory, a metadata lookup. The host carried on without it."""


@hookspec
def linewise_line_failed(
    adapter_type: str, line_number: int, line: str, error: BaseException
) -> None:
    """Called when a parser raises on a line; that line went through the generic parser."""


@hookspec
def linewise_sniff(lines: Sequence[str]) -> tuple[str, float] | None:
    """Say which adapter type wrote these first non-blank lines of a log, and how surely.

    Return ``(adapter_type, confidence)`` with confidence from 0 to 1, or None.
    Every installed plugin's ``sniff`` export is served through this hook; a
    host app can add detectors for formats no plugin knows.
    """
