"""Vibe's session logs: the ``vibe_session`` adapter type's exports."""

from linewise_vibe.parser import VibeParser, create_stdout_parser
from linewise_vibe.sniff import session_sniff as sniff
from linewise_vibe.store import session_records, session_stores
from linewise_vibe.summary import summarize_run

__all__ = [
    "VibeParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_records",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "Mistral Vibe (session logs)"

agent_configuration_doc = """\
# vibe_session

Adapter: vibe_session. Reads the sessions Vibe logs, `$VIBE_HOME/logs/session/<name>/`
(`~/.vibe` by default): `messages.jsonl` (one message per line) after a record made from
`meta.json` (session id, start time, title, environment, token stats).

Use when:
- The input is a Vibe session log.

Don't use when:
- The log is `vibe --output streaming` stdout: use vibe_local.

Output: init (session id, start time, working directory), system (title, system prompt),
user, assistant, thinking, tool_call / tool_result paired by id.
"""
