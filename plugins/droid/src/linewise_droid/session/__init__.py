"""Droid's session files: the ``droid_session`` adapter type's exports.

The parser is :mod:`linewise_droid.session.parser`, the store and records
:mod:`linewise_droid.session.store`, the detection :func:`linewise_droid.sniff.session_sniff`
and the summary :func:`linewise_droid.session.summary.summarize_session`.
"""

from typing import TYPE_CHECKING

from linewise_contracts.lazy import lazy_names

from linewise_droid import SESSION_DOC
from linewise_droid.sniff import session_sniff as sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_droid.session.parser import DroidSessionParser, create_stdout_parser
    from linewise_droid.session.store import session_records, session_stores
    from linewise_droid.session.summary import summarize_session as summarize_run

__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "DroidSessionParser": "linewise_droid.session.parser",
        "create_stdout_parser": "linewise_droid.session.parser",
        "session_records": "linewise_droid.session.store",
        "session_stores": "linewise_droid.session.store",
        "summarize_run": "linewise_droid.session.summary:summarize_session",
    },
)

__all__ = [
    "DroidSessionParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_records",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "Factory Droid (session files)"

# The routing doc lives in the agent declaration (linewise_droid), read from there.
agent_configuration_doc = SESSION_DOC
