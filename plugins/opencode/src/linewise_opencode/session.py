"""OpenCode's stored sessions: the ``opencode_session`` adapter type's exports.

The parser is :mod:`linewise_opencode.session_parser` (what becomes what), the
records :mod:`linewise_opencode.store` (where sessions are and how one is read),
the detection :mod:`linewise_opencode.session_sniff` and the summary
:mod:`linewise_opencode.session_summary`.
"""

from linewise_opencode.session_parser import OpenCodeSessionParser, create_stdout_parser
from linewise_opencode.session_sniff import sniff
from linewise_opencode.session_summary import summarize_run
from linewise_opencode.store import session_keys, session_records, session_stores

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

agent_configuration_doc = """\
# opencode_session

Adapter: opencode_session. Reads the sessions OpenCode keeps in its SQLite database
(`~/.local/share/opencode/opencode.db`, `XDG_DATA_HOME` moves it) and session exports
(`[{info, parts}]` from the server API, `{info, messages}` from `opencode export`),
as lines through `session_records`.

Use when:
- The input is OpenCode's database or an exported session.

Don't use when:
- The log is `opencode run --format json` output: use opencode_local.

Output: init (session id, model, cwd), user, thinking, assistant, tool_call and
tool_result (paired, with toolName), diff (edits), result per step (tokens, cost),
subagent sessions nested under their task call, system, stderr (errors).
"""
