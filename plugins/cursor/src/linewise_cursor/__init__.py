"""linewise-cursor: the Cursor Agent CLI parser plugin (adapter type ``cursor``)."""

from linewise_cursor.environment import check_environment
from linewise_cursor.parser import CursorStdoutParser, create_stdout_parser, parse_stdout_line
from linewise_cursor.sniff import sniff
from linewise_cursor.summary import is_unknown_session_error, result_usage, summarize_run

__all__ = [
    "CursorStdoutParser",
    "agent_configuration_doc",
    "check_environment",
    "create_stdout_parser",
    "is_unknown_session_error",
    "label",
    "models",
    "parse_stdout_line",
    "result_usage",
    "sniff",
    "summarize_run",
]

label = "Cursor CLI (local)"

# `--model` values of cursor-agent; `auto` lets Cursor choose (the only one on free plans).
models = [
    {"id": "auto", "label": "Auto"},
    {"id": "composer-1.5", "label": "Composer 1.5"},
    {"id": "gpt-5.3-codex", "label": "GPT-5.3 Codex"},
    {"id": "gpt-5.3-codex-high", "label": "GPT-5.3 Codex (high)"},
    {"id": "gpt-5.2", "label": "GPT-5.2"},
    {"id": "opus-4.6", "label": "Claude Opus 4.6"},
    {"id": "opus-4.6-thinking", "label": "Claude Opus 4.6 (thinking)"},
    {"id": "sonnet-4.6", "label": "Claude Sonnet 4.6"},
    {"id": "sonnet-4.6-thinking", "label": "Claude Sonnet 4.6 (thinking)"},
    {"id": "gemini-3-pro", "label": "Gemini 3 Pro"},
    {"id": "gemini-3-flash", "label": "Gemini 3 Flash"},
    {"id": "grok", "label": "Grok"},
]

agent_configuration_doc = """\
# cursor

Adapter: cursor. Parses `cursor-agent -p --output-format stream-json`
(also run as `agent`), with or without `--stream-partial-output`, including
Paperclip logs whose lines carry a `stdout`/`stderr` prefix.

Use when:
- The agent is Cursor's Agent CLI run headless on this machine and its stdout is stream-json.
- You need tool calls (`shellToolCall`, `readToolCall`, `editToolCall` ...) paired with
  their results, streamed thinking, and the session id for `--resume`.
- You need to know whether a `--resume` failed because Cursor does not know the chat.

Don't use when:
- The run is a Cursor Cloud agent (`cursor_cloud.*` events): use `cursor_cloud`.
- The log is `--output-format text` or `json` (not a stream): use the generic `process` parser.
- The agent is another CLI (Claude Code, Codex, Gemini, OpenCode, Pi ...): use its own adapter type.

Output: init, user, assistant (text fragments of `--stream-partial-output` as deltas),
thinking deltas, tool_call / tool_result (shell results as `exit N` with stdout and stderr),
result (tokens from 2026.08 on, none before; Cursor reports no cost, so the run summary's
cost is unknown), stderr for error events, stdout for lines that are not Cursor events.
"""
