"""Gemini CLI's saved chats: the ``gemini_session`` adapter type's exports.

The parser is :mod:`linewise_gemini.session_parser` (what becomes what), the
records :mod:`linewise_gemini.store` (where sessions are and how one is read),
the detection :mod:`linewise_gemini.session_sniff` and the summary
:mod:`linewise_gemini.session_summary`.
"""

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

agent_configuration_doc = """\
# gemini_session

Adapter: gemini_session. Reads the chats Gemini CLI saves on disk,
`~/.gemini/tmp/<project hash>/chats/session-*.json` (one JSON document) and the
newer `session-*.jsonl`, as lines through `session_records`.

Use when:
- The input is a saved Gemini CLI chat file, not captured stdout.

Don't use when:
- The log is `gemini -p ... --output-format stream-json` output: use gemini_local.

Output: init (session id, model), user, thinking, assistant, tool_call and tool_result
(paired by id, with toolName), result per reply (tokens), system (info, warnings),
stderr (errors).
"""
