"""GitHub Copilot CLI's saved sessions: the ``copilot_session`` adapter type's code.

``~/.copilot/session-state/<session id>/events.jsonl``: the events are read by
:mod:`linewise_copilot.events` (the same events its stdout prints), found by
:mod:`.store`, summed up by :mod:`.summary`; the legacy documents of
``copilot_history`` are :mod:`.history`.
"""

from linewise_copilot import SESSION_DOC
from linewise_copilot.session.parser import CopilotSessionParser, create_stdout_parser
from linewise_copilot.session.store import session_stores
from linewise_copilot.session.summary import summarize_run
from linewise_copilot.sniff import sniff

__all__ = [
    "CopilotSessionParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "GitHub Copilot CLI (saved sessions)"

# The routing doc lives in the agent declaration (linewise_copilot), read from there.
agent_configuration_doc = SESSION_DOC
