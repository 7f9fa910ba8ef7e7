"""The ``cursor_cloud`` adapter: Cursor Cloud agent runs as Paperclip's cursor_cloud.* events."""

from linewise_cursor.environment import check_cloud_environment as check_environment
from linewise_cursor.parser import CursorStdoutParser, create_stdout_parser, parse_stdout_line
from linewise_cursor.sniff import sniff_cloud as sniff
from linewise_cursor.summary import summarize_run

__all__ = [
    "CursorStdoutParser",
    "agent_configuration_doc",
    "check_environment",
    "create_stdout_parser",
    "label",
    "models",
    "parse_stdout_line",
    "sniff",
    "summarize_run",
]

label = "Cursor Cloud"

# The account decides which models a cloud agent may use (and its default when
# none is given); the Cursor API lists them, so no fixed list is offered here.
models: list[dict[str, str]] = []

agent_configuration_doc = """\
# cursor_cloud

Adapter: cursor_cloud. Parses the event log of a Cursor Cloud agent run:
`cursor_cloud.init`, `.status`, `.message` (the Cursor SDK's assistant, user, thinking,
tool_call and tool_result messages), `.tool`, `.git` and `.result`, one JSON object a line.

Use when:
- The agent ran on Cursor's cloud machines against a repository (no local CLI), and you have
  the cursor_cloud.* event stream of the run.
- You need the run's messages, tool calls with results, status changes, the branch and pull
  request it produced, and its final status.

Don't use when:
- Cursor's Agent CLI ran locally (`cursor-agent -p --output-format stream-json`): use `cursor`.
- The agent is another CLI: use its own adapter type.

Output: init (agent id), system (status, tool progress, git branches and PRs), assistant,
thinking, user, tool_call / tool_result with toolName, result (status; no tokens or cost are
reported), stdout for lines that are not cursor_cloud events.
"""
