"""A parser's life under failure: made, reset after an exception, or made afresh."""

from __future__ import annotations

from typing import Any

from linewise.plugins.generic import GenericParser
from linewise.plugins.guard import is_plugin_failure
from linewise.plugins.registry import LoadedParser
from linewise.stream.diagnostics import Diagnostics

__all__ = ["new_parser", "recovered"]


def new_parser(loaded: LoadedParser, diagnostics: Diagnostics, *, strict: bool) -> Any:
    """A new parser of ``loaded``; the generic parser, with the reason, if it cannot be made.

    In strict mode the plugin's error is raised instead.
    """
    try:
        return loaded.new_parser()
    except BaseException as error:
        if not is_plugin_failure(error):
            raise
        if strict:
            raise
        diagnostics.fallback_reason = (
            f"{loaded.adapter_type} parser could not be created: {type(error).__name__}: {error}"
        )
        return GenericParser()


def recovered(parser: Any, loaded: LoadedParser, diagnostics: Diagnostics, *, strict: bool) -> Any:
    """After a parser raised: None when its ``reset()`` worked, else a fresh parser (counted)."""
    try:
        parser.reset()
        return None
    except BaseException as error:
        if not is_plugin_failure(error):
            raise
    diagnostics.parser_restarts += 1
    return new_parser(loaded, diagnostics, strict=strict)
