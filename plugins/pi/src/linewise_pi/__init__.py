"""linewise-pi: Pi's JSON event stream and session files, as one declared ``agent``.

Adapter types: ``pi_local`` (``pi --mode json`` and ``--mode rpc``) and
``pi_session`` (``~/.pi/agent/sessions``). Each format's code is named by
reference, imported only when the host loads that format; the package imports its
``sniff`` alone, and its other public names when first read.
"""

from typing import TYPE_CHECKING

from linewise_contracts.agent import Agent, Format
from linewise_contracts.lazy import lazy_names

# Eager: what detection asks of every installed format (and the name of its module).
from linewise_pi.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_pi.environment import check_environment
    from linewise_pi.parser import PiStdoutParser, create_stdout_parser, parse_stdout_line
    from linewise_pi.summary import is_unknown_session_error, summarize_run

_PARSER = "linewise_pi.parser"
_SUMMARY = "linewise_pi.summary"
# The public names imported when first read: a detection that only asks `sniff` imports
# none of them.
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "PiStdoutParser": _PARSER,
        "check_environment": "linewise_pi.environment",
        "create_stdout_parser": _PARSER,
        "is_unknown_session_error": _SUMMARY,
        "parse_stdout_line": _PARSER,
        "summarize_run": _SUMMARY,
    },
)

__all__ = [
    "SESSION_DOC",
    "PiStdoutParser",
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

label = "Pi (local)"

# `--model` values in Pi's provider/id form; `pi --list-models` shows what is configured.
models = [
    {"id": "anthropic/claude-sonnet-4-5", "label": "Claude Sonnet 4.5 (Anthropic)"},
    {"id": "anthropic/claude-opus-4-5", "label": "Claude Opus 4.5 (Anthropic)"},
    {"id": "openai/gpt-5.1-codex", "label": "GPT-5.1 Codex (OpenAI)"},
    {"id": "openai/gpt-5.1", "label": "GPT-5.1 (OpenAI)"},
    {"id": "google/gemini-2.5-pro", "label": "Gemini 2.5 Pro (Google)"},
    {"id": "xai/grok-4", "label": "Grok 4 (xAI)"},
]

agent_configuration_doc = """\
# pi_local

Adapter: pi_local. Parses the JSON event stream of the Pi coding agent:
`pi --mode json -p "..."` (a session header, then agent, turn, message and tool events)
and the event lines of `pi --mode rpc`.

Use when:
- The agent is Pi (badlogic's pi-coding-agent) run headless on this machine.
- You need Pi's streamed text and thinking, tool executions paired with their results,
  retries, context compaction, and usage and cost summed over every model call.
- You need to know whether `--session` failed because Pi could not find the session.

Don't use when:
- The log is Pi's interactive terminal output or `-p` without `--mode json` (plain text):
  use the generic `process` parser.
- The agent is another CLI (Claude Code, Codex, Cursor, Gemini ...): use its own adapter type.

Output: init (session id from the header), system (agent start, model changes, retries,
compaction), user, assistant and thinking (streamed as deltas), tool_call / tool_result with
toolName, stderr for errors, result at agent_end (final text, tokens, cost, stop reason),
stdout for lines that are not Pi events.
"""

#: The routing doc of pi_session (``linewise_pi.session`` names it too).
SESSION_DOC = """\
# pi_session

Adapter: pi_session. Reads the sessions Pi keeps on disk,
`~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl` (`PI_CODING_AGENT_DIR` moves
`~/.pi/agent`): a `session` header, then messages, model and thinking-level changes,
compactions, branch summaries, labels and extension entries, in a tree of branches.

Use when:
- The input is a Pi session file, not captured stdout.

Don't use when:
- The log is `pi --mode json` or `--mode rpc` output: use pi_local.

Output: init (session id, cwd), user, assistant, thinking, tool_call and tool_result
(paired by toolCallId, with toolName), system (model changes, compactions, branches,
labels, session name, bash commands the person ran), stderr (failed requests).
"""

_SESSION = "linewise_pi.session"

#: The plugin (contract 1.5): Pi and the two formats linewise reads of it.
agent = Agent(
    "pi",
    label="Pi",
    models=models,
    formats=[
        Format(
            "pi_local",
            label=label,
            agent_configuration_doc=agent_configuration_doc,
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            parse_stdout_line=f"{_PARSER}:parse_stdout_line",
            sniff=sniff,
            summarize_run=f"{_SUMMARY}:summarize_run",
            check_environment="linewise_pi.environment:check_environment",
        ),
        Format(
            "pi_session",
            label="Pi (session files)",
            agent_configuration_doc=SESSION_DOC,
            create_stdout_parser=f"{_SESSION}.parser:create_stdout_parser",
            sniff=f"{_SESSION}.sniff:sniff",
            summarize_run=f"{_SESSION}.summary:summarize_session",
            session_stores=f"{_SESSION}.store:session_stores",
        ),
    ],
)
