"""Droid's session files: the ``droid_session`` adapter type's exports.

The parser is :mod:`linewise_droid.session_parser`, the store and records
:mod:`linewise_droid.store`, the detection :func:`linewise_droid.sniff.session_sniff`
and the summary :func:`linewise_droid.summary.summarize_session`.
"""

from linewise_droid.session_parser import DroidSessionParser, create_stdout_parser
from linewise_droid.sniff import session_sniff as sniff
from linewise_droid.store import session_records, session_stores
from linewise_droid.summary import summarize_session as summarize_run

__all__ = [
    "DroidSessionParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_records",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "Factory Droid (session files)"

agent_configuration_doc = """\
# droid_session

Adapter: droid_session. Reads the sessions Factory Droid keeps on disk,
`~/.factory/sessions/<encoded cwd>/<uuid>.jsonl` (a `session_start` record, then
messages with Anthropic-style content blocks), with the model and token totals of the
sibling `<uuid>.settings.json`.

Use when:
- The input is a Droid session file, not captured stdout.

Don't use when:
- The log is `droid exec -o stream-json` output: use droid_local.

Output: init (session id, model from the settings, cwd), system (title, Droid's
system reminders shortened), user, assistant, thinking, tool_call and tool_result
(paired by id, with toolName).
"""
