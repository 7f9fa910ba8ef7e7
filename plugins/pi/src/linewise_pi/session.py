"""Pi's session files: the ``pi_session`` adapter type's exports.

The parser and sniff are :mod:`linewise_pi.session_parser`, the store
:mod:`linewise_pi.store`, the summary :func:`linewise_pi.session_summary.summarize_session`.
A session file is one JSON record per line, so the host reads it as it is
(no ``session_records``).
"""

from linewise_pi.session_parser import PiSessionParser, create_stdout_parser
from linewise_pi.session_parser import session_sniff as sniff
from linewise_pi.session_summary import summarize_session as summarize_run
from linewise_pi.store import session_stores

__all__ = [
    "PiSessionParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "Pi (session files)"

agent_configuration_doc = """\
# pi_session

Adapter: pi_session. Reads the sessions Pi keeps on disk,
`~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl` (`PI_CODING_AGENT_DIR` moves
`~/.pi/agent`): a `session` header, then messages, model and thinking-level changes,
compactions, branch summaries, labels and extension entries, in a tree of branches.

Use when:
- The input is a Pi session file, not captured stdout.

Don't use when:
- The log is `pi --mode json` or `--mode rpc` output: use pi_local.

Output: init (session id, cwd), user, assistant, thinking, tool_call and tool_result
(paired by toolCallId, with toolName), system (model changes, compactions, branches,
labels, session name, bash commands the person ran), stderr (failed requests).
"""
