"""The parser of ``copilot_session``: a saved session's events, read by :mod:`..events`.

A session file holds the events a live run prints, less the ephemeral ones.
"""

from __future__ import annotations

from linewise_copilot.events import CopilotSessionParser

__all__ = ["CopilotSessionParser", "create_stdout_parser"]


def create_stdout_parser() -> CopilotSessionParser:
    """A parser for one Copilot CLI session."""
    return CopilotSessionParser()
