"""OpenHands' conversation folders: the ``openhands_session`` adapter type's exports."""

from linewise_openhands import SESSION_DOC
from linewise_openhands.parser import OpenHandsParser, create_stdout_parser
from linewise_openhands.session.store import session_records, session_stores
from linewise_openhands.summary import summarize_run

__all__ = [
    "OpenHandsParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_records",
    "session_stores",
    "summarize_run",
]

label = "OpenHands (conversation folders)"

# The routing doc lives in the agent declaration (linewise_openhands), read from there.
agent_configuration_doc = SESSION_DOC
