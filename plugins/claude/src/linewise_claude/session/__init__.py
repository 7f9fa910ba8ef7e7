"""claude_session: the sessions Claude Code keeps on disk, ``~/.claude/projects/*/*.jsonl``.

Each line of a session file is one record with an envelope (``uuid``,
``parentUuid``, ``sessionId``, ``cwd``, ``version``, ``timestamp``,
``isSidechain``, ...). Message records (``user``, ``assistant``) hold the same
content blocks as stream-json and are read by the ``claude_local`` code;
entries take the record's ``timestamp`` (a record without one, such as
``summary``, takes the last time seen).

Records and what they become:

- ``user``: the person's prompt (``user``); tool results (``tool_result``,
  paired by ``toolUseId`` with ``toolName``, ``toolUseResult`` adding diffs and
  stderr); records the harness wrote (``isMeta``, ``isCompactSummary``) as
  ``system``; a slash command's markup (``<command-name>/clear</command-name>``)
  as ``system`` (``slash command /clear``), never as a prompt.
- ``assistant``: text, thinking, tool calls; an API error message
  (``isApiErrorMessage``) as ``stderr``.
- ``system``: ``api_error``/``error``/``api_refusal`` as ``stderr``;
  compaction, turn duration, stop hooks, local commands and others as ``system``.
- ``attachment``: hooks (``stderr`` when they failed), files, todo and task
  reminders and others as ``system``; ``queued_command`` (a prompt typed while
  the agent worked) as ``user``.
- ``progress``: a subagent's message relayed into the main file
  (``agent_progress``, 2.0 and later) as that message, nested under
  ``parentToolUseID`` (and not shown again when its subagent file repeats it,
  same ``uuid``); hook progress as ``system``.
- ``summary``, ``custom-title``, ``ai-title``, ``queue-operation``,
  ``permission-mode``, ``pr-link``, worktree records and any newer record
  type as ``system``.

Dropped deliberately, carrying nothing to show: ``file-history-snapshot``
(backups for undo), ``last-prompt`` (a copy of a prompt already shown),
``agent-name``, ``bridge-session`` and ``atis-latch`` (internal ids), the
progress of a running tool (``bash_progress``, ``mcp_progress``,
``waiting_for_task``, ``query_update``, ``search_results_received``: the
tool's result carries the outcome) and ``agent_progress`` markers without a
message, and the
attachments listing tools, skills, agents and permissions the harness sends the
model every turn (``deferred_tools_delta``, ``mcp_instructions_delta``,
``agent_listing_delta``, ``skill_listing``, ``command_permissions``,
``batching_reminder_sent``).

Subagents: a sidechain written in the main file (Claude Code 1.x,
``isSidechain``) nests under the Task/Agent call whose prompt its first record
repeats; records of a subagent file, and records whose ``agentId`` a Task
result (``toolUseResult.agentId``) or an ``agent_progress`` record named, nest
under that call.

Lines :func:`session_records` synthesises (never written by Claude Code):

- ``{"type": "linewise-session", "sessionId", "cwd", "model", "version",
  "timestamp", "gitBranch"}`` first: the facts of the file's first records (the
  model of its first assistant record), so ``init`` comes first and complete.
- ``{"type": "linewise-subagent", "agentId", "toolUseId", "agentType",
  "description", "spawnDepth"}`` before each ``subagents/agent-<id>.jsonl``
  file's records, from its ``.meta.json``: the records that follow nest under
  ``toolUseId`` (or the call whose result named ``agentId``).

Without those lines (the file piped in), ``init`` is made from the first
record, its model unknown ("") unless that record is an assistant message.
"""

from typing import TYPE_CHECKING

from linewise_contracts.lazy import lazy_names

# Eager: what detection asks (and the name of its module).
from linewise_claude.session.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_claude.session.parser import ClaudeSessionParser, create_stdout_parser
    from linewise_claude.session.records import session_records, session_stores
    from linewise_claude.session.summary import summarize_session as summarize_run

__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "ClaudeSessionParser": "linewise_claude.session.parser",
        "create_stdout_parser": "linewise_claude.session.parser",
        "session_records": "linewise_claude.session.records",
        "session_stores": "linewise_claude.session.records",
        "summarize_run": "linewise_claude.session.summary:summarize_session",
    },
)

__all__ = [
    "ClaudeSessionParser",
    "create_stdout_parser",
    "label",
    "session_records",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "Claude Code (session files)"
