"""Claude subagent files whose session file is gone: the ``claude_subagent`` adapter type.

A subagent's records live in ``projects/<project>/<session>/subagents/agent-*.jsonl``
and are read as part of their session (``claude_session``). When the session's
own ``<session>.jsonl`` is gone (deleted, or a copy of the folder without it),
the subagent's work would vanish from ``linewise sessions``: this store lists
each such file as a session of its own, marked as a subagent whose parent is
missing, read by the same parser and summary.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from linewise_contracts.lazy import lazy_names
from linewise_contracts.sessions import SessionStore, store_root

from linewise_claude import SUBAGENT_DOC
from linewise_claude.session.records import orphan_records, parent_file

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_claude.session.parser import ClaudeSessionParser, create_stdout_parser
    from linewise_claude.session.summary import summarize_session as summarize_run

# The parser and summary on first read: asking this store's session_stores (a log no
# sniffer is sure of) imports no parser.
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "ClaudeSessionParser": "linewise_claude.session.parser",
        "create_stdout_parser": "linewise_claude.session.parser",
        "summarize_run": "linewise_claude.session.summary:summarize_session",
    },
)

__all__ = [
    "ClaudeSessionParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_keys",
    "session_records",
    "session_stores",
    "summarize_run",
]

label = "Claude Code (subagent files without their session)"


def session_stores(environ: Mapping[str, str], home: Path) -> list[SessionStore]:
    """The subagent files of ``CLAUDE_CONFIG_DIR`` (``~/.claude``)'s projects."""
    root = store_root(environ.get("CLAUDE_CONFIG_DIR"), home, ".claude")
    return [SessionStore("claude", root / "projects", ("*/*/subagents/agent-*.jsonl",))]


def session_keys(path: Path) -> list[str]:
    """The file's name when its session file is missing; nothing when it is there
    (then the file is part of that session, listed by ``claude_session``)."""
    try:
        if parent_file(path).is_file():
            return []
    except OSError:
        pass
    return [path.stem]


def session_records(path: Path, key: str | None = None) -> Iterator[str]:
    """The orphaned subagent file as a session (see ``records.orphan_records``)."""
    del key  # one session per file
    return orphan_records(path)


# The routing doc lives in the agent declaration (linewise_claude), read from there.
agent_configuration_doc = SUBAGENT_DOC
