"""linewise-cline: the Cline CLI ``--json`` parser plugin, as one declared ``agent``.

Adapter type: ``cline_local`` (``cline --json "..."``).
"""

from typing import TYPE_CHECKING

from linewise_contracts.agent import Agent, Format
from linewise_contracts.lazy import lazy_names

# Eager: what detection asks (and the name of its module).
from linewise_cline.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_cline.environment import check_environment
    from linewise_cline.parser import ClineStdoutParser, create_stdout_parser, parse_stdout_line
    from linewise_cline.summary import is_unknown_session_error, summarize_run

_PARSER = "linewise_cline.parser"
_SUMMARY = "linewise_cline.summary"
# The public names imported when first read: a detection that only asks `sniff` imports
# none of them.
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "ClineStdoutParser": _PARSER,
        "check_environment": "linewise_cline.environment",
        "create_stdout_parser": _PARSER,
        "is_unknown_session_error": _SUMMARY,
        "parse_stdout_line": _PARSER,
        "summarize_run": _SUMMARY,
    },
)

__all__ = [
    "ClineStdoutParser",
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

label = "Cline CLI (local)"

# Cline runs whatever provider and model `cline auth` set up (`-m provider/model` overrides).
models = [
    {"id": "anthropic/claude-sonnet-4-6", "label": "Claude Sonnet 4.6 (Anthropic)"},
    {"id": "openai/gpt-5.2", "label": "GPT-5.2 (OpenAI)"},
    {"id": "cline-pass/deepseek-v4-flash", "label": "DeepSeek V4 Flash (Cline Pass)"},
]

agent_configuration_doc = """\
# cline_local

Adapter: cline_local. Parses `cline --json "..."` (Cline CLI 2.x/3.x): one `{ts, type}`
event per line: `hook_event` (agent start and end, tool hooks), `agent_event` (iteration
starts, content blocks of text, reasoning and tools, usage, done), `run_result` (finish
reason, text, model, usage and cost) and `error`.

Use when:
- The agent is the Cline CLI run headless with `--json` (and usually `-y`).

Don't use when:
- The input is the VS Code extension's task files, or Cline's interactive output: use the
  generic `process` parser.

Output: user-facing text as assistant, reasoning as thinking, tool_call / tool_result (paired
by toolCallId; a failed command fails its call), system (agent lifecycle, hooks), stderr
(errors), result (finish reason, text, tokens, cost), stdout for other lines.
"""

#: The plugin (contract 1.5): Cline CLI and the one format linewise reads of it.
agent = Agent(
    "cline",
    label="Cline CLI",
    models=models,
    formats=[
        Format(
            "cline_local",
            label=label,
            agent_configuration_doc=agent_configuration_doc,
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            parse_stdout_line=f"{_PARSER}:parse_stdout_line",
            sniff=sniff,
            summarize_run=f"{_SUMMARY}:summarize_run",
            check_environment="linewise_cline.environment:check_environment",
        ),
    ],
)
