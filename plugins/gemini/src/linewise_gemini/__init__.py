"""linewise-gemini: the Gemini CLI stream-json parser plugin (adapter type ``gemini_local``)."""

from linewise_gemini.environment import check_environment
from linewise_gemini.parser import GeminiStdoutParser, create_stdout_parser, parse_stdout_line
from linewise_gemini.sniff import sniff
from linewise_gemini.summary import (
    is_auth_required,
    is_session_unrecoverable_error,
    is_transient_network_error,
    is_turn_limit_result,
    summarize_run,
)

__all__ = [
    "GeminiStdoutParser",
    "agent_configuration_doc",
    "check_environment",
    "create_stdout_parser",
    "is_auth_required",
    "is_session_unrecoverable_error",
    "is_transient_network_error",
    "is_turn_limit_result",
    "label",
    "models",
    "parse_stdout_line",
    "sniff",
    "summarize_run",
]

label = "Gemini CLI (local)"

models = [
    {"id": "auto", "label": "Auto (Gemini CLI picks the model)"},
    {"id": "gemini-2.5-pro", "label": "Gemini 2.5 Pro"},
    {"id": "gemini-2.5-flash", "label": "Gemini 2.5 Flash"},
    {"id": "gemini-2.5-flash-lite", "label": "Gemini 2.5 Flash Lite"},
    {"id": "gemini-3-pro-preview", "label": "Gemini 3 Pro (preview)"},
]

agent_configuration_doc = """\
# gemini_local

Adapter: gemini_local. Parses `gemini -p "..." --output-format stream-json`
(Gemini CLI 0.11 and later; `-o stream-json` is the same flag).

Use when:
- The agent is Gemini CLI run headless on this machine and its stdout is stream-json
  (lines like {"type":"init",...}, {"type":"message","role":"assistant",...}).
- You need the prompt, streamed assistant text, tool calls paired with their results,
  warnings and errors, and the token totals of the run.
- You need to know whether a `--resume` failed because the session is unknown or too
  large to continue, or whether the run hit its turn limit.
- The log mixes in Gemini's stderr notices ("Loaded cached credentials.", "YOLO mode is
  enabled."): they are kept as system and stderr entries.

Don't use when:
- The log is `--output-format text` (plain prose: use the generic `process` parser) or
  `--output-format json` (one JSON document at the end, not a stream).
- The agent is another CLI (Claude Code, Codex, Cursor, OpenCode ...): use its own adapter
  type; Claude-style events in a Gemini log are read, but a Claude log is not Gemini's.
- You need cost in dollars: Gemini CLI reports tokens only (cost is read when a wrapper
  adds `total_cost_usd`).

Output: init, user, assistant (stream fragments with delta: true), tool_call, tool_result
(with toolName from the stateful parser), system (notices, warnings), stderr (errors),
result (tokens; input tokens include cached ones), stdout for lines that are not Gemini's.
"""
