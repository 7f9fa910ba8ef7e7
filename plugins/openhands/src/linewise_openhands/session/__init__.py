"""OpenHands' conversation folders: the ``openhands_session`` adapter type's exports."""

from typing import TYPE_CHECKING

from linewise_contracts.lazy import lazy_names

from linewise_openhands import SESSION_DOC

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_openhands.parser import OpenHandsParser, create_stdout_parser
    from linewise_openhands.session.store import session_records, session_stores
    from linewise_openhands.summary import summarize_run

__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "OpenHandsParser": "linewise_openhands.parser",
        "create_stdout_parser": "linewise_openhands.parser",
        "session_records": "linewise_openhands.session.store",
        "session_stores": "linewise_openhands.session.store",
        "summarize_run": "linewise_openhands.summary",
    },
)

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

# The routing doc lives in the agent declaration (linewise_openhands), read from there.
agent_configuration_doc = SESSION_DOC
