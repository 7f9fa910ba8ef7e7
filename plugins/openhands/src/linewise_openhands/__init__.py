"""linewise-openhands: the OpenHands CLI parser plugin (openhands_local, openhands_session)."""

from linewise_openhands.environment import check_environment
from linewise_openhands.parser import OpenHandsParser, create_stdout_parser, parse_stdout_line
from linewise_openhands.sniff import sniff
from linewise_openhands.summary import summarize_run

__all__ = [
    "OpenHandsParser",
    "agent_configuration_doc",
    "check_environment",
    "create_stdout_parser",
    "label",
    "models",
    "parse_stdout_line",
    "sniff",
    "summarize_run",
]

label = "OpenHands CLI (local)"

models = [
    {"id": "anthropic/claude-sonnet-4-6", "label": "Claude Sonnet 4.6 (via LiteLLM)"},
    {"id": "openai/gpt-5.2", "label": "GPT-5.2 (via LiteLLM)"},
    {"id": "litellm_proxy/openhands-lm", "label": "OpenHands LM (proxy)"},
]

agent_configuration_doc = """\
# openhands_local

Adapter: openhands_local. Parses `openhands --headless --json -t "..."`: every OpenHands
SDK event but the system prompt, one `model_dump()` per line, by `kind` (MessageEvent,
ActionEvent with the tool call, ObservationEvent with its result, AgentErrorEvent,
ConversationStateUpdateEvent ...).

Use when:
- The agent is the OpenHands CLI run headless with --json.

Don't use when:
- The input is a conversation folder in ~/.openhands/conversations: use openhands_session.
- OpenHands over ACP (`openhands acp`): use acp.

Output: user, assistant (messages, action thoughts, the finish message), thinking, tool_call /
tool_result paired by tool_call_id, system (state changes), stderr (agent errors).
"""
