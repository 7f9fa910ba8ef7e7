"""linewise-goose: the Goose ``stream-json`` parser plugin (adapter type ``goose_local``)."""

from linewise_goose.environment import check_environment
from linewise_goose.parser import GooseStdoutParser, create_stdout_parser, parse_stdout_line
from linewise_goose.sniff import sniff
from linewise_goose.summary import is_unknown_session_error, summarize_run

__all__ = [
    "GooseStdoutParser",
    "agent_configuration_doc",
    "check_environment",
    "create_stdout_parser",
    "is_unknown_session_error",
    "label",
    "models",
    "parse_stdout_line",
    "sniff",
    "summarize_run",
]

label = "Goose (local)"

# Goose runs whatever provider and model `goose configure` chose (GOOSE_PROVIDER / GOOSE_MODEL).
models = [
    {"id": "claude-sonnet-4-6", "label": "Claude Sonnet 4.6 (Anthropic)"},
    {"id": "gpt-5.2", "label": "GPT-5.2 (OpenAI)"},
    {"id": "gemini-3.1-pro", "label": "Gemini 3.1 Pro (Google)"},
]

agent_configuration_doc = """\
# goose_local

Adapter: goose_local. Parses `goose run -t "..." --output-format stream-json`: message
events (goose Messages with text, thinking, toolRequest and toolResponse parts),
extension notifications, model changes, errors and the terminal `complete` event with
tokens and cost.

Use when:
- The agent is Goose (aaif-goose/goose, formerly block/goose) run headless.

Don't use when:
- The log is `goose run` text output, or `--output-format json` (one document): use the
  generic `process` parser.
- The agent talks ACP (`goose acp`): use acp.

Output: user, assistant (streamed pieces as deltas), thinking, tool_call / tool_result
(paired by id), system (notifications, model changes, confirmations), stderr (errors),
result (tokens, cost), stdout for other lines.
"""
