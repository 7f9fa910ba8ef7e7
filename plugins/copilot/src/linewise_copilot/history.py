"""``copilot_history``'s 1.x exports, where its entry point named them (read until 2.0).

Its code is :mod:`linewise_copilot.session.history`; the format is declared in
:data:`linewise_copilot.agent`.
"""

from linewise_copilot.session.history import (
    CopilotHistoryParser,
    agent_configuration_doc,
    create_stdout_parser,
    label,
    session_records,
    session_stores,
    sniff,
    summarize_run,
)

__all__ = [
    "CopilotHistoryParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_records",
    "session_stores",
    "sniff",
    "summarize_run",
]
