"""GitHub Copilot CLI's saved sessions: the ``copilot_session`` adapter type's code.

``~/.copilot/session-state/<session id>/events.jsonl``: the events are read by
:mod:`linewise_copilot.events` (the same events its stdout prints), found by
:mod:`.store`, summed up by :mod:`.summary`; the legacy documents of
``copilot_history`` are :mod:`.history`.
"""

from typing import TYPE_CHECKING

from linewise_contracts.lazy import lazy_names

from linewise_copilot import SESSION_DOC

# Eager: what detection asks (this package holds the history format's sniff module, so
# detection runs this __init__).
from linewise_copilot.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_copilot.events import CopilotSessionParser
    from linewise_copilot.session.parser import create_stdout_parser
    from linewise_copilot.session.store import session_stores
    from linewise_copilot.session.summary import summarize_run

__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "CopilotSessionParser": "linewise_copilot.events",
        "create_stdout_parser": "linewise_copilot.session.parser",
        "session_stores": "linewise_copilot.session.store",
        "summarize_run": "linewise_copilot.session.summary",
    },
)

__all__ = [
    "CopilotSessionParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "GitHub Copilot CLI (saved sessions)"

# The routing doc lives in the agent declaration (linewise_copilot), read from there.
agent_configuration_doc = SESSION_DOC
