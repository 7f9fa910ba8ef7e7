"""linewise-gemini: Gemini CLI's stream-json and saved chats, as one declared ``agent``.

Adapter types: ``gemini_local`` (``gemini -p ... --output-format stream-json``) and
``gemini_session`` (``~/.gemini/tmp/*/chats``). Each format's code is named by
reference, imported only when the host loads that format; the package imports its
``sniff`` alone, and its other public names when first read.
"""

from typing import TYPE_CHECKING

from linewise_contracts.agent import Agent, Format
from linewise_contracts.lazy import lazy_names

# Eager: what detection asks of every installed format (and the name of its module).
from linewise_gemini.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_gemini.environment import check_environment
    from linewise_gemini.parser import GeminiStdoutParser, create_stdout_parser, parse_stdout_line
    from linewise_gemini.summary import (
        is_auth_required,
        is_session_unrecoverable_error,
        is_transient_network_error,
        is_turn_limit_result,
        summarize_run,
    )

_PARSER = "linewise_gemini.parser"
_SUMMARY = "linewise_gemini.summary"
# The public names imported when first read: a detection that only asks `sniff` imports
# none of them.
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "GeminiStdoutParser": _PARSER,
        "check_environment": "linewise_gemini.environment",
        "create_stdout_parser": _PARSER,
        "is_auth_required": _SUMMARY,
        "is_session_unrecoverable_error": _SUMMARY,
        "is_transient_network_error": _SUMMARY,
        "is_turn_limit_result": _SUMMARY,
        "parse_stdout_line": _PARSER,
        "summarize_run": _SUMMARY,
    },
)

__all__ = [
    "SESSION_DOC",
    "GeminiStdoutParser",
    "agent",
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

#: The routing doc of gemini_session (``linewise_gemini.session`` names it too).
SESSION_DOC = """\
# gemini_session

Adapter: gemini_session. Reads the chats Gemini CLI saves on disk,
`~/.gemini/tmp/<project hash>/chats/session-*.json` (one JSON document) and the
newer `session-*.jsonl`, as lines through `session_records`.

Use when:
- The input is a saved Gemini CLI chat file, not captured stdout.

Don't use when:
- The log is `gemini -p ... --output-format stream-json` output: use gemini_local.

Output: init (session id, model), user, thinking, assistant, tool_call and tool_result
(paired by id, with toolName), result per reply (tokens), system (info, warnings),
stderr (errors).
"""

_SESSION = "linewise_gemini.session"

#: The plugin (contract 1.5): Gemini CLI and the two formats linewise reads of it.
agent = Agent(
    "gemini",
    label="Gemini CLI",
    models=models,
    formats=[
        Format(
            "gemini_local",
            label=label,
            agent_configuration_doc=agent_configuration_doc,
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            parse_stdout_line=f"{_PARSER}:parse_stdout_line",
            sniff=sniff,
            summarize_run=f"{_SUMMARY}:summarize_run",
            check_environment="linewise_gemini.environment:check_environment",
        ),
        Format(
            "gemini_session",
            label="Gemini CLI (saved chats)",
            agent_configuration_doc=SESSION_DOC,
            create_stdout_parser=f"{_SESSION}.parser:create_stdout_parser",
            sniff=f"{_SESSION}.sniff:sniff",
            summarize_run=f"{_SESSION}.summary:summarize_run",
            session_stores=f"{_SESSION}.store:session_stores",
            session_records=f"{_SESSION}.store:session_records",
        ),
    ],
)
