"""Amp's thread files: the ``amp_session`` adapter type's exports.

A thread file becomes Claude stream-json records (:mod:`linewise_amp.session.store`), read
by linewise-claude's parser; detection is :func:`linewise_amp.sniff.thread_sniff`.
"""

from typing import TYPE_CHECKING

from linewise_contracts.lazy import lazy_names

from linewise_amp import SESSION_DOC
from linewise_amp.sniff import thread_sniff as sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_claude import create_stdout_parser

    from linewise_amp.session.store import session_records, session_stores
    from linewise_amp.summary import summarize_run

__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "create_stdout_parser": "linewise_claude",
        "session_records": "linewise_amp.session.store",
        "session_stores": "linewise_amp.session.store",
        "summarize_run": "linewise_amp.summary",
    },
)

__all__ = [
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_records",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "Amp (thread files)"

# The routing doc lives in the agent declaration (linewise_amp), read from there.
agent_configuration_doc = SESSION_DOC
