"""linewise-qwen: Qwen Code's saved chats (adapter type ``qwen_session``)."""

from linewise_qwen.parser import QwenSessionParser, create_stdout_parser
from linewise_qwen.sniff import sniff
from linewise_qwen.store import session_stores
from linewise_qwen.summary import summarize_run

__all__ = [
    "QwenSessionParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "Qwen Code (saved chats)"

agent_configuration_doc = """\
# qwen_session

Adapter: qwen_session. Reads the chats Qwen Code saves on disk,
`~/.qwen/projects/<project>/chats/<session>.jsonl` (one record per line: user,
assistant, tool_result, system).

Use when:
- The input is a saved Qwen Code chat file.

Don't use when:
- The log is Claude Code's session file (`~/.claude/projects`): use claude_session.
- The log is Qwen Code's stdout (`qwen -p ... -o stream-json`): use qwen_local.
- The file is `~/.qwen/usage_record.jsonl` or a project's `meta.json`: not sessions.

Output: init (session id, cwd), user, thinking, assistant, tool_call and tool_result
(paired by call id, with toolName), result per model request (tokens), stderr (API
errors), system (other notices).
"""
