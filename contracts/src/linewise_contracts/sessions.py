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

Reading a store's files, a plugin keeps every record bounded, as the host
does for stdout: :func:`record_lines` gives a file's lines each at most
:data:`MAX_RECORD_CHARS` characters (the rest of a longer one is skipped, never
held), and :func:`read_document` a whole document (a session kept as one JSON
file) only up to :data:`MAX_DOCUMENT_CHARS` (contract 1.3).

A session parser stamps entries with the records' own times (through
:func:`linewise_contracts.extract.iso_timestamp`) and nests subagents through
``parentToolUseId``, like any 1.1 parser; its ``init`` entry carries the
session id and, where the store says, the working directory (``cwd``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Protocol

from linewise_contracts.protocols import SESSION_KEYS, SESSION_RECORDS, SESSION_STORES

__all__ = [
    "MAX_DOCUMENT_CHARS",
    "MAX_RECORD_CHARS",
    "SESSION_KEYS",
    "SESSION_RECORDS",
    "SESSION_STORES",
    "SessionKeys",
    "SessionRecords",
    "SessionStore",
    "SessionStores",
    "read_document",
    "record_lines",
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


#: The longest record line a plugin hands the host: the host's own line bound (8 Mi
#: characters). A longer line reaches the host one character over it, and is cut there
#: and shown raw with a marker, as a too-long stdout line is.
MAX_RECORD_CHARS: Final = 8 * 1024 * 1024
#: The most characters :func:`read_document` reads of a whole-document session file.
MAX_DOCUMENT_CHARS: Final = 64 * 1024 * 1024
# Characters read at a time while the rest of a too-long line is skipped.
_SKIP_CHARS: Final = 1024 * 1024


def record_lines(path: Path, *, max_chars: int = MAX_RECORD_CHARS) -> Iterator[str]:
    """The non-blank lines of the file at ``path``, without their line ends, bounded.

    Lines end at ``\\n`` (a ``\\r`` before it goes too); the text is UTF-8,
    undecodable bytes become U+FFFD. A line longer than ``max_chars`` comes out
    as its first ``max_chars + 1`` characters, so the host sees it is too long
    and cuts it with its marker; the rest of it is skipped as it is read, so
    memory stays bounded by ``max_chars`` whatever the file holds (contract 1.3).
    """
    if max_chars < 1:
        raise ValueError("max_chars must be at least 1")
    with path.open(encoding="utf-8", errors="replace", newline="\n") as handle:
        # Two over: a line of max_chars and its "\r\n" still comes whole.
        while line := handle.readline(max_chars + 2):
            if not line.endswith("\n") and len(line) > max_chars + (line[-1] == "\r"):
                while (rest := handle.readline(_SKIP_CHARS)) and not rest.endswith("\n"):
                    pass
                yield line[: max_chars + 1]
                continue
            line = line.rstrip("\r\n")
            if line.strip():
                yield line


def read_document(path: Path, *, max_chars: int = MAX_DOCUMENT_CHARS) -> str | None:
    """The whole text of the file at ``path`` (UTF-8, with replacement), or None when longer.

    For stores that keep a session as one document (a JSON file): a file of
    more than ``max_chars`` characters is not read past them, and the plugin
    falls back to :func:`record_lines` (so what it holds is still shown, line by
    line) instead of holding it whole (contract 1.3).
    """
    if max_chars < 1:
        raise ValueError("max_chars must be at least 1")
    with path.open(encoding="utf-8", errors="replace") as handle:
        text = handle.read(max_chars + 1)
    return text if len(text) <= max_chars else None
