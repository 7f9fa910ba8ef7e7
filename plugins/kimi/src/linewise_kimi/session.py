"""Kimi's session files: the ``kimi_session`` adapter type's exports."""

from linewise_kimi.session_parser import KimiSessionParser, create_stdout_parser
from linewise_kimi.sniff import session_sniff as sniff
from linewise_kimi.store import session_records, session_stores
from linewise_kimi.summary import summarize_session as summarize_run

__all__ = [
    "KimiSessionParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_records",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "Kimi (session files)"

agent_configuration_doc = """\
# kimi_session

Adapter: kimi_session. Reads the sessions Kimi keeps on disk: Kimi Code's
`~/.kimi-code/sessions/*/session_<uuid>/agents/main/wire.jsonl` (metadata, config,
prompts, the agent loop's content parts, tool calls and results, usage records) and
kimi-cli's `~/.kimi/sessions/*/<uuid>/context.jsonl` (OpenAI-style messages).

Use when:
- The input is a Kimi session file, not captured stdout.

Don't use when:
- The log is `kimi --print --output-format stream-json` or `kimi --wire` output: use kimi_local.

Output: init (the session id from its folder), system (config, permission mode),
user, assistant and thinking (streamed parts), tool_call / tool_result (paired by id).
"""
