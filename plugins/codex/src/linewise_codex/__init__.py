"""linewise-codex: the Codex CLI ``exec --json`` parser plugin (adapter type ``codex_local``)."""

from linewise_codex.environment import check_environment
from linewise_codex.parser import CodexStdoutParser, create_stdout_parser, parse_stdout_line
from linewise_codex.sniff import sniff
from linewise_codex.summary import (
    classify_auth_refresh_failure,
    is_provider_quota_error,
    is_transient_upstream_error,
    is_unknown_session_error,
    retry_not_before,
    summarize_run,
)

__all__ = [
    "CodexStdoutParser",
    "agent_configuration_doc",
    "check_environment",
    "classify_auth_refresh_failure",
    "create_stdout_parser",
    "is_provider_quota_error",
    "is_transient_upstream_error",
    "is_unknown_session_error",
    "label",
    "models",
    "parse_stdout_line",
    "retry_not_before",
    "sniff",
    "summarize_run",
]

label = "Codex (local)"

models = [
    {"id": "gpt-5.1-codex", "label": "GPT-5.1 Codex"},
    {"id": "gpt-5.1-codex-mini", "label": "GPT-5.1 Codex Mini"},
    {"id": "gpt-5-codex", "label": "GPT-5 Codex"},
    {"id": "gpt-5", "label": "GPT-5"},
    {"id": "gpt-5-mini", "label": "GPT-5 mini"},
    {"id": "o4-mini", "label": "o4-mini"},
    {"id": "codex-mini-latest", "label": "Codex Mini"},
]

agent_configuration_doc = """\
# codex_local

Adapter: codex_local. Parses `codex exec --json` (JSON Lines on stdout), also
`codex exec --json resume <thread id>`, the legacy `{"id", "msg"}` events of older
releases (`codex proto`), and `acpx.*` events of Paperclip's ACP engine.

Use when:
- The agent is OpenAI's Codex CLI run headless on this machine with `--json`.
- You need commands with their output and exit codes, file changes, MCP tool calls,
  web searches and the to-do list, paired call to result, plus token usage per run.
- You need to know why a run failed: an unknown thread on resume, a usage limit
  (and when to retry), a transient upstream error, or a ChatGPT login whose refresh
  token no longer works.
- The log is a wrapper's log with `[timestamp] [LEVEL] {...}` prefixes on Codex events.

Don't use when:
- The log is Codex's human-readable output (`codex exec` without `--json`) or the
  interactive TUI: it is not JSON; use the generic `process` parser.
- The log is from `codex app-server` (JSON-RPC, not exec events): use codex_app_server;
  `codex mcp-server` is not read.
- The agent is another CLI (Claude Code, Gemini, Cursor, OpenCode ...): use its own
  adapter type.

Output: init (thread id), system (turn started, file changes), provider_activity (the
to-do list as a plan), runtime_request (legacy approval requests), thinking
(reasoning summaries), assistant, tool_call / tool_result (commands, MCP tools, web
search, collab agents; with toolName from the stateful parser, and parentToolUseId on the
collab calls of a spawned agent), diff (when Codex attaches diffs), stderr (error items,
stream errors, Codex's tracing log), result (tokens per turn; Codex reports no cost, so
the run summary's cost is unknown), stdout for lines that are not Codex events.
"""
