"""OpenHands' conversation folders: the ``openhands_session`` adapter type's exports."""

from linewise_openhands.parser import OpenHandsParser, create_stdout_parser
from linewise_openhands.store import session_records, session_stores
from linewise_openhands.summary import summarize_run

__all__ = [
    "OpenHandsParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_records",
    "session_stores",
    "summarize_run",
]

label = "OpenHands (conversation folders)"

agent_configuration_doc = """\
# openhands_session

Adapter: openhands_session. Reads the conversations the OpenHands CLI keeps,
`~/.openhands/conversations/<id>/` (`$OPENHANDS_CONVERSATIONS_DIR`,
`$OPENHANDS_PERSISTENCE_DIR`): `base_state.json` and one `events/event-*.json` file per event.

Use when:
- The input is an OpenHands conversation's `base_state.json` (its folder's events are read).

Output: init (the conversation id, model, working directory), then as openhands_local.
"""
