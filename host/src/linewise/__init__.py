"""linewise: structured transcripts from AI coding-agent CLIs, through parser plugins."""

from __future__ import annotations

from importlib import import_module

from linewise.settings.version import __version__

# Not `from typing import TYPE_CHECKING`: importing typing is most of what
# `import linewise` would cost. Type checkers treat this name as True.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from linewise.plugins.doctor import EnvironmentReport, check_environments
    from linewise.plugins.failed_load import FailedLoad
    from linewise.plugins.generic import GENERIC_ADAPTER_TYPE
    from linewise.plugins.loaded import LoadedParser
    from linewise.plugins.parser_info import ParserInfo, ParserStatus
    from linewise.plugins.registry import Registry, get_registry, reset_registry
    from linewise.run.agent import RunResult, run_agent
    from linewise.sessions import SessionInfo, find_sessions, transcribe_session
    from linewise.settings.clock import utc_now
    from linewise.settings.errors import (
        AgentStartError,
        AmbiguousSessionError,
        LinewiseError,
        ParserLineError,
        PluginLoadError,
        SessionNotFoundError,
        UnknownAdapterError,
    )
    from linewise.stream.detect import Detection, detect_adapter
    from linewise.stream.session import (
        Diagnostics,
        LineError,
        Stream,
        TranscriptSession,
        merge_deltas,
    )
    from linewise.transcript.build import Transcript, build_transcript, open_session
    from linewise.transcript.run_report import RunReport, summarize_log

# Public names and the private module each lives in, imported on first access
# so that `import linewise` (and `linewise list`) stays cheap.
_EXPORTS = {
    "GENERIC_ADAPTER_TYPE": "linewise.plugins.generic",
    "Detection": "linewise.stream.detect",
    "detect_adapter": "linewise.stream.detect",
    "EnvironmentReport": "linewise.plugins.doctor",
    "check_environments": "linewise.plugins.doctor",
    "AgentStartError": "linewise.settings.errors",
    "RunResult": "linewise.run.agent",
    "run_agent": "linewise.run.agent",
    "RunReport": "linewise.transcript.run_report",
    "summarize_log": "linewise.transcript.run_report",
    "FailedLoad": "linewise.plugins.failed_load",
    "LoadedParser": "linewise.plugins.loaded",
    "ParserInfo": "linewise.plugins.parser_info",
    "ParserStatus": "linewise.plugins.parser_info",
    "Registry": "linewise.plugins.registry",
    "get_registry": "linewise.plugins.registry",
    "reset_registry": "linewise.plugins.registry",
    "Diagnostics": "linewise.stream.session",
    "LineError": "linewise.stream.session",
    "Stream": "linewise.stream.session",
    "TranscriptSession": "linewise.stream.session",
    "merge_deltas": "linewise.stream.session",
    "utc_now": "linewise.settings.clock",
    "Transcript": "linewise.transcript.build",
    "build_transcript": "linewise.transcript.build",
    "open_session": "linewise.transcript.build",
    "LinewiseError": "linewise.settings.errors",
    "ParserLineError": "linewise.settings.errors",
    "PluginLoadError": "linewise.settings.errors",
    "UnknownAdapterError": "linewise.settings.errors",
    "AmbiguousSessionError": "linewise.settings.errors",
    "SessionNotFoundError": "linewise.settings.errors",
    "SessionInfo": "linewise.sessions",
    "find_sessions": "linewise.sessions",
    "transcribe_session": "linewise.sessions",
}

__all__ = [
    "GENERIC_ADAPTER_TYPE",
    "AgentStartError",
    "AmbiguousSessionError",
    "Detection",
    "Diagnostics",
    "EnvironmentReport",
    "FailedLoad",
    "LineError",
    "LinewiseError",
    "LoadedParser",
    "ParserInfo",
    "ParserLineError",
    "ParserStatus",
    "PluginLoadError",
    "Registry",
    "RunReport",
    "RunResult",
    "SessionInfo",
    "SessionNotFoundError",
    "Stream",
    "Transcript",
    "TranscriptSession",
    "UnknownAdapterError",
    "__version__",
    "build_transcript",
    "check_environments",
    "detect_adapter",
    "find_sessions",
    "get_registry",
    "list_parsers",
    "merge_deltas",
    "open_session",
    "reset_registry",
    "run_agent",
    "summarize_log",
    "transcribe_session",
    "utc_now",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'linewise' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


def list_parsers() -> list[ParserInfo]:
    """Every discovered parser of this environment with its status; imports no plugin."""
    from linewise.plugins.registry import get_registry

    return get_registry().parsers()
