"""Goose's session store: the ``goose_session`` adapter type's exports.

The store and records are :mod:`linewise_goose.store`, the parser and sniff
:mod:`linewise_goose.session_parser`, the summary
:func:`linewise_goose.session_summary.summarize_session`.
"""

from linewise_goose.session_parser import GooseSessionParser, create_stdout_parser
from linewise_goose.session_parser import session_sniff as sniff
from linewise_goose.session_summary import summarize_session as summarize_run
from linewise_goose.store import session_keys, session_records, session_stores

__all__ = [
    "GooseSessionParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_keys",
    "session_records",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "Goose (session store)"

agent_configuration_doc = """\
# goose_session

Adapter: goose_session. Reads the sessions Goose keeps on disk: the SQLite database
`~/.local/share/goose/sessions/sessions.db` (`XDG_DATA_HOME`, `GOOSE_PATH_ROOT`; macOS
`~/Library/Application Support/Block/goose`), opened read-only, and the
`<yyyymmdd_hhmmss>.jsonl` session files of older versions beside it.

Use when:
- The input is a Goose session from its store (by id, the database or a session file).

Don't use when:
- The log is `goose run --output-format stream-json` output: use goose_local.

Output: init (session id, model, working directory), system (title, session type),
user, assistant, thinking, tool_call and tool_result (paired by id, with toolName).
"""
