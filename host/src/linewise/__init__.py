"""linewise: structured transcripts from AI coding-agent CLIs, through installable parser plugins."""

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
from linewise._session import Diagnostics, LineError, TranscriptSession, merge_deltas, utc_now
from linewise._transcript import Transcript, build_transcript, open_session
from linewise._version import __version__
from linewise.errors import (
    LinewiseError,
    ParserLineError,
    PluginLoadError,
    UnknownAdapterError,
)

__all__ = [
    "GENERIC_ADAPTER_TYPE",
    "Diagnostics",
    "FailedLoad",
    "LineError",
    "LinewiseError",
    "LoadedParser",
    "ParserInfo",
    "ParserLineError",
    "ParserStatus",
    "PluginLoadError",
    "Registry",
    "Transcript",
    "TranscriptSession",
    "UnknownAdapterError",
    "__version__",
    "build_transcript",
    "get_registry",
    "list_parsers",
    "merge_deltas",
    "open_session",
    "reset_registry",
    "utc_now",
]


def list_parsers() -> list[ParserInfo]:
    """Every discovered parser of this environment with its status; imports no plugin."""
    return get_registry().parsers()
