"""linewise: structured transcripts from AI coding-agent CLIs, through parser plugins."""

from __future__ import annotations

from importlib import import_module

from linewise._version import __version__

# Not `from typing import TYPE_CHECKING`: importing typing is most of what
# `import linewise` would cost. Type checkers treat this name as True.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from linewise._detect import Detection, detect_adapter
    from linewise._doctor import EnvironmentReport, check_environments
    from linewise._generic import GENERIC_ADAPTER_TYPE
    from linewise._registry import (
        FailedLoad,
        LoadedParser,
        ParserInfo,
        ParserStatus,
        Registry,
        get_registry,
        reset_registry,
    )
    from linewise._run import RunResult, run_agent
    from linewise._run_report import RunReport, summarize_log
    from linewise._session import (
        Diagnostics,
        LineError,
        TranscriptSession,
        merge_deltas,
        utc_now,
    )
    from linewise._transcript import Transcript, build_transcript, open_session
    from linewise.errors import (
        AgentStartError,
        AmbiguousSessionError,
        LinewiseError,
        ParserLineError,
        PluginLoadError,
        SessionNotFoundError,
        UnknownAdapterError,
    )
    from linewise.sessions import SessionInfo, find_sessions, transcribe_session

# Public names and the private module each lives in, imported on first access
# so that `import linewise` (and `linewise list`) stays cheap.
_EXPORTS = {
    "GENERIC_ADAPTER_TYPE": "linewise._generic",
    "Detection": "linewise._detect",
    "detect_adapter": "linewise._detect",
    "EnvironmentReport": "linewise._doctor",
    "check_environments": "linewise._doctor",
    "AgentStartError": "linewise.errors",
    "RunResult": "linewise._run",
    "run_agent": "linewise._run",
    "RunReport": "linewise._run_report",
    "summarize_log": "linewise._run_report",
    "FailedLoad": "linewise._failed_load",
    "LoadedParser": "linewise._registry",
    "ParserInfo": "linewise._parser_info",
    "ParserStatus": "linewise._parser_info",
    "Registry": "linewise._registry",
    "get_registry": "linewise._registry",
    "reset_registry": "linewise._registry",
    "Diagnostics": "linewise._session",
    "LineError": "linewise._session",
    "TranscriptSession": "linewise._session",
    "merge_deltas": "linewise._session",
    "utc_now": "linewise._session",
    "Transcript": "linewise._transcript",
    "build_transcript": "linewise._transcript",
    "open_session": "linewise._transcript",
    "LinewiseError": "linewise.errors",
    "ParserLineError": "linewise.errors",
    "PluginLoadError": "linewise.errors",
    "UnknownAdapterError": "linewise.errors",
    "AmbiguousSessionError": "linewise.errors",
    "SessionNotFoundError": "linewise.errors",
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
    from linewise._registry import get_registry

    return get_registry().parsers()
