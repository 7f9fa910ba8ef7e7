"""linewise-rush: Rush's session files, as one declared ``agent``.

Adapter type: ``rush_session`` (``~/.rush/sessions/<session id>/messages.jsonl``). The
format's code is named by reference, imported only when the host loads it; the package
imports its ``sniff`` alone, and its other public names when first read.
"""

from typing import TYPE_CHECKING

from linewise_contracts.agent import Agent, Format
from linewise_contracts.lazy import lazy_names

# Eager: what detection asks of every installed format.
from linewise_rush.session.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_rush.session.parser import RushSessionParser, create_stdout_parser
    from linewise_rush.session.store import session_records, session_stores
    from linewise_rush.session.summary import summarize_run

_PARSER = "linewise_rush.session.parser"
_STORE = "linewise_rush.session.store"
_SUMMARY = "linewise_rush.session.summary"
# The public names imported when first read: a detection that only asks `sniff` imports
# none of them.
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "RushSessionParser": _PARSER,
        "create_stdout_parser": _PARSER,
        "session_records": _STORE,
        "session_stores": _STORE,
        "summarize_run": _SUMMARY,
    },
)

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
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            sniff=sniff,
            summarize_run=f"{_SUMMARY}:summarize_run",
            session_stores=f"{_STORE}:session_stores",
            session_records=f"{_STORE}:session_records",
        )
    ],
)
