"""linewise-antigravity: the Google Antigravity CLI stream-json parser plugin, as one ``agent``.

Adapter type: ``agy_local`` (``agy -p ... --output-format stream-json``).
"""

from typing import TYPE_CHECKING

from linewise_contracts.agent import Agent, Format
from linewise_contracts.lazy import lazy_names

# Eager: what detection asks (and the name of its module).
from linewise_antigravity.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_antigravity.environment import check_environment
    from linewise_antigravity.parser import AgyStdoutParser, create_stdout_parser, parse_stdout_line
    from linewise_antigravity.summary import is_unknown_session_error, summarize_run

_PARSER = "linewise_antigravity.parser"
_SUMMARY = "linewise_antigravity.summary"
# The public names imported when first read: a detection that only asks `sniff` imports
# none of them.
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "AgyStdoutParser": _PARSER,
        "check_environment": "linewise_antigravity.environment",
        "create_stdout_parser": _PARSER,
        "is_unknown_session_error": _SUMMARY,
        "parse_stdout_line": _PARSER,
        "summarize_run": _SUMMARY,
    },
)

__all__ = [
    "AgyStdoutParser",
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

label = "Antigravity CLI (local)"

# `--model` values agy accepts in late 2026; `auto` (no --model) lets agy choose.
models = [
    {"id": "auto", "label": "Auto (agy's configured default)"},
    {"id": "gemini-3.1-pro-high", "label": "Gemini 3.1 Pro (high)"},
    {"id": "gemini-3.1-pro-low", "label": "Gemini 3.1 Pro (low)"},
    {"id": "gemini-3.8-flash-high", "label": "Gemini 3.8 Flash (high)"},
    {"id": "gemini-3.8-flash-medium", "label": "Gemini 3.8 Flash (medium)"},
    {"id": "claude-sonnet-4-6", "label": "Claude Sonnet 4.6"},
    {"id": "claude-opus-4-6", "label": "Claude Opus 4.6"},
]

agent_configuration_doc = """\
# agy_local

Adapter: agy_local. Parses Google Antigravity CLI's headless stream:
`agy -p "..." --output-format stream-json` (an `init` event, `step_update` events by
`step_type` with state ACTIVE / DONE / ERROR, and a terminal `result`).

Use when:
- The agent is Antigravity CLI (`agy`), the successor of Gemini CLI for individual users.
- You need its streamed response and thinking, tool steps paired with their output or error,
  denied actions, the conversation id for `--conversation`, and usage (thinking and cache reads).

Don't use when:
- The log is Gemini CLI's `--output-format stream-json` (`{"type": ...}` events): use gemini_local.
- The log is agy's plain text output (`--output-format text`): use the generic `process` parser.

Output: init (conversation id, working directory), system (permission mode, other steps,
subagent conversations), user, assistant and thinking (streamed as deltas), tool_call /
tool_result per tool step, stderr for failed steps and denied actions, result (the terminal
response, status, tokens; agy reports no cost), stdout for lines that are not agy events.
"""

#: The plugin (contract 1.5): Antigravity CLI and the one format linewise reads of it.
agent = Agent(
    "antigravity",
    label="Antigravity CLI",
    models=models,
    formats=[
        Format(
            "agy_local",
            label=label,
            agent_configuration_doc=agent_configuration_doc,
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            parse_stdout_line=f"{_PARSER}:parse_stdout_line",
            sniff=sniff,
            summarize_run=f"{_SUMMARY}:summarize_run",
            check_environment="linewise_antigravity.environment:check_environment",
        ),
    ],
)
