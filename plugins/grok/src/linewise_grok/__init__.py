"""linewise-grok: Grok Build's streaming-json and session folders, as one declared ``agent``.

Adapter types: ``grok_local`` (``streaming-json`` on stdout) and ``grok_session`` (its
session folders). Each format's code is named by reference, imported only when the host
loads that format; the package imports its ``sniff`` alone, and its other public names
when first read.
"""

from typing import TYPE_CHECKING

from linewise_contracts.agent import Agent, Format
from linewise_contracts.lazy import lazy_names

# Eager: what detection asks of every installed format (and the name of its module).
from linewise_grok.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_grok.environment import check_environment
    from linewise_grok.parser import GrokStdoutParser, create_stdout_parser, parse_stdout_line
    from linewise_grok.summary import is_unknown_session_error, summarize_run, usage_from

_PARSER = "linewise_grok.parser"
_SUMMARY = "linewise_grok.summary"
# The public names imported when first read: a detection that only asks `sniff` imports
# none of them.
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "GrokStdoutParser": _PARSER,
        "check_environment": "linewise_grok.environment",
        "create_stdout_parser": _PARSER,
        "is_unknown_session_error": _SUMMARY,
        "parse_stdout_line": _PARSER,
        "summarize_run": _SUMMARY,
        "usage_from": _SUMMARY,
    },
)

__all__ = [
    "SESSION_DOC",
    "GrokStdoutParser",
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

#: The routing doc of grok_session (``linewise_grok.session`` names it too).
SESSION_DOC = """\
# grok_session

Adapter: grok_session. Reads the sessions Grok Build keeps on disk,
`~/.grok/sessions/<url-encoded cwd>/<uuid>/` (`GROK_HOME` moves `~/.grok`): the
conversation in `updates.jsonl` (ACP session/update notifications, with turn usage in
newer builds) or `chat_history.jsonl`, with `summary.json` and `signals.json`.

Use when:
- The input is a Grok Build session folder's file, not captured stdout.

Don't use when:
- The log is `grok -p ... --output-format streaming-json` output: use grok_local.

Output: init (session id, model, cwd from summary.json), system (title, completed turns
with their tokens), user, assistant, thinking, tool_call and tool_result (paired by id).
"""

_SESSION = "linewise_grok.session"

#: The plugin (contract 1.5): Grok Build and the two formats linewise reads of it.
agent = Agent(
    "grok",
    label="Grok Build",
    models=models,
    formats=[
        Format(
            "grok_local",
            label=label,
            agent_configuration_doc=agent_configuration_doc,
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            parse_stdout_line=f"{_PARSER}:parse_stdout_line",
            sniff=sniff,
            summarize_run=f"{_SUMMARY}:summarize_run",
            check_environment="linewise_grok.environment:check_environment",
        ),
        Format(
            "grok_session",
            label="Grok Build (session folders)",
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
