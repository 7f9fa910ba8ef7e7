"""linewise-vibe: Mistral Vibe's streaming output and session logs, as one declared ``agent``.

Adapter types: ``vibe_local`` (``vibe --output streaming``) and ``vibe_session``
(``~/.vibe/logs/session/*/messages.jsonl``). Each format's code is named by
reference, imported only when the host loads that format; the package imports its
``sniff`` alone, and its other public names when first read.
"""

from typing import TYPE_CHECKING

from linewise_contracts.agent import Agent, Format
from linewise_contracts.lazy import lazy_names

# Eager: what detection asks of every installed format (and the name of its module).
from linewise_vibe.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_vibe.environment import check_environment
    from linewise_vibe.parser import VibeParser, create_stdout_parser, parse_stdout_line
    from linewise_vibe.summary import summarize_run

_PARSER = "linewise_vibe.parser"
_SUMMARY = "linewise_vibe.summary"
# The public names imported when first read: a detection that only asks `sniff` imports
# none of them.
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "VibeParser": _PARSER,
        "check_environment": "linewise_vibe.environment",
        "create_stdout_parser": _PARSER,
        "parse_stdout_line": _PARSER,
        "summarize_run": _SUMMARY,
    },
)

__all__ = [
    "SESSION_DOC",
    "VibeParser",
    "agent",
    "agent_configuration_doc",
    "check_environment",
    "create_stdout_parser",
    "label",
    "models",
    "parse_stdout_line",
    "sniff",
    "summarize_run",
]

label = "Mistral Vibe (local)"

models = [
    {"id": "devstral-2", "label": "Devstral 2"},
    {"id": "devstral-small-2", "label": "Devstral Small 2"},
    {"id": "mistral-medium-3.2", "label": "Mistral Medium 3.2"},
]

agent_configuration_doc = """\
# vibe_local

Adapter: vibe_local. Parses Mistral Vibe's `vibe -p "..." --output streaming`: one message
per line (`LLMMessage.model_dump()`: role, content, reasoning_content, tool_calls,
tool_call_id, name, message_id).

Use when:
- The agent is Mistral Vibe run in programmatic mode with streaming output.

Don't use when:
- The input is a Vibe session log (~/.vibe/logs/session/*/messages.jsonl): use vibe_session.
- `--output json` (one array at the end) or text: use the generic `process` parser.

Output: user, assistant, thinking (reasoning_content), tool_call / tool_result paired by
tool_call_id, system (the system prompt and injected messages, shortened). The stream
reports no usage.
"""

#: The routing doc of vibe_session (``linewise_vibe.session`` names it too).
SESSION_DOC = """\
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

_STORE = "linewise_vibe.session.store"

#: The plugin (contract 1.5): Mistral Vibe and the two formats linewise reads of it.
agent = Agent(
    "vibe",
    label="Mistral Vibe",
    models=models,
    formats=[
        Format(
            "vibe_local",
            label=label,
            agent_configuration_doc=agent_configuration_doc,
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            parse_stdout_line=f"{_PARSER}:parse_stdout_line",
            sniff=sniff,
            summarize_run=f"{_SUMMARY}:summarize_run",
            check_environment="linewise_vibe.environment:check_environment",
        ),
        Format(
            "vibe_session",
            label="Mistral Vibe (session logs)",
            agent_configuration_doc=SESSION_DOC,
            # A session log holds the streaming messages: vibe_local's parser and summary.
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            sniff="linewise_vibe.sniff:session_sniff",
            summarize_run=f"{_SUMMARY}:summarize_run",
            session_stores=f"{_STORE}:session_stores",
            session_records=f"{_STORE}:session_records",
        ),
    ],
)
