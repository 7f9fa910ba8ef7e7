"""Everything linewise_serve takes from the linewise host, named once.

The public API (``import linewise``) first; where it has no name for what a web
app needs, the host's sessions, usage and HTML renderer modules. The host's
layout may move modules: only this file then changes.
"""

from __future__ import annotations

from linewise import (
    GENERIC_ADAPTER_TYPE,
    Registry,
    SessionInfo,
    find_sessions,
    get_registry,
    transcribe_session,
)
from linewise.render.html import HtmlRenderer
from linewise.render.html.markup import escaped
from linewise.sessions import cache_folder, file_session, session_summary
from linewise.sessions.live import LIVE_SECONDS, is_live
from linewise.sessions.usage import Totals, UsageRecord, record_of, usage_report

__all__ = [
    "GENERIC_ADAPTER_TYPE",
    "LIVE_SECONDS",
    "HtmlRenderer",
    "Registry",
    "SessionInfo",
    "Totals",
    "UsageRecord",
    "cache_folder",
    "escaped",
    "file_session",
    "find_sessions",
    "get_registry",
    "is_live",
    "record_of",
    "session_summary",
    "transcribe_session",
    "usage_report",
]
