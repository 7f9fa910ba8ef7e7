"""Copilot CLI's legacy session documents: the ``copilot_history`` adapter type's exports.

The store and records are :mod:`linewise_copilot.history_store`, the parser
and sniff :mod:`linewise_copilot.history_parser`, the summary
:func:`linewise_copilot.history_summary.summarize_history`.
"""

from linewise_copilot.history_parser import CopilotHistoryParser, create_stdout_parser
from linewise_copilot.history_parser import history_sniff as sniff
from linewise_copilot.history_store import session_records, session_stores
from linewise_copilot.history_summary import summarize_history as summarize_run

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

agent_configuration_doc = """\
# copilot_history

Adapter: copilot_history. Reads the session documents older GitHub Copilot CLI builds
kept, `~/.copilot/history-session-state/<id>.json` (`COPILOT_HOME` moves `~/.copilot`):
`{sessionId, startTime, chatMessages, timeline}`.

Use when:
- The input is a Copilot CLI legacy `history-session-state` document.

Don't use when:
- The input is a current `session-state/<id>/events.jsonl`: use copilot_session.
- The log is `copilot -p --output-format json` output: use copilot_local.

Output: init (session id), user, assistant, tool_call and tool_result (paired by id, or in
order where the document gives none), system (other roles, timeline events of a document
without chat messages).
"""
