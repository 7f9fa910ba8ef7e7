"""Grok Build's session folders: the ``grok_session`` adapter type's exports.

The store and records are :mod:`linewise_grok.session.store`, the parser and sniff
:mod:`linewise_grok.session.parser`, the summary
:func:`linewise_grok.session.summary.summarize_session`.
"""

from linewise_grok import SESSION_DOC
from linewise_grok.session.parser import GrokSessionParser, create_stdout_parser
from linewise_grok.session.parser import session_sniff as sniff
from linewise_grok.session.store import session_keys, session_records, session_stores
from linewise_grok.session.summary import summarize_session as summarize_run

__all__ = [
    "GrokSessionParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_keys",
    "session_records",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "Grok Build (session folders)"

# The routing doc lives in the agent declaration (linewise_grok), read from there.
agent_configuration_doc = SESSION_DOC
