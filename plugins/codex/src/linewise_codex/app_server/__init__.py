"""codex_app_server: ``codex app-server``'s JSON-RPC v2 stdio (notifications, requests).

Newline-delimited JSON-RPC 2.0 (the ``"jsonrpc"`` member may be omitted).
What each message becomes:

- ``thread/started`` and a ``thread/start`` response: ``init`` (thread id, model).
- ``turn/started``: ``system``; ``turn/completed``: ``result`` (``subtype``
  ``turn/completed|interrupted|failed``, its error, the thread's last
  ``thread/tokenUsage/updated`` counts).
- ``item/started`` / ``item/completed``: the same entries as the items of
  ``codex exec --json`` (command executions, MCP tool calls, web searches
  and collab calls as a paired ``tool_call`` / ``tool_result``; file changes
  with their diffs; agent messages, plans and reasoning), plus user
  messages (``user``), reviews, compaction, image views and sub-agent
  activity (``system``; a finished review's text as ``assistant``).
- ``item/agentMessage/delta``, ``item/plan/delta``: ``assistant`` deltas;
  ``item/reasoning/summaryTextDelta`` / ``textDelta``: ``thinking`` deltas
  (the completed item then adds nothing).
- ``turn/plan/updated``: a ``provider_activity`` plan card;
  ``turn/diff/updated``: a ``workspace_change`` (one change set per turn,
  each notification the next revision).
- Approval and input requests (``item/commandExecution/requestApproval``,
  ``item/fileChange/requestApproval``, ``item/permissions/requestApproval``,
  ``item/tool/requestUserInput``, ``mcpServer/elicitation/request``):
  ``runtime_request`` pending, again as resolved on ``serverRequest/resolved``.
- ``item/tool/call`` (a dynamic tool): ``tool_call``, and its response's
  ``tool_result`` when the capture holds the client's side.
- ``error``: ``stderr``; other notifications and responses: ``system``.

Shown by another line and so dropped: ``item/commandExecution/outputDelta``
(the completed item's ``aggregatedOutput``; the deltas stand in when it has
none), ``item/fileChange/outputDelta`` (the item's status),
``item/reasoning/summaryPartAdded`` (a boundary), a ``thread/started`` after
the ``thread/start`` response that announced the thread, the ``item/started`` of a
message, plan or reasoning (its text comes later) and
``thread/tokenUsage/updated`` (on the turn's ``result`` and in the summary).
"""

from linewise_codex.app_server.parser import (
    CodexAppServerParser,
    create_stdout_parser,
    parse_stdout_line,
)
from linewise_codex.app_server.sniff import sniff
from linewise_codex.app_server.summary import summarize_run
from linewise_codex.environment import check_environment

__all__ = [
    "CodexAppServerParser",
    "agent_configuration_doc",
    "check_environment",
    "create_stdout_parser",
    "label",
    "parse_stdout_line",
    "sniff",
    "summarize_run",
]

label = "Codex (app-server)"

agent_configuration_doc = """\
# codex_app_server

Adapter: codex_app_server. Parses the stdout of `codex app-server` (JSON-RPC 2.0 v2
over stdio, one message a line): thread, turn and item notifications, deltas, plans,
turn diffs, token usage and approval requests.

Use when:
- A client (an IDE extension, Paperclip's runner, your own tool) drives Codex through
  `codex app-server` and you captured what the server wrote.

Don't use when:
- The log is `codex exec --json` output: use codex_local.
- The log is an ACP agent's (session/update ...): use acp.

Output: init, system (turns, other notifications), assistant / thinking (deltas once),
tool_call / tool_result (commands, MCP tools, web search, collab and dynamic tools),
diff (file changes), provider_activity (plans), workspace_change (turn diffs),
runtime_request (approvals, input requests), stderr (errors), result (per turn; Codex
reports no cost, so the run summary's cost is unknown).
"""
