"""linewise-rush: Rush's session files, as one declared ``agent``.

Adapter type: ``rush_session`` (``~/.rush/sessions/<session id>/messages.jsonl``).
"""

from linewise_contracts.agent import Agent, Format

from linewise_rush.session.parser import RushSessionParser, create_stdout_parser, sniff
from linewise_rush.session.store import session_records, session_stores
from linewise_rush.session.summary import summarize_run

__all__ = [
    "RushSessionParser",
    "agent",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_records",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "Rush (session files)"

agent_configuration_doc = """\
# rush_session

Adapter: rush_session. Reads the sessions Rush keeps on disk,
`~/.rush/sessions/<session id>/messages.jsonl`: one record per line, `{id, session_id,
agent_id, type: message | tool_call | tool_result, role, content, created_at}`.

Use when:
- The input is a Rush `messages.jsonl`.

Don't use when:
- The input is another CLI's session file or stdout: use its own adapter type.

Output: init (the session id its folder names), user (the `<user_input>` text),
assistant, system (the execution start, other system messages, which agent writes),
tool_call and tool_result (paired by tool_call_id, with toolName; failed outputs are
errors).
"""

#: The plugin (contract 1.5): Rush and the one format linewise reads of it.
agent = Agent(
    "rush",
    label="Rush",
    formats=[
        Format(
            "rush_session",
            label=label,
            agent_configuration_doc=agent_configuration_doc,
            create_stdout_parser=create_stdout_parser,
            sniff=sniff,
            summarize_run=summarize_run,
            session_stores=session_stores,
            session_records=session_records,
        )
    ],
)
