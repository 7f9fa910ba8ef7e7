"""linewise-codex: the Codex CLI's output and session files, as one declared ``agent``.

Adapter types: ``codex_local`` (``codex exec --json``), ``codex_app_server``
(``codex app-server``'s JSON-RPC) and ``codex_session``
(``~/.codex/sessions``). Each format's code is named by reference, imported only
when the host loads that format; the package imports its ``sniff`` alone, and its
other public names when first read.
"""

from typing import TYPE_CHECKING

from linewise_contracts.agent import Agent, Format
from linewise_contracts.lazy import lazy_names

# Eager: what detection asks of every installed format (and the name of its module).
from linewise_codex.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_codex.environment import check_environment
    from linewise_codex.parser import CodexStdoutParser, create_stdout_parser, parse_stdout_line
    from linewise_codex.summary import (
        classify_auth_refresh_failure,
        is_provider_quota_error,
        is_transient_upstream_error,
        is_unknown_session_error,
        retry_not_before,
        summarize_run,
    )

_PARSER = "linewise_codex.parser"
_SUMMARY = "linewise_codex.summary"
_ENVIRONMENT = "linewise_codex.environment"
# The public names imported when first read: a detection that only asks `sniff` imports
# none of them.
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "CodexStdoutParser": _PARSER,
        "check_environment": _ENVIRONMENT,
        "classify_auth_refresh_failure": _SUMMARY,
        "create_stdout_parser": _PARSER,
        "is_provider_quota_error": _SUMMARY,
        "is_transient_upstream_error": _SUMMARY,
        "is_unknown_session_error": _SUMMARY,
        "parse_stdout_line": _PARSER,
        "retry_not_before": _SUMMARY,
        "summarize_run": _SUMMARY,
    },
)

__all__ = [
    "APP_SERVER_DOC",
    "CodexStdoutParser",
    "agent",
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

#: The routing doc of codex_app_server (``linewise_codex.app_server`` names it too).
APP_SERVER_DOC = """\
# codex_app_server

Adapter: codex_app_server. Parses the stdout of `codex app-server` (JSON-RPC 2.0 v2
over stdio, one message a line): thread, turn and item notifications, deltas, plans,
turn diffs, token usage and approval requests.

Use when:
- A client (an IDE extension, Paperclip's runner, your own tool) drives Codex through
  `codex app-server` and you captured what the server wrote.

Don't use when:
- The log is `codex exec --json` output: use codex_local.
- The log is an ACP agent's (session/update ...): use acp.

Output: init, system (turns, other notifications), assistant / thinking (deltas once),
tool_call / tool_result (commands, MCP tools, web search, collab and dynamic tools),
diff (file changes), provider_activity (plans), workspace_change (turn diffs),
runtime_request (approvals, input requests), stderr (errors), result (per turn; Codex
reports no cost, so the run summary's cost is unknown).
"""

_APP_SERVER = "linewise_codex.app_server"
_SESSION = "linewise_codex.session"

#: The plugin (contract 1.5): Codex and the three formats linewise reads of it.
agent = Agent(
    "codex",
    label="Codex",
    models=models,
    formats=[
        Format(
            "codex_local",
            label=label,
            agent_configuration_doc=agent_configuration_doc,
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            parse_stdout_line=f"{_PARSER}:parse_stdout_line",
            sniff=sniff,
            summarize_run=f"{_SUMMARY}:summarize_run",
            check_environment=f"{_ENVIRONMENT}:check_environment",
        ),
        Format(
            "codex_app_server",
            label="Codex (app-server)",
            agent_configuration_doc=APP_SERVER_DOC,
            create_stdout_parser=f"{_APP_SERVER}.parser:create_stdout_parser",
            parse_stdout_line=f"{_APP_SERVER}.parser:parse_stdout_line",
            sniff=f"{_APP_SERVER}.sniff:sniff",
            summarize_run=f"{_APP_SERVER}.summary:summarize_run",
            check_environment=f"{_ENVIRONMENT}:check_environment",
        ),
        Format(
            "codex_session",
            label="Codex (session files)",
            create_stdout_parser=f"{_SESSION}.parser:create_stdout_parser",
            sniff=f"{_SESSION}.sniff:sniff",
            summarize_run=f"{_SESSION}.summary:summarize_session",
            session_stores=f"{_SESSION}.records:session_stores",
        ),
    ],
)
