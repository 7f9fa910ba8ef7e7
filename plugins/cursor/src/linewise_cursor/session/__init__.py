"""cursor-agent's on-disk transcripts: the ``cursor_session`` adapter type's exports.

The parser is :mod:`linewise_cursor.session.parser`, the sniff
:mod:`linewise_cursor.session.sniff`, the store and records
:mod:`linewise_cursor.session.store`, the summary
:func:`linewise_cursor.session.summary.summarize_transcript`.
"""

from typing import TYPE_CHECKING

from linewise_contracts.lazy import lazy_names

from linewise_cursor import SESSION_DOC

# Eager: what detection asks (and the name of its module).
from linewise_cursor.session.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_cursor.session.parser import CursorTranscriptParser, create_stdout_parser
    from linewise_cursor.session.store import session_records, session_stores
    from linewise_cursor.session.summary import summarize_transcript as summarize_run

__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "CursorTranscriptParser": "linewise_cursor.session.parser",
        "create_stdout_parser": "linewise_cursor.session.parser",
        "session_records": "linewise_cursor.session.store",
        "session_stores": "linewise_cursor.session.store",
        "summarize_run": "linewise_cursor.session.summary:summarize_transcript",
    },
)

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
