"""linewise-opencode: the OpenCode JSON event parser plugin (adapter type ``opencode_local``)."""

from linewise_opencode.environment import check_environment
from linewise_opencode.parser import (
    OpenCodeStdoutParser,
    create_stdout_parser,
    diff_entries,
    parse_stdout_line,
)
from linewise_opencode.sniff import sniff
from linewise_opencode.summary import is_unknown_session_error, summarize_run

__all__ = [
    "OpenCodeStdoutParser",
    "agent_configuration_doc",
    "check_environment",
    "create_stdout_parser",
    "diff_entries",
    "is_unknown_session_error",
    "label",
    "models",
    "parse_stdout_line",
    "sniff",
    "summarize_run",
]

label = "OpenCode (local)"

# OpenCode names models provider/model; these are common choices, not a closed list.
models = [
    {"id": "anthropic/claude-sonnet-4-5", "label": "Claude Sonnet 4.5 (Anthropic)"},
    {"id": "anthropic/claude-opus-4-5", "label": "Claude Opus 4.5 (Anthropic)"},
    {"id": "openai/gpt-5", "label": "GPT-5 (OpenAI)"},
    {"id": "google/gemini-2.5-pro", "label": "Gemini 2.5 Pro (Google)"},
    {"id": "opencode/grok-code", "label": "Grok Code Fast (OpenCode Zen)"},
]

agent_configuration_doc = """\
# opencode_local

Adapter: opencode_local. Parses `opencode run "..." --format json` (one JSON event per
line: step_start, text, reasoning, tool_use, step_finish, error, done).

Use when:
- The agent is OpenCode run headless on this machine with `--format json`.
- You need the assistant's text, reasoning (with `--thinking`), tool calls paired with
  their results (file edits also as diff lines), and tokens and cost per step.
- You need to know whether `--session` failed because the session is unknown.
- The model behind OpenCode is any provider (Anthropic, OpenAI, Google, local ...):
  the event format is OpenCode's, whatever the model.

Don't use when:
- The log is OpenCode's default formatted output (no `--format json`): use the generic
  `process` parser.
- The log is the event stream of `opencode serve` (message.part.updated, session.idle):
  that is the server API, not `run --format json`.
- The agent is another CLI (Claude Code, Codex, Gemini, Cursor ...): use its own adapter type.

Output: system (step started, run finished), assistant, thinking, tool_call, tool_result
(status and one-line metadata, then the output; toolName from the stateful parser),
diff (edits), result per step (tokens, cost, finish reason), stderr (errors), stdout for
lines that are not OpenCode events.
"""
