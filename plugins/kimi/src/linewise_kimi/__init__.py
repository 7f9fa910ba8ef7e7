"""linewise-kimi: Kimi Code / kimi-cli output and session files, as one declared ``agent``.

Adapter types: ``kimi_local`` (``kimi --print --output-format stream-json`` and
``kimi --wire``) and ``kimi_session`` (Kimi Code's ``wire.jsonl``, kimi-cli's
``context.jsonl``). Each format's code is named by reference,
imported only when the host loads that format; the package imports its ``sniff`` alone,
and its other public names when first read.
"""

from typing import TYPE_CHECKING

from linewise_contracts.agent import Agent, Format
from linewise_contracts.lazy import lazy_names

# Eager: what detection asks of every installed format (and the name of its module).
from linewise_kimi.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_kimi.environment import check_environment
    from linewise_kimi.parser import KimiStdoutParser, create_stdout_parser, parse_stdout_line
    from linewise_kimi.summary import is_unknown_session_error, summarize_run

_PARSER = "linewise_kimi.parser"
_SUMMARY = "linewise_kimi.summary"
# The public names imported when first read: a detection that only asks `sniff` imports
# none of them.
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "KimiStdoutParser": _PARSER,
        "check_environment": "linewise_kimi.environment",
        "create_stdout_parser": _PARSER,
        "is_unknown_session_error": _SUMMARY,
        "parse_stdout_line": _PARSER,
        "summarize_run": _SUMMARY,
    },
)

__all__ = [
    "SESSION_DOC",
    "KimiStdoutParser",
    "agent",
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

#: The routing doc of kimi_session (``linewise_kimi.session`` names it too).
SESSION_DOC = """\
# kimi_session

Adapter: kimi_session. Reads the sessions Kimi keeps on disk: Kimi Code's
`~/.kimi-code/sessions/*/session_<uuid>/agents/main/wire.jsonl` (metadata, config,
prompts, the agent loop's content parts, tool calls and results, usage records) and
kimi-cli's `~/.kimi/sessions/*/<uuid>/context.jsonl` (OpenAI-style messages).

Use when:
- The input is a Kimi session file, not captured stdout.

Don't use when:
- The log is `kimi --print --output-format stream-json` or `kimi --wire` output: use kimi_local.

Output: init (the session id from its folder), system (config, permission mode),
user, assistant and thinking (streamed parts), tool_call / tool_result (paired by id).
"""

_SESSION = "linewise_kimi.session"

#: The plugin (contract 1.5): Kimi Code and the two formats linewise reads of it.
agent = Agent(
    "kimi",
    label="Kimi Code",
    models=models,
    formats=[
        Format(
            "kimi_local",
            label=label,
            agent_configuration_doc=agent_configuration_doc,
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            parse_stdout_line=f"{_PARSER}:parse_stdout_line",
            sniff=sniff,
            summarize_run=f"{_SUMMARY}:summarize_run",
            check_environment="linewise_kimi.environment:check_environment",
        ),
        Format(
            "kimi_session",
            label="Kimi (session files)",
            agent_configuration_doc=SESSION_DOC,
            create_stdout_parser=f"{_SESSION}.parser:create_stdout_parser",
            # Beside kimi_local's: detection imports linewise_kimi.sniff alone.
            sniff="linewise_kimi.sniff:session_sniff",
            summarize_run=f"{_SESSION}.summary:summarize_session",
            session_stores=f"{_SESSION}.store:session_stores",
            session_records=f"{_SESSION}.store:session_records",
        ),
    ],
)
