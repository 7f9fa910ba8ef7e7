"""Vibe's session logs: the ``vibe_session`` adapter type's exports."""

from typing import TYPE_CHECKING

from linewise_contracts.lazy import lazy_names

from linewise_vibe import SESSION_DOC
from linewise_vibe.sniff import session_sniff as sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_vibe.parser import VibeParser, create_stdout_parser
    from linewise_vibe.session.store import session_records, session_stores
    from linewise_vibe.summary import summarize_run

__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "VibeParser": "linewise_vibe.parser",
        "create_stdout_parser": "linewise_vibe.parser",
        "session_records": "linewise_vibe.session.store",
        "session_stores": "linewise_vibe.session.store",
        "summarize_run": "linewise_vibe.summary",
    },
)

__all__ = [
    "VibeParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_records",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "Mistral Vibe (session logs)"

# The routing doc lives in the agent declaration (linewise_vibe), read from there.
agent_configuration_doc = SESSION_DOC
