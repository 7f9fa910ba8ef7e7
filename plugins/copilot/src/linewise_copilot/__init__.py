"""linewise-copilot: GitHub Copilot CLI's stdout and saved sessions, as one declared ``agent``.

Adapter types: ``copilot_local`` (``copilot -p "..." --output-format json``: the
parser in :mod:`.parser`, its summary in :mod:`.summary`), ``copilot_session``
(``~/.copilot/session-state/<id>/events.jsonl``: :mod:`.session`) and
``copilot_history`` (the legacy documents: :mod:`.session.history`). Stdout and
session files hold the same events, read by :mod:`.events`. Each format's code is
named by reference (the module that defines it), imported only when that format is
loaded; the package imports its ``sniff`` alone.

This module was ``copilot_session``'s entry point in contract 1.x: its names of then
(``create_stdout_parser``, ``sniff``, ``session_stores``, ``summarize_run``,
``label``, ``agent_configuration_doc``, ``CopilotSessionParser``) are still
``copilot_session``'s, read from :mod:`linewise_copilot.session` when first asked
for (deprecated: import them from there; read until 2.0); ``sniff``, the sniff both
its formats of events share, is imported at once.
"""

from typing import TYPE_CHECKING

from linewise_contracts.agent import Agent, Format
from linewise_contracts.lazy import lazy_names

# Imported at once (detection asks it, every format reads its events with it), and so
# that the package's ``sniff`` is this function, not the ``sniff`` submodule.
from linewise_copilot.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_copilot.events import CopilotSessionParser
    from linewise_copilot.session import agent_configuration_doc, label
    from linewise_copilot.session.parser import create_stdout_parser
    from linewise_copilot.session.store import session_stores
    from linewise_copilot.session.summary import summarize_run

__all__ = [
    "HISTORY_DOC",
    "LOCAL_DOC",
    "SESSION_DOC",
    "CopilotSessionParser",
    "agent",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_stores",
    "sniff",
    "summarize_run",
]

# The names this module had as ``copilot_session``'s 1.x entry point, imported when first
# read (each from the module that defines it; the label and doc are
# linewise_copilot.session's).
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "CopilotSessionParser": "linewise_copilot.events",
        "agent_configuration_doc": "linewise_copilot.session",
        "create_stdout_parser": "linewise_copilot.session.parser",
        "label": "linewise_copilot.session",
        "session_stores": "linewise_copilot.session.store",
        "summarize_run": "linewise_copilot.session.summary",
    },
)


#: The routing doc of copilot_local (``linewise_copilot.stdout`` names it too).
LOCAL_DOC = """\
# copilot_local

Adapter: copilot_local. Parses `copilot -p "..." --output-format json`: one session event
per line (`{type, data, id, timestamp, parentId}`), streamed deltas, and a last `result`.

Use when:
- The agent is GitHub Copilot CLI run non-interactively with `--output-format json`.

Don't use when:
- The input is a saved session (`~/.copilot/session-state/<id>/events.jsonl`): use
  copilot_session.
- The log is Copilot's default text output (no `--output-format json`): use `process`.

Output: user, thinking and assistant (fragments with delta: true while streaming),
tool_call and tool_result (paired, with toolName), subagent entries nested under their
tool call, system, stderr (errors), result (exit code; tokens when reported), init with
the session id.
"""

#: The routing doc of copilot_session (``linewise_copilot.session`` names it too).
SESSION_DOC = """\
# copilot_session

Adapter: copilot_session. Reads the sessions GitHub Copilot CLI keeps on disk,
`~/.copilot/session-state/<session id>/events.jsonl` (`COPILOT_HOME` moves
`~/.copilot`): one event per line, `{type, data, id, timestamp, parentId}`.

Use when:
- The input is a Copilot CLI `events.jsonl`.

Don't use when:
- The log is another CLI's (Claude Code, Codex, Gemini ...): use its own adapter type.

Output: init (session id, cwd), user, thinking, assistant, tool_call and tool_result
(paired by toolCallId, with toolName), subagent entries nested under their tool call,
system (model changes, notices, hooks), stderr (errors), result at shutdown (tokens).
"""

#: The routing doc of copilot_history (``linewise_copilot.session.history`` names it too).
HISTORY_DOC = """\
# copilot_history

Adapter: copilot_history. Reads the session documents older GitHub Copilot CLI builds
kept, `~/.copilot/history-session-state/<id>.json` (`COPILOT_HOME` moves `~/.copilot`):
`{sessionId, startTime, chatMessages, timeline}`.

Use when:
- The input is a Copilot CLI legacy `history-session-state` document.

Don't use when:
- The input is a current `session-state/<id>/events.jsonl`: use copilot_session.
- The log is `copilot -p --output-format json` output: use copilot_local.

Output: init (session id), user, assistant, tool_call and tool_result (paired by id, or in
order where the document gives none), system (other roles, timeline events of a document
without chat messages).
"""

_PARSER = "linewise_copilot.parser"
_SNIFF = "linewise_copilot.sniff"
_SESSION = "linewise_copilot.session"

#: The plugin (contract 1.5): GitHub Copilot CLI and the three formats linewise reads of it.
agent = Agent(
    "copilot",
    label="GitHub Copilot CLI",
    formats=[
        Format(
            "copilot_local",
            label="GitHub Copilot CLI (local)",
            agent_configuration_doc=LOCAL_DOC,
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            sniff=f"{_SNIFF}:sniff_stdout",
            summarize_run="linewise_copilot.summary:summarize_run",
            check_environment="linewise_copilot.environment:check_environment",
        ),
        Format(
            "copilot_session",
            label="GitHub Copilot CLI (saved sessions)",
            agent_configuration_doc=SESSION_DOC,
            create_stdout_parser=f"{_SESSION}.parser:create_stdout_parser",
            sniff=sniff,
            summarize_run=f"{_SESSION}.summary:summarize_run",
            session_stores=f"{_SESSION}.store:session_stores",
        ),
        Format(
            "copilot_history",
            label="GitHub Copilot CLI (legacy session documents)",
            agent_configuration_doc=HISTORY_DOC,
            create_stdout_parser=f"{_SESSION}.history_parser:create_stdout_parser",
            sniff=f"{_SESSION}.history_sniff:history_sniff",
            summarize_run=f"{_SESSION}.history_summary:summarize_history",
            session_stores=f"{_SESSION}.history_store:session_stores",
            session_records=f"{_SESSION}.history_store:session_records",
        ),
    ],
)
