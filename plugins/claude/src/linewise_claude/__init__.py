"""linewise-claude: Claude Code's stream-json and session files, as one declared ``agent``.

Adapter types: ``claude_local`` (``claude -p --output-format stream-json``),
``claude_session`` (``~/.claude/projects/*/*.jsonl``) and ``claude_subagent``
(subagent files whose session is gone). Each format's code is named by reference,
imported only when the host loads that format; the package imports its ``sniff``
alone, and its other public names when first read.
"""

from typing import TYPE_CHECKING

from linewise_contracts.agent import Agent, Format
from linewise_contracts.lazy import lazy_names

# Eager: what detection asks of every installed format (and the name of its module).
from linewise_claude.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_claude.classify import (
        is_image_processing_error,
        is_max_turns_result,
        is_model_not_found_error,
        is_poisoned_message_id_error,
        is_provider_quota_error,
        is_refusal_result,
        is_transient_upstream_error,
        is_unknown_session_error,
        login_required,
        retry_not_before,
    )
    from linewise_claude.environment import check_environment
    from linewise_claude.formatter import format_entries, format_stdout_line
    from linewise_claude.parser import ClaudeStdoutParser, create_stdout_parser, parse_stdout_line
    from linewise_claude.summary import summarize_run
    from linewise_claude.usage import model_usage_totals

_CLASSIFY = "linewise_claude.classify"
_PARSER = "linewise_claude.parser"
_FORMATTER = "linewise_claude.formatter"
# The public names imported when first read: a detection that only asks `sniff` imports
# none of them.
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "ClaudeStdoutParser": _PARSER,
        "check_environment": "linewise_claude.environment",
        "create_stdout_parser": _PARSER,
        "format_entries": _FORMATTER,
        "format_stdout_line": _FORMATTER,
        "is_image_processing_error": _CLASSIFY,
        "is_max_turns_result": _CLASSIFY,
        "is_model_not_found_error": _CLASSIFY,
        "is_poisoned_message_id_error": _CLASSIFY,
        "is_provider_quota_error": _CLASSIFY,
        "is_refusal_result": _CLASSIFY,
        "is_transient_upstream_error": _CLASSIFY,
        "is_unknown_session_error": _CLASSIFY,
        "login_required": _CLASSIFY,
        "model_usage_totals": "linewise_claude.usage",
        "parse_stdout_line": _PARSER,
        "retry_not_before": _CLASSIFY,
        "summarize_run": "linewise_claude.summary",
    },
)

__all__ = [
    "SUBAGENT_DOC",
    "ClaudeStdoutParser",
    "agent",
    "agent_configuration_doc",
    "check_environment",
    "create_stdout_parser",
    "format_entries",
    "format_stdout_line",
    "is_image_processing_error",
    "is_max_turns_result",
    "is_model_not_found_error",
    "is_poisoned_message_id_error",
    "is_provider_quota_error",
    "is_refusal_result",
    "is_transient_upstream_error",
    "is_unknown_session_error",
    "label",
    "login_required",
    "model_usage_totals",
    "models",
    "parse_stdout_line",
    "retry_not_before",
    "sniff",
    "summarize_run",
]

label = "Claude Code (local)"

models = [
    {"id": "claude-opus-4-5", "label": "Claude Opus 4.5"},
    {"id": "claude-sonnet-4-6", "label": "Claude Sonnet 4.6"},
    {"id": "claude-sonnet-4-5", "label": "Claude Sonnet 4.5"},
    {"id": "claude-haiku-4-5", "label": "Claude Haiku 4.5"},
]

agent_configuration_doc = """\
# claude_local

Adapter: claude_local. Parses `claude -p --output-format stream-json --verbose`
(optionally with `--include-partial-messages`).

Use when:
- The agent is Claude Code run headless on this machine and its stdout is stream-json.
- You need tool calls paired with their results, thinking, hooks, subagent tasks,
  API retries, compaction and the final usage and cost of the run.
- You need to know whether a `--resume` failed because the session is unknown.

Don't use when:
- The log is Claude Code's interactive terminal output or `--output-format text`
  (use the generic `process` parser: it is not JSON).
- The log is `--output-format json` (one JSON document at the end, not a stream).
- The agent is another CLI (Codex, Gemini, Cursor, OpenCode ...): use its own adapter type.

Output: init, assistant, thinking, tool_call, tool_result (with toolName from the
stateful parser), diff (edits), user, system (retries, hooks, tasks, rate limits,
compaction), runtime_request (permission prompts and questions, answered when their result
comes), stderr (API errors), result (tokens and cost) then run_terminal (the run's end state),
run_result (a post-turn summary),
stdout for lines that are not Claude events. Subagent entries carry parentToolUseId.
"""

#: The routing doc of claude_subagent (``linewise_claude.session.orphans`` names it too).
SUBAGENT_DOC = """\
# claude_subagent

Adapter: claude_subagent. Lists a Claude Code subagent file,
`~/.claude/projects/<project>/<session>/subagents/agent-<id>.jsonl`, as a session of its
own when its session file `<session>.jsonl` is missing, marked as such.

Use when:
- A subagent file's session file is gone and its work should still be found.

Don't use when:
- The session file is there: use claude_session, which reads its subagents with it.

Output: as claude_session: init (named by the subagent file, with its cwd and model), a
system note naming the missing parent session, the subagent's messages and tool calls.
"""

_SESSION = "linewise_claude.session"
_ORPHANS = "linewise_claude.session.orphans"

#: The plugin (contract 1.5): Claude Code and the three formats linewise reads of it.
agent = Agent(
    "claude",
    label="Claude Code",
    models=models,
    formats=[
        Format(
            "claude_local",
            label=label,
            agent_configuration_doc=agent_configuration_doc,
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            parse_stdout_line=f"{_PARSER}:parse_stdout_line",
            sniff=sniff,
            # The 1.x export, deprecated: one release.
            format_stdout_line=f"{_FORMATTER}:format_stdout_line",
            format_entries=f"{_FORMATTER}:format_entries",
            summarize_run="linewise_claude.summary:summarize_run",
            check_environment="linewise_claude.environment:check_environment",
        ),
        Format(
            "claude_session",
            label="Claude Code (session files)",
            create_stdout_parser=f"{_SESSION}.parser:create_stdout_parser",
            sniff=f"{_SESSION}.sniff:sniff",
            summarize_run=f"{_SESSION}.summary:summarize_session",
            session_stores=f"{_SESSION}.records:session_stores",
            session_records=f"{_SESSION}.records:session_records",
        ),
        Format(
            "claude_subagent",
            label="Claude Code (subagent files without their session)",
            agent_configuration_doc=SUBAGENT_DOC,
            create_stdout_parser=f"{_SESSION}.parser:create_stdout_parser",
            summarize_run=f"{_SESSION}.summary:summarize_session",
            session_stores=f"{_ORPHANS}:session_stores",
            session_records=f"{_ORPHANS}:session_records",
            session_keys=f"{_ORPHANS}:session_keys",
        ),
    ],
)
