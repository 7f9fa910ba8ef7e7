"""linewise-qwen: Qwen Code's headless stdout and saved chats, as one declared ``agent``.

Adapter types: ``qwen_local`` (``qwen -p "..." -o stream-json``: Claude Code's
stream-json envelope, read by the Claude plugin's parser, with Qwen's additions
(goal events, tool progress, ``session_start``, a failed result's ``error``)
and Qwen's token meaning in the summary (its input tokens include the cached
ones)) and ``qwen_session`` (``~/.qwen/projects/<project>/chats/*.jsonl``,
:mod:`linewise_qwen.session`). Each format's code is named by reference, imported
only when the host loads that format; the package imports its ``sniff`` alone, and its
other public names when first read.

Until contract 1.5 the package's top level was the session format and the
stdout format lived in ``linewise_qwen.stdout`` (still importable); the
session names are now :mod:`linewise_qwen.session`'s, as in linewise-claude.
"""

from typing import TYPE_CHECKING

from linewise_contracts.agent import Agent, Format
from linewise_contracts.lazy import lazy_names

# Eager: what detection asks of every installed format (and the name of its module).
from linewise_qwen.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_qwen.parser import QwenStdoutParser, create_stdout_parser, parse_stdout_line
    from linewise_qwen.summary import summarize_run

_PARSER = "linewise_qwen.parser"
# The public names imported when first read: a detection that only asks `sniff` imports
# none of them (the parser imports linewise_claude's).
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "QwenStdoutParser": _PARSER,
        "create_stdout_parser": _PARSER,
        "parse_stdout_line": _PARSER,
        "summarize_run": "linewise_qwen.summary",
    },
)

__all__ = [
    "SESSION_DOC",
    "QwenStdoutParser",
    "agent",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "parse_stdout_line",
    "sniff",
    "summarize_run",
]

label = "Qwen Code (stream-json)"

agent_configuration_doc = """\
# qwen_local

Adapter: qwen_local. Parses Qwen Code's headless stdout, `qwen -p "..." -o stream-json`
(with or without `--include-partial-messages`): system init, assistant messages
(text, thinking, tool use), user tool results, stream events, the final result.

Use when:
- The agent is Qwen Code run headless with `-o stream-json` (or `--output-format stream-json`).

Don't use when:
- The log is Claude Code's stream-json: use claude_local.
- The input is a saved Qwen chat (`~/.qwen/projects/.../chats/*.jsonl`): use qwen_session.

Output: init (model, session), thinking, assistant (deltas once), tool_call / tool_result
(paired, with toolName), system (goals, other system messages), result (tokens as Qwen
reports them; no cost).
"""

#: The routing doc of qwen_session (``linewise_qwen.session`` names it too).
SESSION_DOC = """\
# qwen_session

Adapter: qwen_session. Reads the chats Qwen Code saves on disk,
`~/.qwen/projects/<project>/chats/<session>.jsonl` (one record per line: user,
assistant, tool_result, system).

Use when:
- The input is a saved Qwen Code chat file.

Don't use when:
- The log is Claude Code's session file (`~/.claude/projects`): use claude_session.
- The log is Qwen Code's stdout (`qwen -p ... -o stream-json`): use qwen_local.
- The file is `~/.qwen/usage_record.jsonl` or a project's `meta.json`: not sessions.

Output: init (session id, cwd), user, thinking, assistant, tool_call and tool_result
(paired by call id, with toolName), result per model request (tokens), stderr (API
errors), system (other notices).
"""

_SESSION = "linewise_qwen.session"

#: The plugin (contract 1.5): Qwen Code and the two formats linewise reads of it.
agent = Agent(
    "qwen",
    label="Qwen Code",
    formats=[
        Format(
            "qwen_local",
            label=label,
            agent_configuration_doc=agent_configuration_doc,
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            parse_stdout_line=f"{_PARSER}:parse_stdout_line",
            sniff=sniff,
            summarize_run="linewise_qwen.summary:summarize_run",
        ),
        Format(
            "qwen_session",
            label="Qwen Code (saved chats)",
            agent_configuration_doc=SESSION_DOC,
            create_stdout_parser=f"{_SESSION}.parser:create_stdout_parser",
            sniff=f"{_SESSION}.sniff:sniff",
            summarize_run=f"{_SESSION}.summary:summarize_run",
            session_stores=f"{_SESSION}.store:session_stores",
        ),
    ],
)
