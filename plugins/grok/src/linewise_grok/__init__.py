"""linewise-grok: the Grok Build streaming-json parser plugin (adapter type ``grok_local``)."""

from linewise_grok.environment import check_environment
from linewise_grok.parser import GrokStdoutParser, create_stdout_parser, parse_stdout_line, sniff
from linewise_grok.summary import is_unknown_session_error, summarize_run, usage_from

__all__ = [
    "GrokStdoutParser",
    "agent_configuration_doc",
    "check_environment",
    "create_stdout_parser",
    "is_unknown_session_error",
    "label",
    "models",
    "parse_stdout_line",
    "sniff",
    "summarize_run",
    "usage_from",
]

label = "Grok Build (local)"

models = [
    {"id": "grok-build", "label": "Grok Build (CLI default)"},
    {"id": "grok-4.7", "label": "Grok 4.7"},
    {"id": "grok-4.7-build-fast", "label": "Grok 4.7 Build Fast"},
    {"id": "grok-4.6", "label": "Grok 4.6"},
    {"id": "grok-4.5", "label": "Grok 4.5"},
]

agent_configuration_doc = """\
# grok_local

Adapter: grok_local. Parses the stdout of xAI's Grok Build CLI run headless with
`grok -p "..." --output-format streaming-json` (also `--single`, `--resume <id>`).

Use when:
- The agent is Grok Build run headless on this machine with `--output-format streaming-json`.
- You need its reasoning (with the turn breaks Grok drops restored), its answer as
  streamed text, tool calls paired with their results, and the run's session id,
  usage and cost from the final `end` event.
- You need to know whether a `--resume` failed because the session is unknown.

Don't use when:
- The log is `--output-format json` (one object at the end) or `plain` text: not a stream
  of events (use the generic `process` parser).
- The log is `--output-format streaming-messages-json` (Anthropic Messages shape): use an
  adapter for that wire format, not this one.
- The agent is another CLI (Claude Code, Codex, Gemini, Cursor, OpenCode, Hermes ...):
  use its own adapter type.
- `grok` is not installed or not logged in (`grok login`) and no XAI_API_KEY is set.

Output: thinking and assistant deltas (the host merges them), tool_call and
tool_result (with toolName from the stateful parser), stderr for `error` events,
system for `end`, plans and compaction, result (tokens, cost, stop reason) when
`end` carries usage, stdout for lines that are not JSON.
"""
