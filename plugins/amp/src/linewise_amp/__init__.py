"""linewise-amp: Amp's Claude Code compatible stream-json (``amp_local``; ``amp_session``).

Amp writes Claude Code's stream-json format, so the parser and compact format are
linewise-claude's; this plugin adds what is Amp's own: recognising its output by its
thread ids, its token counting, its environment, and its thread files. One declared
``agent``; each format's code is named by reference, imported only when the host loads
that format; the package imports its ``sniff`` alone, and its other public names when
first read.
"""

from typing import TYPE_CHECKING

from linewise_contracts.agent import Agent, Format
from linewise_contracts.lazy import lazy_names

# Eager: what detection asks (and the name of its module).
from linewise_amp.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_claude.formatter import format_entries, format_stdout_line
    from linewise_claude.parser import create_stdout_parser, parse_stdout_line

    from linewise_amp.environment import check_environment
    from linewise_amp.summary import summarize_run

# Claude Code's modules that define what amp_local reuses (not the linewise_claude
# package, which re-exports them).
_PARSER = "linewise_claude.parser"
_FORMATTER = "linewise_claude.formatter"
_SUMMARY = "linewise_amp.summary"
# The public names imported when first read: a detection that only asks `sniff` imports
# none of them.
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "check_environment": "linewise_amp.environment",
        "create_stdout_parser": _PARSER,
        "format_entries": _FORMATTER,
        "format_stdout_line": _FORMATTER,
        "parse_stdout_line": _PARSER,
        "summarize_run": _SUMMARY,
    },
)

__all__ = [
    "SESSION_DOC",
    "agent",
    "agent_configuration_doc",
    "check_environment",
    "create_stdout_parser",
    "format_entries",
    "format_stdout_line",
    "label",
    "models",
    "parse_stdout_line",
    "sniff",
    "summarize_run",
]

label = "Amp (local)"

# Amp chooses its model per mode (`--mode smart|rush`); these are what it runs in late 2026.
models = [
    {"id": "smart", "label": "Smart mode (Claude Opus / Sonnet)"},
    {"id": "rush", "label": "Rush mode (fast, cheaper models)"},
]

agent_configuration_doc = """\
# amp_local

Adapter: amp_local. Parses Sourcegraph Amp's `amp --execute "..." --stream-json` output,
Claude Code compatible stream-json (system init, user, assistant and result events with
Anthropic content blocks) whose session ids are Amp thread ids (`T-<uuid>`), with Claude
Code's parser; `--stream-json-thinking` adds thinking blocks, shown as thinking.

Use when:
- The agent is Amp run headless with --stream-json.

Don't use when:
- The log is Claude Code's own stream-json: use claude_local.
- The input is an Amp thread file (~/.local/share/amp/threads/T-*.json): use amp_session.

Output: as claude_local: init (thread id, cwd), user, assistant, thinking, tool_call /
tool_result paired by id, result (text, turns, usage).
"""

#: The routing doc of amp_session (``linewise_amp.session`` names it too).
SESSION_DOC = """\
# amp_session

Adapter: amp_session. Reads Amp's local thread files, `$AMP_DIR/threads/T-<id>.json`
(`~/.local/share/amp/threads` by default): one JSON document per thread with its messages
(Anthropic content blocks), turned into Claude stream-json records and read with Claude
Code's parser.

Use when:
- The input is an Amp thread file.

Don't use when:
- The log is `amp --execute --stream-json` output: use amp_local.

Output: init (the thread id), user, assistant, thinking, tool_call / tool_result paired by id.
"""

_SESSION = "linewise_amp.session"

#: The plugin (contract 1.5): Amp and the two formats linewise reads of it.
agent = Agent(
    "amp",
    label="Amp",
    models=models,
    formats=[
        Format(
            "amp_local",
            label=label,
            agent_configuration_doc=agent_configuration_doc,
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            parse_stdout_line=f"{_PARSER}:parse_stdout_line",
            sniff=sniff,
            # The 1.x export, deprecated: one release.
            format_stdout_line=f"{_FORMATTER}:format_stdout_line",
            format_entries=f"{_FORMATTER}:format_entries",
            summarize_run=f"{_SUMMARY}:summarize_run",
            check_environment="linewise_amp.environment:check_environment",
        ),
        Format(
            "amp_session",
            label="Amp (thread files)",
            agent_configuration_doc=SESSION_DOC,
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            sniff="linewise_amp.sniff:thread_sniff",
            summarize_run=f"{_SUMMARY}:summarize_run",
            session_stores=f"{_SESSION}.store:session_stores",
            session_records=f"{_SESSION}.store:session_records",
        ),
    ],
)
