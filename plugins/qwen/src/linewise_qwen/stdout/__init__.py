"""qwen_local's 1.x entry point, kept for importers: the code is the package's top level.

``from linewise_qwen.stdout import create_stdout_parser`` still works; the
entry point names ``linewise_qwen:agent.qwen_local`` now.
"""

from linewise_qwen import (
    QwenStdoutParser,
    agent_configuration_doc,
    create_stdout_parser,
    label,
    parse_stdout_line,
    sniff,
    summarize_run,
)

__all__ = [
    "QwenStdoutParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "parse_stdout_line",
    "sniff",
    "summarize_run",
]
