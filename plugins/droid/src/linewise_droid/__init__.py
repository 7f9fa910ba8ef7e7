"""linewise-droid: Factory Droid's stream-json and session files, as one declared ``agent``.

Adapter types: ``droid_local`` (``droid exec -o stream-json``) and ``droid_session``
(``~/.factory/sessions``). Each format's code is named by reference, imported only when
the host loads that format; the package imports its ``sniff`` alone, and its other public
names when first read.
"""

from typing import TYPE_CHECKING

from linewise_contracts.agent import Agent, Format
from linewise_contracts.lazy import lazy_names

# Eager: what detection asks of every installed format (and the name of its module).
from linewise_droid.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_droid.environment import check_environment
    from linewise_droid.parser import DroidStdoutParser, create_stdout_parser, parse_stdout_line
    from linewise_droid.summary import is_unknown_session_error, summarize_run

_PARSER = "linewise_droid.parser"
_SUMMARY = "linewise_droid.summary"
# The public names imported when first read: a detection that only asks `sniff` imports
# none of them.
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "DroidStdoutParser": _PARSER,
        "check_environment": "linewise_droid.environment",
        "create_stdout_parser": _PARSER,
        "is_unknown_session_error": _SUMMARY,
        "parse_stdout_line": _PARSER,
        "summarize_run": _SUMMARY,
    },
)

__all__ = [
    "SESSION_DOC",
    "DroidStdoutParser",
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

label = "Factory Droid (local)"

# `droid exec -m` values in late 2026; `droid exec --help` lists what an account has.
models = [
    {"id": "claude-sonnet-4-6", "label": "Claude Sonnet 4.6"},
    {"id": "claude-opus-4-6", "label": "Claude Opus 4.6"},
    {"id": "gpt-5.2-codex", "label": "GPT-5.2 Codex"},
    {"id": "gemini-3.1-pro", "label": "Gemini 3.1 Pro"},
    {"id": "glm-4.6", "label": "GLM 4.6 (Droid Core)"},
]

agent_configuration_doc = """\
# droid_local

Adapter: droid_local. Parses Factory Droid's headless stream:
`droid exec -o stream-json "..."` (a system init, message, reasoning, tool_call and
tool_result events, errors, and the terminal `completion` with finalText, numTurns,
durationMs and usage); `-o json`'s single `result` document too.

Use when:
- The agent is Factory's Droid CLI run headless (`droid exec`).
- You need its messages, reasoning, tool calls paired with their results (by id, or in
  order when Droid gives none), errors, the session id for `-s`, and the run's usage.

Don't use when:
- The input is a Droid session file from ~/.factory/sessions: use droid_session.
- The log is `droid exec` text output (the default `-o text`): use the generic `process` parser.

Output: init (session id, model, cwd), system (tool list), user, assistant, thinking,
tool_call / tool_result, stderr (errors), result (final text, tokens), stdout for other lines.
"""

#: The routing doc of droid_session (``linewise_droid.session`` names it too).
SESSION_DOC = """\
# droid_session

Adapter: droid_session. Reads the sessions Factory Droid keeps on disk,
`~/.factory/sessions/<encoded cwd>/<uuid>.jsonl` (a `session_start` record, then
messages with Anthropic-style content blocks), with the model and token totals of the
sibling `<uuid>.settings.json`.

Use when:
- The input is a Droid session file, not captured stdout.

Don't use when:
- The log is `droid exec -o stream-json` output: use droid_local.

Output: init (session id, model from the settings, cwd), system (title, Droid's
system reminders shortened), user, assistant, thinking, tool_call and tool_result
(paired by id, with toolName).
"""

_SESSION = "linewise_droid.session"

#: The plugin (contract 1.5): Factory Droid and the two formats linewise reads of it.
agent = Agent(
    "droid",
    label="Factory Droid",
    models=models,
    formats=[
        Format(
            "droid_local",
            label=label,
            agent_configuration_doc=agent_configuration_doc,
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            parse_stdout_line=f"{_PARSER}:parse_stdout_line",
            sniff=sniff,
            summarize_run=f"{_SUMMARY}:summarize_run",
            check_environment="linewise_droid.environment:check_environment",
        ),
        Format(
            "droid_session",
            label="Factory Droid (session files)",
            agent_configuration_doc=SESSION_DOC,
            create_stdout_parser=f"{_SESSION}.parser:create_stdout_parser",
            sniff="linewise_droid.sniff:session_sniff",
            summarize_run=f"{_SESSION}.summary:summarize_session",
            session_stores=f"{_SESSION}.store:session_stores",
            session_records=f"{_SESSION}.store:session_records",
        ),
    ],
)
