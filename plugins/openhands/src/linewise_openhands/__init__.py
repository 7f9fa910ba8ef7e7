"""linewise-openhands: the OpenHands CLI's events and conversations, as one declared ``agent``.

Adapter types: ``openhands_local`` (``openhands --headless --json``) and
``openhands_session`` (``~/.openhands/conversations/<id>/``). Each
format's code is named by reference, imported only when the host loads that format; the
package imports its ``sniff`` alone, and its other public names when first read.
"""

from typing import TYPE_CHECKING

from linewise_contracts.agent import Agent, Format
from linewise_contracts.lazy import lazy_names

# Eager: what detection asks of every installed format (and the name of its module).
from linewise_openhands.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_openhands.environment import check_environment
    from linewise_openhands.parser import OpenHandsParser, create_stdout_parser, parse_stdout_line
    from linewise_openhands.summary import summarize_run

_PARSER = "linewise_openhands.parser"
_SUMMARY = "linewise_openhands.summary"
# The public names imported when first read: a detection that only asks `sniff` imports
# none of them.
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "OpenHandsParser": _PARSER,
        "check_environment": "linewise_openhands.environment",
        "create_stdout_parser": _PARSER,
        "parse_stdout_line": _PARSER,
        "summarize_run": _SUMMARY,
    },
)

__all__ = [
    "SESSION_DOC",
    "OpenHandsParser",
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

label = "OpenHands CLI (local)"

models = [
    {"id": "anthropic/claude-sonnet-4-6", "label": "Claude Sonnet 4.6 (via LiteLLM)"},
    {"id": "openai/gpt-5.2", "label": "GPT-5.2 (via LiteLLM)"},
    {"id": "litellm_proxy/openhands-lm", "label": "OpenHands LM (proxy)"},
]

agent_configuration_doc = """\
# openhands_local

Adapter: openhands_local. Parses `openhands --headless --json -t "..."`: every OpenHands
SDK event but the system prompt, one `model_dump()` per line, by `kind` (MessageEvent,
ActionEvent with the tool call, ObservationEvent with its result, AgentErrorEvent,
ConversationStateUpdateEvent ...).

Use when:
- The agent is the OpenHands CLI run headless with --json.

Don't use when:
- The input is a conversation folder in ~/.openhands/conversations: use openhands_session.
- OpenHands over ACP (`openhands acp`): use acp.

Output: user, assistant (messages, action thoughts, the finish message), thinking, tool_call /
tool_result paired by tool_call_id, system (state changes), stderr (agent errors).
"""

#: The routing doc of openhands_session (``linewise_openhands.session`` names it too).
#: The record ``session.store.session_records`` puts first (the conversation), which the
#: parser reads: here, so that neither format's code imports the other's.
CONVERSATION_RECORD = "linewise.OpenHandsConversation"

SESSION_DOC = """\
# openhands_session

Adapter: openhands_session. Reads the conversations the OpenHands CLI keeps,
`~/.openhands/conversations/<id>/` (`$OPENHANDS_CONVERSATIONS_DIR`,
`$OPENHANDS_PERSISTENCE_DIR`): `base_state.json` and one `events/event-*.json` file per event.

Use when:
- The input is an OpenHands conversation's `base_state.json` (its folder's events are read).

Output: init (the conversation id, model, working directory), then as openhands_local.
"""

_STORE = "linewise_openhands.session.store"

#: The plugin (contract 1.5): OpenHands and the two formats linewise reads of it.
agent = Agent(
    "openhands",
    label="OpenHands",
    models=models,
    formats=[
        Format(
            "openhands_local",
            label=label,
            agent_configuration_doc=agent_configuration_doc,
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            parse_stdout_line=f"{_PARSER}:parse_stdout_line",
            sniff=sniff,
            summarize_run=f"{_SUMMARY}:summarize_run",
            check_environment="linewise_openhands.environment:check_environment",
        ),
        Format(
            "openhands_session",
            label="OpenHands (conversation folders)",
            agent_configuration_doc=SESSION_DOC,
            # A conversation's events are openhands_local's: the same parser and summary.
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            summarize_run=f"{_SUMMARY}:summarize_run",
            session_stores=f"{_STORE}:session_stores",
            session_records=f"{_STORE}:session_records",
        ),
    ],
)
