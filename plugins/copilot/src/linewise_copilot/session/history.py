"""Copilot CLI's legacy session documents: the ``copilot_history`` adapter type's exports.

The store and records are :mod:`linewise_copilot.session.history_store`, the parser
:mod:`linewise_copilot.session.history_parser`, the sniff
:mod:`linewise_copilot.session.history_sniff`, the summary
:func:`linewise_copilot.session.history_summary.summarize_history`.
"""

from linewise_copilot import HISTORY_DOC
from linewise_copilot.session.history_parser import CopilotHistoryParser, create_stdout_parser
from linewise_copilot.session.history_sniff import history_sniff as sniff
from linewise_copilot.session.history_store import session_records, session_stores
from linewise_copilot.session.history_summary import summarize_history as summarize_run

__all__ = [
    "CopilotHistoryParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_records",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "GitHub Copilot CLI (legacy session documents)"

# The routing doc lives in the agent declaration (linewise_copilot), read from there.
agent_configuration_doc = HISTORY_DOC
