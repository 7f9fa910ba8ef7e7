"""cursor-agent's on-disk transcripts: the ``cursor_session`` adapter type's exports.

The parser and sniff are :mod:`linewise_cursor.session.parser`, the store and
records :mod:`linewise_cursor.session.store`, the summary
:func:`linewise_cursor.session.summary.summarize_transcript`.
"""

from linewise_cursor import SESSION_DOC
from linewise_cursor.session.parser import CursorTranscriptParser, create_stdout_parser, sniff
from linewise_cursor.session.store import session_records, session_stores
from linewise_cursor.session.summary import summarize_transcript as summarize_run

__all__ = [
    "CursorTranscriptParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_records",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "Cursor CLI (agent transcripts)"

# The routing doc lives in the agent declaration (linewise_cursor), read from there.
agent_configuration_doc = SESSION_DOC
