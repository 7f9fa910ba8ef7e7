"""linewise-acp: the Agent Client Protocol (ACP) parser plugin, as one declared ``agent``.

Adapter type: ``acp`` (what an ACP agent writes on stdout, JSON-RPC 2.0 over stdio).
"""

from typing import TYPE_CHECKING

from linewise_contracts.agent import Agent, Format
from linewise_contracts.lazy import lazy_names

# Eager: what detection asks (and the name of its module).
from linewise_acp.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_acp.environment import check_environment
    from linewise_acp.parser import AcpStdoutParser, create_stdout_parser, parse_stdout_line
    from linewise_acp.summary import summarize_run

_PARSER = "linewise_acp.parser"
# The public names imported when first read: a detection that only asks `sniff` imports
# none of them.
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "AcpStdoutParser": _PARSER,
        "check_environment": "linewise_acp.environment",
        "create_stdout_parser": _PARSER,
        "parse_stdout_line": _PARSER,
        "summarize_run": "linewise_acp.summary",
    },
)

__all__ = [
    "AcpStdoutParser",
    "agent",
    "agent_configuration_doc",
    "check_environment",
    "create_stdout_parser",
    "label",
    "models",
    "parse_stdout_line",
    "sniff",
    "summarize_run",
]

label = "ACP agent (Agent Client Protocol stdout)"

# The model is the agent's business: ACP names one only when the agent offers a choice.
models: list[dict[str, str]] = []

agent_configuration_doc = """\
# acp

Adapter: acp. Parses the stdout of an Agent Client Protocol agent (JSON-RPC 2.0 over
stdio, one message per line): session/update notifications, the agent's requests to
the client and its responses (initialize, session/new, session/prompt).

Use when:
- The log is what an ACP agent (codex-acp, claude-code-acp, gemini --experimental-acp,
  goose acp ...) wrote on stdout, as a client such as Zed talks to it.
- You need the agent's messages, thinking, tool calls paired with their results, diffs,
  plans, permission requests and each prompt turn's stop reason.

Don't use when:
- The log is a CLI's own headless output (claude -p, codex exec --json, gemini -o
  stream-json ...): use that CLI's adapter type.
- The log is Paperclip's acpx engine events (acpx.*): those are read by the CLI parsers.

Output: assistant and thinking deltas, user, tool_call (name: the ACP title, input:
title/kind/rawInput/locations), tool_result (isError on failed), diff, init (session id;
the model only when session/new names it), result per prompt turn (stop reason; tokens
only when the agent reports them, cost never), system (plans, modes, commands,
permission requests, file and terminal requests), stderr (JSON-RPC errors), stdout for
lines that are not ACP.
"""

#: The plugin (contract 1.5): agents spoken to over ACP, and the one format linewise reads.
agent = Agent(
    "acp",
    label="ACP agent",
    models=models,
    formats=[
        Format(
            "acp",
            label=label,
            agent_configuration_doc=agent_configuration_doc,
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            parse_stdout_line=f"{_PARSER}:parse_stdout_line",
            sniff=sniff,
            summarize_run="linewise_acp.summary:summarize_run",
            check_environment="linewise_acp.environment:check_environment",
        ),
    ],
)
