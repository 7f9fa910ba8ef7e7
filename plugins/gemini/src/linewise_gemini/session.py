"""Gemini CLI's saved chats: the ``gemini_session`` adapter type's exports.

The parser is :mod:`linewise_gemini.session_parser` (what becomes what), the
records :mod:`linewise_gemini.store` (where sessions are and how one is read),
the detection :mod:`linewise_gemini.session_sniff` and the summary
:mod:`linewise_gemini.session_summary`.
"""

from linewise_gemini import SESSION_DOC
from linewise_gemini.session_parser import GeminiSessionParser, create_stdout_parser
from linewise_gemini.session_sniff import sniff
from linewise_gemini.session_summary import summarize_run
from linewise_gemini.store import session_records, session_stores

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
