"""linewise-goose: Goose's ``stream-json`` and session store, as one declared ``agent``.

Adapter types: ``goose_local`` (``goose run --output-format stream-json``) and
``goose_session`` (its session store). Each format's code is named by reference, imported
only when the host loads that format; the package imports its ``sniff`` alone, and its
other public names when first read.
"""

from typing import TYPE_CHECKING

from linewise_contracts.agent import Agent, Format
from linewise_contracts.lazy import lazy_names

# Eager: what detection asks of every installed format (and the name of its module).
from linewise_goose.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_goose.environment import check_environment
    from linewise_goose.parser import GooseStdoutParser, create_stdout_parser, parse_stdout_line
    from linewise_goose.summary import is_unknown_session_error, summarize_run

_PARSER = "linewise_goose.parser"
_SUMMARY = "linewise_goose.summary"
# The public names imported when first read: a detection that only asks `sniff` imports
# none of them.
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "GooseStdoutParser": _PARSER,
        "check_environment": "linewise_goose.environment",
        "create_stdout_parser": _PARSER,
        "is_unknown_session_error": _SUMMARY,
        "parse_stdout_line": _PARSER,
        "summarize_run": _SUMMARY,
    },
)

__all__ = [
    "SESSION_DOC",
    "GooseStdoutParser",
    "agent",
    "agent_configuration_doc",
    "check_environment",
    "create_stdout_parser",
    "is_unknown_session_error",
    "label",
    "models",
    "parse_stdout_line",
    "sniff",
    "summarize_run",
]

label = "Goose (local)"

# Goose runs whatever provider and model `goose configure` chose (GOOSE_PROVIDER / GOOSE_MODEL).
models = [
    {"id": "claude-sonnet-4-6", "label": "Claude Sonnet 4.6 (Anthropic)"},
    {"id": "gpt-5.2", "label": "GPT-5.2 (OpenAI)"},
    {"id": "gemini-3.1-pro", "label": "Gemini 3.1 Pro (Google)"},
]

agent_configuration_doc = """\
# goose_local

Adapter: goose_local. Parses `goose run -t "..." --output-format stream-json`: message
events (goose Messages with text, thinking, toolRequest and toolResponse parts),
extension notifications, model changes, errors and the terminal `complete` event with
tokens and cost.

Use when:
- The agent is Goose (aaif-goose/goose, formerly block/goose) run headless.

Don't use when:
- The log is `goose run` text output, or `--output-format json` (one document): use the
  generic `process` parser.
- The agent talks ACP (`goose acp`): use acp.

Output: user, assistant (streamed pieces as deltas), thinking, tool_call / tool_result
(paired by id), system (notifications, model changes, confirmations), stderr (errors),
result (tokens, cost), stdout for other lines.
"""

#: The routing doc of goose_session (``linewise_goose.session`` names it too).
SESSION_DOC = """\
# goose_session

Adapter: goose_session. Reads the sessions Goose keeps on disk: the SQLite database
`~/.local/share/goose/sessions/sessions.db` (`XDG_DATA_HOME`, `GOOSE_PATH_ROOT`; macOS
`~/Library/Application Support/Block/goose`), opened read-only, and the
`<yyyymmdd_hhmmss>.jsonl` session files of older versions beside it.

Use when:
- The input is a Goose session from its store (by id, the database or a session file).

Don't use when:
- The log is `goose run --output-format stream-json` output: use goose_local.

Output: init (session id, model, working directory), system (title, session type),
user, assistant, thinking, tool_call and tool_result (paired by id, with toolName).
"""

_SESSION = "linewise_goose.session"

#: The plugin (contract 1.5): Goose and the two formats linewise reads of it.
agent = Agent(
    "goose",
    label="Goose",
    models=models,
    formats=[
        Format(
            "goose_local",
            label=label,
            agent_configuration_doc=agent_configuration_doc,
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            parse_stdout_line=f"{_PARSER}:parse_stdout_line",
            sniff=sniff,
            summarize_run=f"{_SUMMARY}:summarize_run",
            check_environment="linewise_goose.environment:check_environment",
        ),
        Format(
            "goose_session",
            label="Goose (session store)",
            agent_configuration_doc=SESSION_DOC,
            create_stdout_parser=f"{_SESSION}.parser:create_stdout_parser",
            sniff=f"{_SESSION}.sniff:session_sniff",
            summarize_run=f"{_SESSION}.summary:summarize_session",
            session_stores=f"{_SESSION}.store:session_stores",
            session_records=f"{_SESSION}.store:session_records",
            session_keys=f"{_SESSION}.store:session_keys",
        ),
    ],
)
