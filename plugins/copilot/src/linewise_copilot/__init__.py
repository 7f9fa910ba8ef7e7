"""linewise-copilot: GitHub Copilot CLI's session events (adapter type ``copilot_session``)."""

from linewise_copilot.parser import CopilotSessionParser, create_stdout_parser
from linewise_copilot.sniff import sniff
from linewise_copilot.store import session_stores
from linewise_copilot.summary import summarize_run

__all__ = [
    "CopilotSessionParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "GitHub Copilot CLI (saved sessions)"

agent_configuration_doc = """\
# copilot_session

Adapter: copilot_session. Reads the sessions GitHub Copilot CLI keeps on disk,
`~/.copilot/session-state/<session id>/events.jsonl` (`COPILOT_HOME` moves
`~/.copilot`): one event per line, `{type, data, id, timestamp, parentId}`.

Use when:
- The input is a Copilot CLI `events.jsonl`.

Don't use when:
- The log is another CLI's (Claude Code, Codex, Gemini ...): use its own adapter type.

Output: init (session id, cwd), user, thinking, assistant, tool_call and tool_result
(paired by toolCallId, with toolName), subagent entries nested under their tool call,
system (model changes, notices, hooks), stderr (errors), result at shutdown (tokens).
"""
