"""Amp's thread files: the ``amp_session`` adapter type's exports.

A thread file becomes Claude stream-json records (:mod:`linewise_amp.session.store`), read
by linewise-claude's parser; detection is :func:`linewise_amp.sniff.thread_sniff`.
"""

from linewise_claude import create_stdout_parser

from linewise_amp import SESSION_DOC
from linewise_amp.session.store import session_records, session_stores
from linewise_amp.sniff import thread_sniff as sniff
from linewise_amp.summary import summarize_run

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
