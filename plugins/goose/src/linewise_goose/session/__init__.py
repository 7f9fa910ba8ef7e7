"""Goose's session store: the ``goose_session`` adapter type's exports.

The store and records are :mod:`linewise_goose.session.store`, the parser and sniff
:mod:`linewise_goose.session.parser`, the summary
:func:`linewise_goose.session.summary.summarize_session`.
"""

from linewise_goose import SESSION_DOC
from linewise_goose.session.parser import GooseSessionParser, create_stdout_parser
from linewise_goose.session.parser import session_sniff as sniff
from linewise_goose.session.store import session_keys, session_records, session_stores
from linewise_goose.session.summary import summarize_session as summarize_run

__all__ = [
    "GooseSessionParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_keys",
    "session_records",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "Goose (session store)"

# The routing doc lives in the agent declaration (linewise_goose), read from there.
agent_configuration_doc = SESSION_DOC
