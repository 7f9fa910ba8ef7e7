"""Hermes Agent's session store: the ``hermes_session`` adapter type's exports.

The store and records are :mod:`linewise_hermes.store`, the parser and sniff
:mod:`linewise_hermes.session_parser`, the summary
:func:`linewise_hermes.session_summary.summarize_session`.
"""

from linewise_hermes.session_parser import HermesSessionParser, create_stdout_parser
from linewise_hermes.session_parser import session_sniff as sniff
from linewise_hermes.session_summary import summarize_session as summarize_run
from linewise_hermes.store import session_keys, session_records, session_stores

__all__ = [
    "HermesSessionParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_keys",
    "session_records",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "Hermes Agent (session store)"

agent_configuration_doc = """\
# hermes_session

Adapter: hermes_session. Reads the sessions Hermes Agent keeps on disk: the SQLite
database `~/.hermes/state.db` (`HERMES_HOME`; named profiles' `profiles/*/state.db`),
opened read-only, and the session documents `sessions/session_<id>.json`.

Use when:
- The input is a Hermes session from its store (by id, the database or a document).

Don't use when:
- The log is Hermes' text output (`[hermes]`, `┊` tool lines): use hermes_local.

Output: init (session id, model, cwd), system (title, source platform, the session it
continues), user, assistant, thinking (reasoning), tool_call and tool_result (paired by
tool_call_id, with toolName).
"""
