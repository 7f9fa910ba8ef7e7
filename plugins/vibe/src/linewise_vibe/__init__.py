"""linewise-vibe: Mistral Vibe's streaming output and session logs, as one declared ``agent``.

Adapter types: ``vibe_local`` (``vibe --output streaming``) and ``vibe_session``
(``~/.vibe/logs/session/*/messages.jsonl``). The session format's code is named
by reference, imported only when it is loaded.
"""

from linewise_contracts.agent import Agent, Format

from linewise_vibe.environment import check_environment
from linewise_vibe.parser import VibeParser, create_stdout_parser, parse_stdout_line
from linewise_vibe.sniff import sniff
from linewise_vibe.summary import summarize_run

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

_SESSION = "linewise_vibe.session"

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
            create_stdout_parser=create_stdout_parser,
            parse_stdout_line=parse_stdout_line,
            sniff=sniff,
            summarize_run=summarize_run,
            check_environment=check_environment,
        ),
        Format(
            "vibe_session",
            label="Mistral Vibe (session logs)",
            agent_configuration_doc=SESSION_DOC,
            create_stdout_parser=f"{_SESSION}:create_stdout_parser",
            sniff=f"{_SESSION}:sniff",
            summarize_run=f"{_SESSION}:summarize_run",
            session_stores=f"{_SESSION}:session_stores",
            session_records=f"{_SESSION}:session_records",
        ),
    ],
)
