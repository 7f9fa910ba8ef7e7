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

from typing import TYPE_CHECKING

from linewise_contracts.lazy import lazy_names

from linewise_codex import APP_SERVER_DOC

# Eager: what detection asks (and the name of its module).
from linewise_codex.app_server.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_codex.app_server.parser import (
        CodexAppServerParser,
        create_stdout_parser,
        parse_stdout_line,
    )
    from linewise_codex.app_server.summary import summarize_run
    from linewise_codex.environment import check_environment

_PARSER = "linewise_codex.app_server.parser"
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "CodexAppServerParser": _PARSER,
        "check_environment": "linewise_codex.environment",
        "create_stdout_parser": _PARSER,
        "parse_stdout_line": _PARSER,
        "summarize_run": "linewise_codex.app_server.summary",
    },
)

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

# The routing doc lives in the agent declaration (linewise_codex), read from there.
agent_configuration_doc = APP_SERVER_DOC
