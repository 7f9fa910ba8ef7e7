"""cursor-agent's on-disk transcripts: the ``cursor_session`` adapter type's exports.

The parser and sniff are :mod:`linewise_cursor.transcript`, the store and
records :mod:`linewise_cursor.store`, the summary
:func:`linewise_cursor.transcript_summary.summarize_transcript`.
"""

from linewise_cursor.store import session_records, session_stores
from linewise_cursor.transcript import CursorTranscriptParser, create_stdout_parser, sniff
from linewise_cursor.transcript_summary import summarize_transcript as summarize_run

__all__ = [
    "CursorTranscriptParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_records",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "Cursor CLI (agent transcripts)"

agent_configuration_doc = """\
# cursor_session

Adapter: cursor_session. Reads the transcripts cursor-agent keeps on disk,
`~/.cursor/projects/<project>/agent-transcripts/<id>/<id>.jsonl` (older builds:
`agent-transcripts/<id>.jsonl`; subagents: `<id>/subagents/<sub>.jsonl`), with the
chat's `~/.cursor/chats/<workspace>/<id>/meta.json` (working directory, title, times).

Use when:
- The input is a cursor-agent transcript file, not captured stdout.

Don't use when:
- The log is `cursor-agent -p --output-format stream-json` output: use cursor.

Output: init (session id, cwd from the chat metadata), system (title, turn ends, what a
prompt held besides the person's words), user (the `<user_query>` text), assistant,
thinking, tool_call and tool_result (paired by id, with toolName, where the transcript
records results).
"""
