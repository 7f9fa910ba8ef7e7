"""linewise-hermes: Hermes Agent's text output and session store, as one declared ``agent``.

Adapter types: ``hermes_local`` (``hermes chat -q "..."``'s text stdout) and
``hermes_session`` (``~/.hermes/state.db`` and its session documents). Each
format's code is named by reference, imported only when the host loads that format; the
package imports its ``sniff`` alone, and its other public names when first read.
"""

from typing import TYPE_CHECKING

from linewise_contracts.agent import Agent, Format
from linewise_contracts.lazy import lazy_names

# Eager: what detection asks of every installed format (and the name of its module).
from linewise_hermes.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_hermes.environment import check_environment
    from linewise_hermes.parser import (
        HermesStdoutParser,
        ToolLine,
        create_stdout_parser,
        parse_stdout_line,
        parse_tool_line,
    )
    from linewise_hermes.summary import is_unknown_session_error, summarize_run

_PARSER = "linewise_hermes.parser"
_SUMMARY = "linewise_hermes.summary"
# The public names imported when first read: a detection that only asks `sniff` imports
# none of them.
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "HermesStdoutParser": _PARSER,
        "ToolLine": _PARSER,
        "check_environment": "linewise_hermes.environment",
        "create_stdout_parser": _PARSER,
        "is_unknown_session_error": _SUMMARY,
        "parse_stdout_line": _PARSER,
        "parse_tool_line": _PARSER,
        "summarize_run": _SUMMARY,
    },
)

__all__ = [
    "SESSION_DOC",
    "HermesStdoutParser",
    "ToolLine",
    "agent",
    "agent_configuration_doc",
    "check_environment",
    "create_stdout_parser",
    "is_unknown_session_error",
    "label",
    "models",
    "parse_stdout_line",
    "parse_tool_line",
    "sniff",
    "summarize_run",
]

label = "Hermes Agent (local)"

# Hermes runs any model of any provider; these are the reference's suggestions.
models = [
    {"id": "openrouter/fusion", "label": "OpenRouter: Fusion"},
    {"id": "z-ai/glm-5.2", "label": "Z.ai: GLM 5.2"},
]

agent_configuration_doc = """\
# hermes_local

Adapter: hermes_local. Parses the text stdout of Nous Research's Hermes Agent CLI run
with `hermes chat -q "..."` (quiet `-Q` or not, optionally `--resume <session_id>`),
including the `[hermes]` lines of a wrapping adapter.

Use when:
- The agent is Hermes Agent run from the command line on this machine.
- You need its tool activity (the `┊ 💻 $ cmd  0.3s` lines) as tool calls paired
  with results, durations and failure markers, its interim `┊ 💬` messages and
  reasoning box as thinking, inline diffs, and its final answer as one entry.
- You need the session id from the `session_id:` footer to resume the conversation,
  or to know that a `--resume` failed because the session does not exist.

Don't use when:
- The log comes from the Hermes gateway / API server (JSON over HTTP): not CLI text.
- The output is a JSON event stream of another CLI (Claude Code, Codex, Gemini, Grok ...):
  use its own adapter type.
- You need token usage or cost: Hermes's text output does not carry them.
- `hermes` is not installed, or no provider key is configured (env or ~/.hermes/.env).

Output: system ([hermes] lines, session footer, resume notices), tool_call and
tool_result (ids hermes-tool-N, toolName, isError on [exit N]/[error] markers),
thinking (┊ 💬 messages, reasoning box, 💭), diff (after `┊ review diff`), assistant
(the answer; lines of one answer are deltas the host merges), stderr (errors, ⚠️
warnings, timestamped log lines), user (the echoed `Query:`).
"""

#: The routing doc of hermes_session (``linewise_hermes.session`` names it too).
SESSION_DOC = """\
# hermes_session

Adapter: hermes_session. Reads the sessions Hermes Agent keeps on disk: the SQLite
database `~/.hermes/state.db` (`HERMES_HOME`; named profiles' `profiles/*/state.db`),
opened read-only, and the session documents `sessions/session_<id>.json`.

Use when:
- The input is a Hermes session from its store (by id, the database or a document).

Don't use when:
- The log is Hermes' text output (`[hermes]`, `┊` tool lines): use hermes_local.

Output: init (session id, model, cwd), system (title, source platform, the session it
continues), user, assistant, thinking (reasoning), tool_call and tool_result (paired by
tool_call_id, with toolName).
"""

_SESSION = "linewise_hermes.session"

#: The plugin (contract 1.5): Hermes Agent and the two formats linewise reads of it.
agent = Agent(
    "hermes",
    label="Hermes Agent",
    models=models,
    formats=[
        Format(
            "hermes_local",
            label=label,
            agent_configuration_doc=agent_configuration_doc,
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            parse_stdout_line=f"{_PARSER}:parse_stdout_line",
            sniff=sniff,
            summarize_run=f"{_SUMMARY}:summarize_run",
            check_environment="linewise_hermes.environment:check_environment",
        ),
        Format(
            "hermes_session",
            label="Hermes Agent (session store)",
            agent_configuration_doc=SESSION_DOC,
            create_stdout_parser=f"{_SESSION}.parser:create_stdout_parser",
            sniff=f"{_SESSION}.sniff:sniff",
            summarize_run=f"{_SESSION}.summary:summarize_session",
            session_stores=f"{_SESSION}.store:session_stores",
            session_records=f"{_SESSION}.store:session_records",
            session_keys=f"{_SESSION}.store:session_keys",
        ),
    ],
)
