"""Pi's session files: the ``pi_session`` adapter type's exports.

The parser and sniff are :mod:`linewise_pi.session.parser`, the store
:mod:`linewise_pi.session.store`, the summary :func:`linewise_pi.session.summary.summarize_session`.
A session file is one JSON record per line, so the host reads it as it is
(no ``session_records``).
"""

from linewise_pi import SESSION_DOC
from linewise_pi.session.parser import PiSessionParser, create_stdout_parser
from linewise_pi.session.parser import session_sniff as sniff
from linewise_pi.session.store import session_stores
from linewise_pi.session.summary import summarize_session as summarize_run

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
