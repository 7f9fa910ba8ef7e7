"""linewise-paperclip-runner: Paperclip Runner Protocol stdout, as one declared ``agent``.

Adapter type: ``paperclip_runner`` (a Paperclip runner's PRP event lines; lines
that are not PRP events go to the Codex parser). The format's code is named by
reference, imported only when the host loads it; the package imports its ``sniff``
alone, and its other public names when first read.
"""

from typing import TYPE_CHECKING

from linewise_contracts.agent import Agent, Format
from linewise_contracts.lazy import lazy_names

# Eager: what detection asks of every installed format (and the name of its module).
from linewise_paperclip_runner.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_paperclip_runner.parser import (
        RunnerStdoutParser,
        create_stdout_parser,
        parse_stdout_line,
    )
    from linewise_paperclip_runner.summary import summarize_run

_PARSER = "linewise_paperclip_runner.parser"
# The public names imported when first read: a detection that only asks `sniff` imports
# none of them (the parser imports linewise_codex).
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "RunnerStdoutParser": _PARSER,
        "create_stdout_parser": _PARSER,
        "parse_stdout_line": _PARSER,
        "summarize_run": "linewise_paperclip_runner.summary",
    },
)

__all__ = [
    "RunnerStdoutParser",
    "agent",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "parse_stdout_line",
    "sniff",
    "summarize_run",
]

label = "Paperclip Runner"

agent_configuration_doc = """\
# paperclip_runner

Adapter: paperclip_runner. Parses the stdout of a Paperclip runner: one JSON line per
Paperclip Runner Protocol event, `{"type":"paperclip.prp.event","event":{"eventType":...,
"payload":{...}}}`, mapped as Paperclip's own runner UI adapter maps them.

Use when:
- The log is a Paperclip run driven by its runner (the `paperclip_runner` adapter), whatever
  harness (Codex, Claude, Pi) the runner drives.
- You need the run's plans, hooks, model routes and other provider activity, its verified
  workspace changes and file references, approval and input requests with their
  resolution, the run's claimed result and its terminal state.

Don't use when:
- The log is a harness's own stdout (`codex exec --json`, `claude -p`): use its adapter type.
- The events are persisted heartbeat rows rather than stdout lines.

Output: provider_activity, workspace_change, workspace_file_reference, runtime_request (one
coalesced snapshot per lifecycle event), run_result, run_terminal; assistant and thinking
with channel and itemId (deltas and item boundaries), tool_call / tool_result (commands,
dynamic and MCP tools, semantic tools; streamed command output as tool_result deltas),
diff lines for file changes, result for usage (subtype paperclip.usage), system for
sessions, turns and runner diagnostics, stderr for failures. Lines that are not PRP events
go to the Codex parser (codex_local).
"""

#: The plugin (contract 1.5): Paperclip Runner and the one format linewise reads of it.
agent = Agent(
    "paperclip-runner",
    label="Paperclip Runner",
    formats=[
        Format(
            "paperclip_runner",
            label=label,
            agent_configuration_doc=agent_configuration_doc,
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            parse_stdout_line=f"{_PARSER}:parse_stdout_line",
            sniff=sniff,
            summarize_run="linewise_paperclip_runner.summary:summarize_run",
        )
    ],
)
