"""linewise-kimi: the Kimi Code / kimi-cli parser plugin (``kimi_local``; ``kimi_session``)."""

from linewise_kimi.environment import check_environment
from linewise_kimi.parser import KimiStdoutParser, create_stdout_parser, parse_stdout_line
from linewise_kimi.sniff import sniff
from linewise_kimi.summary import is_unknown_session_error, summarize_run

__all__ = [
    "KimiStdoutParser",
    "agent_configuration_doc",
    "check_environment",
    "create_stdout_parser",
    "is_unknown_session_error",
    "label",
    "models",
    "parse_stdout_line",
    "sniff",
    "summarize_run",
]

label = "Kimi Code (local)"

models = [
    {"id": "kimi-k2", "label": "Kimi K2"},
    {"id": "kimi-k2-thinking", "label": "Kimi K2 Thinking"},
    {"id": "kimi-k2.5", "label": "Kimi K2.5"},
]

agent_configuration_doc = """\
# kimi_local

Adapter: kimi_local. Parses Kimi's stdout (Kimi Code CLI and the older kimi-cli, both `kimi`):
`kimi --print --output-format stream-json -p "..."` (one OpenAI-style message per line:
assistant content and tool_calls, role "tool" replies) and `kimi --wire` (JSON-RPC 2.0:
prompt and steer requests, event notifications with TurnBegin, ContentPart, ToolCall,
ToolResult, approvals, subagent events).

Use when:
- The agent is Kimi run headless in print mode with stream-json, or driven over its wire protocol.

Don't use when:
- The input is a Kimi session file (wire.jsonl, context.jsonl): use kimi_session.
- The log is print mode's plain text output: use the generic `process` parser.

Output: user, assistant, thinking, tool_call / tool_result (paired by tool_call_id),
system (wire lifecycle, approvals, plans, notifications), stderr (JSON-RPC errors,
interrupted steps), stdout for other lines. Print mode reports no usage.
"""
