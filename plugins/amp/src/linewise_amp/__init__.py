"""linewise-amp: Amp's Claude Code compatible stream-json (``amp_local``; ``amp_session``).

Amp writes Claude Code's stream-json format, so the parser and compact format are
linewise-claude's; this plugin adds what is Amp's own: recognising its output by its
thread ids, its token counting, its environment, and its thread files. One declared
``agent``; the thread files' code is named by reference, imported only when
``amp_session`` is loaded.
"""

from linewise_claude import (
    create_stdout_parser,
    format_entries,
    format_stdout_line,
    parse_stdout_line,
)
from linewise_contracts.agent import Agent, Format

from linewise_amp.environment import check_environment
from linewise_amp.sniff import sniff
from linewise_amp.summary import summarize_run

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
            create_stdout_parser=create_stdout_parser,
            parse_stdout_line=parse_stdout_line,
            sniff=sniff,
            format_stdout_line=format_stdout_line,  # the 1.x export, deprecated: one release
            format_entries=format_entries,
            summarize_run=summarize_run,
            check_environment=check_environment,
        ),
        Format(
            "amp_session",
            label="Amp (thread files)",
            agent_configuration_doc=SESSION_DOC,
            create_stdout_parser=f"{_SESSION}:create_stdout_parser",
            sniff=f"{_SESSION}:sniff",
            summarize_run=f"{_SESSION}:summarize_run",
            session_stores=f"{_SESSION}:session_stores",
            session_records=f"{_SESSION}:session_records",
        ),
    ],
)
