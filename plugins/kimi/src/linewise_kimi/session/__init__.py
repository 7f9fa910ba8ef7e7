"""Kimi's session files: the ``kimi_session`` adapter type's exports."""

from linewise_kimi import SESSION_DOC
from linewise_kimi.session.parser import KimiSessionParser, create_stdout_parser
from linewise_kimi.session.store import session_records, session_stores
from linewise_kimi.session.summary import summarize_session as summarize_run
from linewise_kimi.sniff import session_sniff as sniff

__all__ = [
    "KimiSessionParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_records",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "Kimi (session files)"

# The routing doc lives in the agent declaration (linewise_kimi), read from there.
agent_configuration_doc = SESSION_DOC
