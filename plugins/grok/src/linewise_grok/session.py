"""Grok Build's session folders: the ``grok_session`` adapter type's exports.

The store and records are :mod:`linewise_grok.store`, the parser and sniff
:mod:`linewise_grok.session_parser`, the summary
:func:`linewise_grok.session_summary.summarize_session`.
"""

from linewise_grok import SESSION_DOC
from linewise_grok.session_parser import GrokSessionParser, create_stdout_parser
from linewise_grok.session_parser import session_sniff as sniff
from linewise_grok.session_summary import summarize_session as summarize_run
from linewise_grok.store import session_keys, session_records, session_stores

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
