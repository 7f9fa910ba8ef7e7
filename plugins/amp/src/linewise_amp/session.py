"""Amp's thread files: the ``amp_session`` adapter type's exports.

A thread file becomes Claude stream-json records (:mod:`linewise_amp.store`), read
by linewise-claude's parser; detection is :func:`linewise_amp.sniff.thread_sniff`.
"""

from linewise_claude import create_stdout_parser

from linewise_amp.sniff import thread_sniff as sniff
from linewise_amp.store import session_records, session_stores
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

agent_configuration_doc = """\
# amp_session

Adapter: amp_session. Reads Amp's local thread files, `$AMP_DIR/threads/T-<id>.json`
(`~/.local/share/amp/threads` by default): one JSON document per thread with its messages
(Anthropic content blocks), turned into Claude stream-json records and read with Claude
Code's parser.

Use when:
- The input is an Amp thread file.

Don't use when:
- The log is `amp --execute --stream-json` output: use amp_local.

Output: init (the thread id), user, assistant, thinking, tool_call / tool_result paired by id.
"""
