"""OpenCode's stored sessions: the ``opencode_session`` adapter type's exports.

The parser is :mod:`linewise_opencode.session.parser` (what becomes what), the
records :mod:`linewise_opencode.session.store` (where sessions are and how one is read),
the detection :mod:`linewise_opencode.session.sniff` and the summary
:mod:`linewise_opencode.session.summary`.
"""

from typing import TYPE_CHECKING

from linewise_contracts.lazy import lazy_names

from linewise_opencode import SESSION_DOC

# Eager: what detection asks (and the name of its module).
from linewise_opencode.session.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_opencode.session.parser import OpenCodeSessionParser, create_stdout_parser
    from linewise_opencode.session.store import session_keys, session_records, session_stores
    from linewise_opencode.session.summary import summarize_run

_PARSER = "linewise_opencode.session.parser"
_STORE = "linewise_opencode.session.store"
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "OpenCodeSessionParser": _PARSER,
        "create_stdout_parser": _PARSER,
        "session_keys": _STORE,
        "session_records": _STORE,
        "session_stores": _STORE,
        "summarize_run": "linewise_opencode.session.summary",
    },
)

__all__ = [
    "OpenCodeSessionParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_keys",
    "session_records",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "OpenCode (stored sessions)"

# The routing doc lives in the agent declaration (linewise_opencode), read from there.
agent_configuration_doc = SESSION_DOC
