"""Session stores (contract 1.2): the sessions a CLI keeps on disk, and how to read one.

Most runs of a coding agent are never captured from stdout, but the CLI keeps
each session in a store on disk (Claude Code under ``~/.claude/projects``,
Codex under ``~/.codex/sessions``, ...). A plugin whose adapter type reads such
files (``claude_session``, say) may declare where they live and, when they are
not JSON lines, how to turn one into the record lines its parser reads. The
host does the rest: finding, listing, searching and rendering, through the
same safety net, validation and renderers as stdout.

Three optional exports, all pure apart from reading the files they are given:

- ``session_stores(environ, home) -> list[SessionStore]``: where the CLI keeps
  sessions on this machine (honouring the CLI's own variables, such as
  ``CLAUDE_CONFIG_DIR`` or ``CODEX_HOME``, read from ``environ``, never from
  ``os.environ``). A directory that does not exist is fine: nothing is found.
- ``session_records(path, key=None) -> Iterable[str]``: the session at ``path``
  as the lines its parser reads, for stores that are not one JSON line per
  record (a whole JSON document, a SQLite database, a session spread over
  several files such as Claude's subagent files). Without it the host reads the
  file as lines. ``key`` selects one session of a file that holds several.
- ``session_keys(path) -> list[str]``: for a store file that holds several
  sessions (OpenCode's SQLite database), the key of each, oldest first.

A session parser stamps entries with the records' own times (through
:func:`linewise_contracts.extract.iso_timestamp`) and nests subagents through
``parentToolUseId``, like any 1.1 parser; its ``init`` entry carries the
session id and, where the store says, the working directory (``cwd``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from linewise_contracts.protocols import SESSION_KEYS, SESSION_RECORDS, SESSION_STORES

__all__ = [
    "SESSION_KEYS",
    "SESSION_RECORDS",
    "SESSION_STORES",
    "SessionKeys",
    "SessionRecords",
    "SessionStore",
    "SessionStores",
    "store_root",
]

# The export names (``session_stores(environ, home) -> list[SessionStore]``,
# ``session_records(path, key=None) -> Iterable[str]``, ``session_keys(path) ->
# list[str]``) live with the other export names in linewise_contracts.protocols,
# which the host reads at every plugin load; they are re-exported here.


@dataclass(frozen=True)
class SessionStore:
    """One place a CLI keeps sessions: a directory and the files in it that are sessions.

    ``cli`` names the CLI for people (``"claude"``, ``"codex"``); ``root`` is
    the directory; ``patterns`` are glob patterns relative to ``root`` (as
    :meth:`pathlib.Path.glob` takes them), each match one session file (or one
    store file holding several sessions, when the plugin exports
    ``session_keys``). Files the patterns match that are not sessions (a
    subagent's file, say) are the plugin's to leave out with ``exclude``:
    glob patterns matched against the path relative to ``root``.
    """

    cli: str
    root: Path
    patterns: tuple[str, ...]
    exclude: tuple[str, ...] = ()


class SessionStores(Protocol):
    """``session_stores(environ, home)``: where the CLI keeps sessions on this machine."""

    def __call__(self, environ: Mapping[str, str], home: Path, /) -> list[SessionStore]: ...


class SessionRecords(Protocol):
    """``session_records(path, key=None)``: one session as the lines its parser reads."""

    def __call__(self, path: Path, key: str | None = None, /) -> Iterable[str]: ...


class SessionKeys(Protocol):
    """``session_keys(path)``: the sessions a store file holds, oldest first."""

    def __call__(self, path: Path, /) -> list[str]: ...


def store_root(configured: str | None, home: Path, default: str) -> Path:
    """The store directory: the CLI's configured directory when set, else ``home / default``.

    ``configured`` is the value of the CLI's own variable (``CODEX_HOME``, say)
    as read from the ``environ`` the host passed; ``~`` at its start means
    ``home``. Empty or blank counts as unset, as the CLIs treat it.
    """
    if configured is None or not configured.strip():
        return home / default
    text = configured.strip()
    if text == "~" or text.startswith("~/"):
        return home / text[2:]
    return Path(text)
