"""Gemini CLI's saved chats: the ``gemini_session`` adapter type's exports.

The parser is :mod:`linewise_gemini.session.parser` (what becomes what), the
records :mod:`linewise_gemini.session.store` (where sessions are and how one is read),
the detection :mod:`linewise_gemini.session.sniff` and the summary
:mod:`linewise_gemini.session.summary`.
"""

from typing import TYPE_CHECKING

from linewise_contracts.lazy import lazy_names

from linewise_gemini import SESSION_DOC

# Eager: what detection asks (and the name of its module).
from linewise_gemini.session.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_gemini.session.parser import GeminiSessionParser, create_stdout_parser
    from linewise_gemini.session.store import session_records, session_stores
    from linewise_gemini.session.summary import summarize_run

__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "GeminiSessionParser": "linewise_gemini.session.parser",
        "create_stdout_parser": "linewise_gemini.session.parser",
        "session_records": "linewise_gemini.session.store",
        "session_stores": "linewise_gemini.session.store",
        "summarize_run": "linewise_gemini.session.summary",
    },
)

__all__ = [
    "GeminiSessionParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_records",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "Gemini CLI (saved chats)"

# The routing doc lives in the agent declaration (linewise_gemini), read from there.
agent_configuration_doc = SESSION_DOC
