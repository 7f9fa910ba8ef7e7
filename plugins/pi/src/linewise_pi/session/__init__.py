"""Pi's session files: the ``pi_session`` adapter type's exports.

The parser is :mod:`linewise_pi.session.parser`, the sniff :mod:`linewise_pi.session.sniff`,
the store :mod:`linewise_pi.session.store`, the summary
:func:`linewise_pi.session.summary.summarize_session`.
A session file is one JSON record per line, so the host reads it as it is
(no ``session_records``).
"""

from typing import TYPE_CHECKING

from linewise_contracts.lazy import lazy_names

from linewise_pi import SESSION_DOC

# Eager: what detection asks (and the name of its module).
from linewise_pi.session.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_pi.session.parser import PiSessionParser, create_stdout_parser
    from linewise_pi.session.store import session_stores
    from linewise_pi.session.summary import summarize_session as summarize_run

__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "PiSessionParser": "linewise_pi.session.parser",
        "create_stdout_parser": "linewise_pi.session.parser",
        "session_stores": "linewise_pi.session.store",
        "summarize_run": "linewise_pi.session.summary:summarize_session",
    },
)

__all__ = [
    "PiSessionParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "Pi (session files)"

# The routing doc lives in the agent declaration (linewise_pi), read from there.
agent_configuration_doc = SESSION_DOC
