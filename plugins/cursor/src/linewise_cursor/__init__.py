"""linewise-cursor: the Cursor Agent CLI parser plugin, as one declared ``agent``.

Adapter types: ``cursor`` (``cursor-agent -p --output-format stream-json``),
``cursor_cloud`` (Cursor Cloud runs as ``cursor_cloud.*`` events) and ``cursor_session``
(cursor-agent's transcripts on disk). Each format's code is named by reference, imported
only when the host loads that format; the package imports its ``sniff`` alone, and its
other public names when first read.
"""

from typing import TYPE_CHECKING

from linewise_contracts.agent import Agent, Format
from linewise_contracts.lazy import lazy_names

# Eager: what detection asks of every installed format (and the name of its module).
from linewise_cursor.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_cursor.environment import check_environment
    from linewise_cursor.parser import CursorStdoutParser, create_stdout_parser, parse_stdout_line
    from linewise_cursor.summary import is_unknown_session_error, result_usage, summarize_run

_PARSER = "linewise_cursor.parser"
_SUMMARY = "linewise_cursor.summary"
_ENVIRONMENT = "linewise_cursor.environment"
# The public names imported when first read: a detection that only asks `sniff` imports
# none of them.
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "CursorStdoutParser": _PARSER,
        "check_environment": _ENVIRONMENT,
        "create_stdout_parser": _PARSER,
        "is_unknown_session_error": _SUMMARY,
        "parse_stdout_line": _PARSER,
        "result_usage": _SUMMARY,
        "summarize_run": _SUMMARY,
    },
)

__all__ = [
    "CLOUD_DOC",
    "SESSION_DOC",
    "CursorStdoutParser",
    "agent",
    "agent_configuration_doc",
    "check_environment",
    "create_stdout_parser",
    "is_unknown_session_error",
    "label",
    "models",
    "parse_stdout_line",
    "result_usage",
    "sniff",
    "summarize_run",
]

label = "Cursor CLI (local)"

# `--model` values of cursor-agent; `auto` lets Cursor choose (the only one on free plans).
models = [
    {"id": "auto", "label": "Auto"},
    {"id": "composer-1.5", "label": "Composer 1.5"},
    {"id": "gpt-5.3-codex", "label": "GPT-5.3 Codex"},
    {"id": "gpt-5.3-codex-high", "label": "GPT-5.3 Codex (high)"},
    {"id": "gpt-5.2", "label": "GPT-5.2"},
    {"id": "opus-4.6", "label": "Claude Opus 4.6"},
    {"id": "opus-4.6-thinking", "label": "Claude Opus 4.6 (thinking)"},
    {"id": "sonnet-4.6", "label": "Claude Sonnet 4.6"},
    {"id": "sonnet-4.6-thinking", "label": "Claude Sonnet 4.6 (thinking)"},
    {"id": "gemini-3-pro", "label": "Gemini 3 Pro"},
    {"id": "gemini-3-flash", "label": "Gemini 3 Flash"},
    {"id": "grok", "label": "Grok"},
]

agent_configuration_doc = """\
# cursor

Adapter: cursor. Parses `cursor-agent -p --output-format stream-json`
(also run as `agent`), with or without `--stream-partial-output`, including
Paperclip logs whose lines carry a `stdout`/`stderr` prefix.

Use when:
- The agent is Cursor's Agent CLI run headless on this machine and its stdout is stream-json.
- You need tool calls (`shellToolCall`, `readToolCall`, `editToolCall` ...) paired with
  their results, streamed thinking, and the session id for `--resume`.
- You need to know whether a `--resume` failed because Cursor does not know the chat.

Don't use when:
- The run is a Cursor Cloud agent (`cursor_cloud.*` events): use `cursor_cloud`.
- The log is `--output-format text` or `json` (not a stream): use the generic `process` parser.
- The agent is another CLI (Claude Code, Codex, Gemini, OpenCode, Pi ...): use its own adapter type.

Output: init, user, assistant (text fragments of `--stream-partial-output` as deltas),
thinking deltas, tool_call / tool_result (shell results as `exit N` with stdout and stderr),
result (tokens from 2026.08 on, none before; Cursor reports no cost, so the run summary's
cost is unknown), stderr for error events, stdout for lines that are not Cursor events.
"""

