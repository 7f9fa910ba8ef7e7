"""linewise-opencode: OpenCode's JSON events and stored sessions, as one declared ``agent``.

Adapter types: ``opencode_local`` (``opencode run --format json``) and
``opencode_session`` (OpenCode's SQLite database and session exports). Each
format's code is named by reference, imported only when the host loads that format; the
package imports its ``sniff`` alone, and its other public names when first read.
"""

from typing import TYPE_CHECKING

from linewise_contracts.agent import Agent, Format
from linewise_contracts.lazy import lazy_names

# Eager: what detection asks of every installed format (and the name of its module).
from linewise_opencode.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_opencode.environment import check_environment
    from linewise_opencode.parser import (
        OpenCodeStdoutParser,
        create_stdout_parser,
        diff_entries,
        parse_stdout_line,
    )
    from linewise_opencode.summary import is_unknown_session_error, summarize_run

_PARSER = "linewise_opencode.parser"
_SUMMARY = "linewise_opencode.summary"
# The public names imported when first read: a detection that only asks `sniff` imports
# none of them.
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "OpenCodeStdoutParser": _PARSER,
        "check_environment": "linewise_opencode.environment",
        "create_stdout_parser": _PARSER,
        "diff_entries": _PARSER,
        "is_unknown_session_error": _SUMMARY,
        "parse_stdout_line": _PARSER,
        "summarize_run": _SUMMARY,
    },
)

__all__ = [
    "SESSION_DOC",
    "OpenCodeStdoutParser",
    "agent",
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

#: The routing doc of opencode_session (``linewise_opencode.session`` names it too).
SESSION_DOC = """\
# opencode_session

Adapter: opencode_session. Reads the sessions OpenCode keeps in its SQLite database
(`~/.local/share/opencode/opencode.db`, `XDG_DATA_HOME` moves it) and session exports
(`[{info, parts}]` from the server API, `{info, messages}` from `opencode export`),
as lines through `session_records`.

Use when:
- The input is OpenCode's database or an exported session.

Don't use when:
- The log is `opencode run --format json` output: use opencode_local.

Output: init (session id, model, cwd), user, thinking, assistant, tool_call and
tool_result (paired, with toolName), diff (edits), result per step (tokens, cost),
subagent sessions nested under their task call, system, stderr (errors).
"""

_SESSION = "linewise_opencode.session"

#: The plugin (contract 1.5): OpenCode and the two formats linewise reads of it.
agent = Agent(
    "opencode",
    label="OpenCode",
    models=models,
    formats=[
        Format(
            "opencode_local",
            label=label,
            agent_configuration_doc=agent_configuration_doc,
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            parse_stdout_line=f"{_PARSER}:parse_stdout_line",
            sniff=sniff,
            summarize_run=f"{_SUMMARY}:summarize_run",
            check_environment="linewise_opencode.environment:check_environment",
        ),
        Format(
            "opencode_session",
            label="OpenCode (stored sessions)",
            agent_configuration_doc=SESSION_DOC,
            create_stdout_parser=f"{_SESSION}.parser:create_stdout_parser",
            sniff=f"{_SESSION}.sniff:sniff",
            summarize_run=f"{_SESSION}.summary:summarize_run",
            session_stores=f"{_SESSION}.store:session_stores",
            session_records=f"{_SESSION}.store:session_records",
            session_keys=f"{_SESSION}.store:session_keys",
        ),
    ],
)
