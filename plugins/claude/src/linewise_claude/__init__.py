"""linewise-claude: the Claude Code stream-json parser plugin (adapter type ``claude_local``)."""

from linewise_claude.environment import check_environment
from linewise_claude.formatter import format_stdout_line
from linewise_claude.parser import ClaudeStdoutParser, create_stdout_parser, parse_stdout_line
from linewise_claude.sniff import sniff
from linewise_claude.summary import (
    is_max_turns_result,
    is_refusal_result,
    is_unknown_session_error,
    model_usage_totals,
    summarize_run,
)

__all__ = [
    "ClaudeStdoutParser",
    "agent_configuration_doc",
    "check_environment",
    "create_stdout_parser",
    "format_stdout_line",
    "is_max_turns_result",
    "is_refusal_result",
    "is_unknown_session_error",
    "label",
    "model_usage_totals",
    "models",
    "parse_stdout_line",
    "sniff",
    "summarize_run",
]

label = "Claude Code (local)"

models = [
    {"id": "claude-opus-4-5", "label": "Claude Opus 4.5"},
    {"id": "claude-sonnet-4-6", "label": "Claude Sonnet 4.6"},
    {"id": "claude-sonnet-4-5", "label": "Claude Sonnet 4.5"},
    {"id": "claude-haiku-4-5", "label": "Claude Haiku 4.5"},
]

agent_configuration_doc = """\
# claude_local

Adapter: claude_local. Parses `claude -p --output-format stream-json --verbose`
(optionally with `--include-partial-messages`).

Use when:
- The agent is Claude Code run headless on this machine and its stdout is stream-json.
- You need tool calls paired with their results, thinking, hooks, subagent tasks,
  API retries, compaction and the final usage and cost of the run.
- You need to know whether a `--resume` failed because the session is unknown.

Don't use when:
- The log is Claude Code's interactive terminal output or `--output-format text`
  (use the generic `process` parser: it is not JSON).
- The log is `--output-format json` (one JSON document at the end, not a stream).
- The agent is another CLI (Codex, Gemini, Cursor, OpenCode ...): use its own adapter type.

Output: init, assistant, thinking, tool_call, tool_result (with toolName from the
stateful parser), user, system (retries, hooks, tasks, rate limits, compaction),
result (tokens and cost), stdout for lines that are not Claude events.
"""
