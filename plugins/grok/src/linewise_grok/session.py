"""Grok Build's session folders: the ``grok_session`` adapter type's exports.

The store and records are :mod:`linewise_grok.store`, the parser and sniff
:mod:`linewise_grok.session_parser`, the summary
:func:`linewise_grok.session_summary.summarize_session`.
"""

from linewise_grok.session_parser import GrokSessionParser, create_stdout_parser
from linewise_grok.session_parser import session_sniff as sniff
from linewise_grok.session_summary import summarize_session as summarize_run
from linewise_grok.store import session_keys, session_records, session_stores

__all__ = [
    "GrokSessionParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_keys",
    "session_records",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "Grok Build (session folders)"

agent_configuration_doc = """\
# grok_session

Adapter: grok_session. Reads the sessions Grok Build keeps on disk,
`~/.grok/sessions/<url-encoded cwd>/<uuid>/` (`GROK_HOME` moves `~/.grok`): the
conversation in `updates.jsonl` (ACP session/update notifications, with turn usage in
newer builds) or `chat_history.jsonl`, with `summary.json` and `signals.json`.

Use when:
- The input is a Grok Build session folder's file, not captured stdout.

Don't use when:
- The log is `grok -p ... --output-format streaming-json` output: use grok_local.

Output: init (session id, model, cwd from summary.json), system (title, completed turns
with their tokens), user, assistant, thinking, tool_call and tool_result (paired by id).
"""
