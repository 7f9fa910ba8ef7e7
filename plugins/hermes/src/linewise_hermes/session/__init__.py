"""Hermes Agent's session store: the ``hermes_session`` adapter type's exports.

The store and records are :mod:`linewise_hermes.session.store`, the parser
:mod:`linewise_hermes.session.parser`, the sniff :mod:`linewise_hermes.session.sniff`,
the summary :func:`linewise_hermes.session.summary.summarize_session`.
"""

from typing import TYPE_CHECKING

from linewise_contracts.lazy import lazy_names

from linewise_hermes import SESSION_DOC

# Eager: what detection asks (and the name of its module).
from linewise_hermes.session.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_hermes.session.parser import HermesSessionParser, create_stdout_parser
    from linewise_hermes.session.store import session_keys, session_records, session_stores
    from linewise_hermes.session.summary import summarize_session as summarize_run

_STORE = "linewise_hermes.session.store"
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "HermesSessionParser": "linewise_hermes.session.parser",
        "create_stdout_parser": "linewise_hermes.session.parser",
        "session_keys": _STORE,
        "session_records": _STORE,
        "session_stores": _STORE,
        "summarize_run": "linewise_hermes.session.summary:summarize_session",
    },
)

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
