"""Hermes Agent's session store: the ``hermes_session`` adapter type's exports.

The store and records are :mod:`linewise_hermes.session.store`, the parser and sniff
:mod:`linewise_hermes.session.parser`, the summary
:func:`linewise_hermes.session.summary.summarize_session`.
"""

from linewise_hermes import SESSION_DOC
from linewise_hermes.session.parser import HermesSessionParser, create_stdout_parser
from linewise_hermes.session.parser import session_sniff as sniff
from linewise_hermes.session.store import session_keys, session_records, session_stores
from linewise_hermes.session.summary import summarize_session as summarize_run

__all__ = [
    "HermesSessionParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_keys",
    "session_records",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "Hermes Agent (session store)"

# The routing doc lives in the agent declaration (linewise_hermes), read from there.
agent_configuration_doc = SESSION_DOC
