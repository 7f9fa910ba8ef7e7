"""Goose's session store: the ``goose_session`` adapter type's exports.

The store and records are :mod:`linewise_goose.session.store`,
the parser :mod:`linewise_goose.session.parser`, the sniff
:mod:`linewise_goose.session.sniff`, the summary
:func:`linewise_goose.session.summary.summarize_session`.
"""

from typing import TYPE_CHECKING

from linewise_contracts.lazy import lazy_names

from linewise_goose import SESSION_DOC

# Eager: what detection asks (its module is imported anyway, as this package's).
from linewise_goose.session.sniff import session_sniff as sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_goose.session.parser import GooseSessionParser, create_stdout_parser
    from linewise_goose.session.store import session_keys, session_records, session_stores
    from linewise_goose.session.summary import summarize_session as summarize_run

_STORE = "linewise_goose.session.store"
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "GooseSessionParser": "linewise_goose.session.parser",
        "create_stdout_parser": "linewise_goose.session.parser",
        "session_keys": _STORE,
        "session_records": _STORE,
        "session_stores": _STORE,
        "summarize_run": "linewise_goose.session.summary:summarize_session",
    },
)

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
