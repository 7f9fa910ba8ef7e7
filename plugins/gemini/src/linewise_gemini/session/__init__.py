"""Gemini CLI's saved chats: the ``gemini_session`` adapter type's exports.

The parser is :mod:`linewise_gemini.session.parser` (what becomes what), the
records :mod:`linewise_gemini.session.store` (where sessions are and how one is read),
the detection :mod:`linewise_gemini.session.sniff` and the summary
:mod:`linewise_gemini.session.summary`.
"""

from linewise_gemini import SESSION_DOC
from linewise_gemini.session.parser import GeminiSessionParser, create_stdout_parser
from linewise_gemini.session.sniff import sniff
from linewise_gemini.session.store import session_records, session_stores
from linewise_gemini.session.summary import summarize_run

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
