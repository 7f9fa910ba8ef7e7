"""linewise-vibe: the Mistral Vibe parser plugin (``vibe_local``; ``vibe_session``)."""

from linewise_vibe.environment import check_environment
from linewise_vibe.parser import VibeParser, create_stdout_parser, parse_stdout_line
from linewise_vibe.sniff import sniff
from linewise_vibe.summary import summarize_run

__all__ = [
    "VibeParser",
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
