"""Vibe's session logs: the ``vibe_session`` adapter type's exports."""

from linewise_vibe import SESSION_DOC
from linewise_vibe.parser import VibeParser, create_stdout_parser
from linewise_vibe.session.store import session_records, session_stores
from linewise_vibe.sniff import session_sniff as sniff
from linewise_vibe.summary import summarize_run

__all__ = [
    "VibeParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_records",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "Mistral Vibe (session logs)"

# The routing doc lives in the agent declaration (linewise_vibe), read from there.
agent_configuration_doc = SESSION_DOC
