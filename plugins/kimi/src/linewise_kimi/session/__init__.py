"""Kimi's session files: the ``kimi_session`` adapter type's exports."""

from typing import TYPE_CHECKING

from linewise_contracts.lazy import lazy_names

from linewise_kimi import SESSION_DOC
from linewise_kimi.sniff import session_sniff as sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_kimi.session.parser import KimiSessionParser, create_stdout_parser
    from linewise_kimi.session.store import session_records, session_stores
    from linewise_kimi.session.summary import summarize_session as summarize_run

__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "KimiSessionParser": "linewise_kimi.session.parser",
        "create_stdout_parser": "linewise_kimi.session.parser",
        "session_records": "linewise_kimi.session.store",
        "session_stores": "linewise_kimi.session.store",
        "summarize_run": "linewise_kimi.session.summary:summarize_session",
    },
)

__all__ = [
    "KimiSessionParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_records",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "Kimi (session files)"

# The routing doc lives in the agent declaration (linewise_kimi), read from there.
agent_configuration_doc = SESSION_DOC
