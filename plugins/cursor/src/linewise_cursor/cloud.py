"""The ``cursor_cloud`` adapter: Cursor Cloud agent runs as Paperclip's cursor_cloud.* events."""

from linewise_cursor import CLOUD_DOC
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

# The routing doc lives in the agent declaration (linewise_cursor), read from there.
agent_configuration_doc = CLOUD_DOC
