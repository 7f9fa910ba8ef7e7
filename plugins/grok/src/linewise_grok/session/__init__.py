"""Grok Build's session folders: the ``grok_session`` adapter type's exports.

The store and records are :mod:`linewise_grok.session.store`,
the parser :mod:`linewise_grok.session.parser`, the sniff
:mod:`linewise_grok.session.sniff`, the summary
:func:`linewise_grok.session.summary.summarize_session`.
"""

from typing import TYPE_CHECKING

from linewise_contracts.lazy import lazy_names

from linewise_grok import SESSION_DOC

# Eager: what detection asks (its module is imported anyway, as this package's).
from linewise_grok.session.sniff import session_sniff as sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_grok.session.parser import GrokSessionParser, create_stdout_parser
    from linewise_grok.session.store import session_keys, session_records, session_stores
    from linewise_grok.session.summary import summarize_session as summarize_run

_STORE = "linewise_grok.session.store"
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "GrokSessionParser": "linewise_grok.session.parser",
        "create_stdout_parser": "linewise_grok.session.parser",
        "session_keys": _STORE,
        "session_records": _STORE,
        "session_stores": _STORE,
        "summarize_run": "linewise_grok.session.summary:summarize_session",
    },
)

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
