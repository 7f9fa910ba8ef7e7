"""linewise-droid: the Factory Droid parser plugin (``droid_local``; ``droid_session``)."""

from linewise_droid.environment import check_environment
from linewise_droid.parser import DroidStdoutParser, create_stdout_parser, parse_stdout_line
from linewise_droid.sniff import sniff
from linewise_droid.summary import is_unknown_session_error, summarize_run

__all__ = [
    "DroidStdoutParser",
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
