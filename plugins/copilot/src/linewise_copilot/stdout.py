"""``copilot_local``'s 1.x exports, where its entry point named them (read until 2.0).

The parser is :mod:`linewise_copilot.parser`, the summary :mod:`linewise_copilot.summary`,
the sniff :func:`linewise_copilot.sniff.sniff_stdout`; the format is declared in
:data:`linewise_copilot.agent`.
"""

from linewise_copilot import LOCAL_DOC
from linewise_copilot.environment import check_environment
from linewise_copilot.parser import CopilotStdoutParser, create_stdout_parser
from linewise_copilot.sniff import sniff_stdout as sniff
from linewise_copilot.summary import summarize_run

__all__ = [
    "CopilotStdoutParser",
    "agent_configuration_doc",
    "check_environment",
    "create_stdout_parser",
    "label",
    "sniff",
    "summarize_run",
]

label = "GitHub Copilot CLI (local)"

# The routing doc lives in the agent declaration (linewise_copilot), read from there.
agent_configuration_doc = LOCAL_DOC
