"""linewise-hermes: the Hermes Agent text-output parser plugin (adapter type ``hermes_local``)."""

from linewise_hermes.environment import check_environment
from linewise_hermes.parser import (
    HermesStdoutParser,
    ToolLine,
    create_stdout_parser,
    parse_stdout_line,
    parse_tool_line,
    sniff,
)
from linewise_hermes.summary import is_unknown_session_error, summarize_run

__all__ = [
    "HermesStdoutParser",
    "ToolLine",
    "agent_configuration_doc",
    "check_environment",
    "create_stdout_parser",
    "is_unknown_session_error",
    "label",
    "models",
    "parse_stdout_line",
    "parse_tool_line",
    "sniff",
    "summarize_run",
]

label = "Hermes Agent (local)"

# Hermes runs any model of any provider; these are the reference's suggestions.
models = [
    {"id": "openrouter/fusion", "label": "OpenRouter: Fusion"},
    {"id": "z-ai/glm-5.2", "label": "Z.ai: GLM 5.2"},
]

agent_configuration_doc = """\
# hermes_local

Adapter: hermes_local. Parses the text stdout of Nous Research's Hermes Agent CLI run
with `hermes chat -q "..."` (quiet `-Q` or not, optionally `--resume <session_id>`),
including the `[hermes]` lines of a wrapping adapter.

Use when:
- The agent is Hermes Agent run from the command line on this machine.
- You need its tool activity (the `┊ 💻 $ cmd  0.3s` lines) as tool calls paired
  with results, durations and failure markers, its interim `┊ 💬` messages and
  reasoning box as thinking, inline diffs, and its final answer as one entry.
- You need the session id from the `session_id:` footer to resume the conversation,
  or to know that a `--resume` failed because the session does not exist.

Don't use when:
- The log comes from the Hermes gateway / API server (JSON over HTTP): not CLI text.
- The output is a JSON event stream of another CLI (Claude Code, Codex, Gemini, Grok ...):
  use its own adapter type.
- You need token usage or cost: Hermes's text output does not carry them.
- `hermes` is not installed, or no provider key is configured (env or ~/.hermes/.env).

Output: system ([hermes] lines, session footer, resume notices), tool_call and
tool_result (ids hermes-tool-N, toolName, isError on [exit N]/[error] markers),
thinking (┊ 💬 messages, reasoning box, 💭), diff (after `┊ review diff`), assistant
(the answer; lines of one answer are deltas the host merges), stderr (errors, ⚠️
warnings, timestamped log lines), user (the echoed `Query:`).
"""