#: The routing doc of cursor_cloud (``linewise_cursor.cloud`` names it too).
CLOUD_DOC = """\
# cursor_cloud

Adapter: cursor_cloud. Parses the event log of a Cursor Cloud agent run:
`cursor_cloud.init`, `.status`, `.message` (the Cursor SDK's assistant, user, thinking,
tool_call and tool_result messages), `.tool`, `.git` and `.result`, one JSON object a line.

Use when:
- The agent ran on Cursor's cloud machines against a repository (no local CLI), and you have
  the cursor_cloud.* event stream of the run.
- You need the run's messages, tool calls with results, status changes, the branch and pull
  request it produced, and its final status.

Don't use when:
- Cursor's Agent CLI ran locally (`cursor-agent -p --output-format stream-json`): use `cursor`.
- The agent is another CLI: use its own adapter type.

Output: init (agent id), system (status, tool progress, git branches and PRs), assistant,
thinking, user, tool_call / tool_result with toolName, result (status; no tokens or cost are
reported), stdout for lines that are not cursor_cloud events.
"""

#: The routing doc of cursor_session (``linewise_cursor.session`` names it too).
SESSION_DOC = """\
# cursor_session

Adapter: cursor_session. Reads the transcripts cursor-agent keeps on disk,
`~/.cursor/projects/<project>/agent-transcripts/<id>/<id>.jsonl` (older builds:
`agent-transcripts/<id>.jsonl`; subagents: `<id>/subagents/<sub>.jsonl`), with the
chat's `~/.cursor/chats/<workspace>/<id>/meta.json` (working directory, title, times).

Use when:
- The input is a cursor-agent transcript file, not captured stdout.

Don't use when:
- The log is `cursor-agent -p --output-format stream-json` output: use cursor.

Output: init (session id, cwd from the chat metadata), system (title, turn ends, what a
prompt held besides the person's words), user (the `<user_query>` text), assistant,
thinking, tool_call and tool_result (paired by id, with toolName, where the transcript
records results).
"""

_SESSION = "linewise_cursor.session"

#: The plugin (contract 1.5; a format's own models, 1.6): Cursor and the three formats
#: linewise reads of it.
agent = Agent(
    "cursor",
    label="Cursor",
    models=models,
    formats=[
        Format(
            "cursor",
            label=label,
            agent_configuration_doc=agent_configuration_doc,
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            parse_stdout_line=f"{_PARSER}:parse_stdout_line",
            sniff=sniff,
            summarize_run=f"{_SUMMARY}:summarize_run",
            check_environment=f"{_ENVIRONMENT}:check_environment",
        ),
        Format(
            "cursor_cloud",
            label="Cursor Cloud",
            agent_configuration_doc=CLOUD_DOC,
            # Not the Cursor CLI's: the account decides which models a cloud agent may
            # use (and its default), and the Cursor API lists them; none is stated here.
            models=(),
            # The stdout parser and summary read cursor_cloud.* events too.
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            parse_stdout_line=f"{_PARSER}:parse_stdout_line",
            sniff="linewise_cursor.sniff:sniff_cloud",
            summarize_run=f"{_SUMMARY}:summarize_run",
            check_environment=f"{_ENVIRONMENT}:check_cloud_environment",
        ),
        Format(
            "cursor_session",
            label="Cursor CLI (agent transcripts)",
            agent_configuration_doc=SESSION_DOC,
            create_stdout_parser=f"{_SESSION}.parser:create_stdout_parser",
            sniff=f"{_SESSION}.sniff:sniff",
            summarize_run=f"{_SESSION}.summary:summarize_transcript",
            session_stores=f"{_SESSION}.store:session_stores",
            session_records=f"{_SESSION}.store:session_records",
        ),
    ],
)
