"""Full-text search over every session's messages, tool inputs and tool results.

One SQLite file with an FTS5 table in linewise's cache folder (``serve/``, the
folder 0700 and the file 0600: the text of the sessions is its owner's only).
Each session is indexed as its transcript page shows it: the page is drawn by
the HTML renderer and every element with an id (a message, a tool call, a tool
result...) becomes one row holding its own text and that id, so a result
links to the very element (``/s/UID#e42``). A session is indexed again only
when its file's size or modification time changed, and forgotten when it is no
longer listed.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import re
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Final

from linewise_serve._host import HtmlRenderer, cache_folder, transcribe_session
from linewise_serve.index import Listed

__all__ = ["Hit", "SearchIndex", "fts_query"]

logger = logging.getLogger("linewise")

#: Bumped when what a row holds changes: the index is then made again.
SCHEMA: Final = 3
_FILE: Final = "search.sqlite3"
#: Characters of one element's text that are indexed (the renderer shows at most about this).
_TEXT_CHARS: Final = 100_000
#: Sessions written in one transaction at most, and seconds of indexing work at most.
_BATCH_SESSIONS: Final = 256
_BATCH_SECONDS: Final = 1.0
_MARK_OPEN: Final = "\ue000"
_MARK_CLOSE: Final = "\ue001"
_ID: Final = re.compile(r"e\d{1,9}")
_WORD: Final = re.compile(r"\w+")
_KINDS: Final = (
    "user",
    "assistant",
    "thinking",
    "tool",
    "tool-result",
    "system",
    "result",
    "init",
    "stdout",
    "stderr",
    "diff",
)


@dataclass(frozen=True, slots=True)
class Hit:
    """One element of one session that holds every word searched for."""

    uid: str
    anchor: str
    kind: str
    #: The element's text around the match, the matched words between private-use
    #: marks (U+E000, U+E001) the page turns into <mark> after escaping.
    snippet: str


class _Elements(HTMLParser):
    """The text of each element with an entry id (``eN``), without that of elements inside it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str | None] = []
        self.texts: dict[str, list[str]] = {}
        self.kinds: dict[str, str] = {}
        self.order: list[str] = []
        # Per open element, whether it is a label (its text is not indexed); how many are open.
        self.labels: list[bool] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("br", "hr", "img", "input", "meta", "link", "wbr"):
            return
        values = dict(attrs)
        if tag == "time" or "kind" in (values.get("class") or "").split():
            # An entry's label and time are the page's words, not the session's.
            self.skipping += 1
            self.stack.append(None)
            self.labels.append(True)
            return
        self.labels.append(False)
        ident = values.get("id")
        if ident is not None and _ID.fullmatch(ident):
            classes = (values.get("class") or "").split()
            self.kinds[ident] = next((c for c in classes if c in _KINDS), "entry")
            self.texts[ident] = []
            self.order.append(ident)
            self.stack.append(ident)
        else:
            self.stack.append(None)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("br", "hr", "img", "input", "meta", "link", "wbr"):
            return
        if self.stack:
            self.stack.pop()
        if self.labels and self.labels.pop():
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if self.skipping:
            return
        for ident in reversed(self.stack):
            if ident is not None:
                self.texts[ident].append(data)
                return


def session_elements(listed: Listed) -> Iterator[tuple[str, str, str]]:
    """(anchor, kind, text) of every element of the session's transcript page."""
    transcript = transcribe_session(listed.info)
    out = io.StringIO()
    renderer = HtmlRenderer(out, title="search")
    for entry in transcript.entries:
        renderer.write(entry)
    renderer.close()
    page = out.getvalue()
    start = page.find('<main id="transcript">')
    end = page.rfind("</main>")
    parser = _Elements()
    parser.feed(page[start:end] if start != -1 and end != -1 else page)
    parser.close()
    for ident in parser.order:
        # Pieces apart (a time, a label, the text are separate elements): words stay words.
        text = " ".join(" ".join(parser.texts[ident]).split())
        text = text.replace(_MARK_OPEN, " ").replace(_MARK_CLOSE, " ")
        if text:
            yield ident, parser.kinds[ident], text[:_TEXT_CHARS]


def fts_query(text: str) -> str | None:
    """The FTS5 query for what the user typed: every word, in any order, the last one as a
    prefix; the user's text is only ever quoted words (no FTS5 syntax of theirs runs)."""
    words = _WORD.findall(text)
    if not words:
        return None
    quoted = [f'"{word}"' for word in words[:32]]
    quoted[-1] += "*"
    return " ".join(quoted)


def _private_folder(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    if os.name == "posix":
        os.chmod(folder, 0o700)


def _private_file(path: Path) -> None:
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        if os.name == "posix":
            os.fchmod(descriptor, 0o600)
    finally:
        os.close(descriptor)


class SearchIndex:
    """The search index at ``path`` (None: in memory, when linewise's caching is off).

    Safe to use from several threads: one connection, one lock.
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()
        if path is not None:
            _private_folder(path.parent)
            _private_file(path)
        self._db = sqlite3.connect(
            ":memory:" if path is None else str(path), check_same_thread=False, timeout=10
        )
        self._create()

    @classmethod
    def open_default(
        cls, *, environ: Mapping[str, str] | None = None, home: Path | None = None
    ) -> SearchIndex:
        """The index in linewise's cache folder (``serve/search.sqlite3``), else in memory."""
        folder = cache_folder(environ=environ, home=home)
        if folder is None:
            return cls(None)
        try:
            return cls(folder / "serve" / _FILE)
        except (OSError, sqlite3.Error) as error:
            logger.warning("search index kept in memory (%s): %s", folder, error)
            return cls(None)

    def _create(self) -> None:
        if self.path is not None:
            # A cache made again from the sessions when lost: a write-ahead log and no sync
            # at each commit (a power cut may lose the last batches, never the file).
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("PRAGMA journal_mode = WAL")
                self._db.execute("PRAGMA synchronous = NORMAL")
        with self._lock, self._db:
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version != SCHEMA:
                self._db.execute("DROP TABLE IF EXISTS sessions")
                self._db.execute("DROP TABLE IF EXISTS elements")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS sessions ("
                "uid TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, "
                # The session's rows of ``elements``: rowids first..last (written together).
                "first INTEGER NOT NULL, last INTEGER NOT NULL)"
            )
            self._db.execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS elements USING fts5("
                "text, uid UNINDEXED, anchor UNINDEXED, kind UNINDEXED, "
                "tokenize = 'unicode61 remove_diacritics 2')"
            )
            self._db.execute(f"PRAGMA user_version = {SCHEMA}")

    def close(self) -> None:
        with self._lock, contextlib.suppress(sqlite3.Error):
            self._db.close()

    def _stamps(self) -> dict[str, tuple[int, int]]:
        with self._lock:
            rows = self._db.execute("SELECT uid, size, mtime_ns FROM sessions").fetchall()
        return {uid: (size, mtime) for uid, size, mtime in rows}

    def update(self, listed: Iterable[Listed]) -> int:
        """Index the sessions whose file changed since (or were never indexed); forget the
        sessions no longer listed. Returns how many sessions were indexed.

        Sessions are written in batches (at most ``_BATCH_SESSIONS`` or ``_BATCH_SECONDS``
        of work in one transaction): a commit per session made a cold index of 1,000
        sessions spend 70% of its time committing.
        """
        known = self._stamps()
        wanted: set[str] = set()
        indexed = 0
        batch: list[tuple[str, tuple[int, int], list[tuple[str, str, str, str]]]] = []
        started = time.monotonic()
        for one in listed:
            wanted.add(one.uid)
            try:
                status = os.stat(one.info.path)
            except OSError:
                continue
            stamp = (status.st_size, status.st_mtime_ns)
            if known.get(one.uid) == stamp:
                continue
            try:
                rows = [
                    (text, one.uid, anchor, kind) for anchor, kind, text in session_elements(one)
                ]
            except Exception as error:  # one unreadable session costs its results, not search
                logger.warning("not searchable: %s: %s", one.info.path, error)
                rows = []
            batch.append((one.uid, stamp, rows))
            indexed += 1
            if len(batch) >= _BATCH_SESSIONS or time.monotonic() - started >= _BATCH_SECONDS:
                self._write(batch)
                batch = []
                started = time.monotonic()
        self._write(batch)
        gone = set(known) - wanted
        if gone:
            with self._lock, self._db:
                for uid in gone:
                    self._forget(uid)
        return indexed

    def _write(
        self, batch: list[tuple[str, tuple[int, int], list[tuple[str, str, str, str]]]]
    ) -> None:
        """Each session's rows in place of what it had, in one transaction."""
        if not batch:
            return
        with self._lock, self._db:
            # Taken at once, so no other writer adds rows between a session's max(rowid)
            # and its inserts: its rows are the span first..last.
            self._db.execute("BEGIN IMMEDIATE")
            for uid, stamp, rows in batch:
                self._forget(uid)
                (before,) = self._db.execute(
                    "SELECT coalesce(max(rowid), 0) FROM elements"
                ).fetchone()
                self._db.executemany(
                    "INSERT INTO elements (text, uid, anchor, kind) VALUES (?, ?, ?, ?)", rows
                )
                self._db.execute(
                    "INSERT INTO sessions (uid, size, mtime_ns, first, last) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (uid, *stamp, before + 1, before + len(rows)),
                )

    def _forget(self, uid: str) -> None:
        """Delete a session's rows by their rowids (lock and transaction held by the caller).

        FTS5 finds rows by rowid only: a ``WHERE uid = ?`` on its unindexed column read
        the whole table for each session, so a cold index grew with the square of the
        sessions (10,000 took 454 s).
        """
        found = self._db.execute("SELECT first, last FROM sessions WHERE uid = ?", (uid,))
        span = found.fetchone()
        if span is None:
            return
        self._db.execute("DELETE FROM elements WHERE rowid BETWEEN ? AND ?", span)
        self._db.execute("DELETE FROM sessions WHERE uid = ?", (uid,))

    def indexed(self) -> int:
        """How many sessions the index holds."""
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM sessions").fetchone()[0])

    def search(self, text: str, limit: int = 50) -> list[Hit]:
        """The elements holding every word of ``text`` (case and accents ignored), best first."""
        query = fts_query(text)
        if query is None:
            return []
        with self._lock:
            try:
                rows = self._db.execute(
                    "SELECT uid, anchor, kind, "
                    f"snippet(elements, 0, '{_MARK_OPEN}', '{_MARK_CLOSE}', '…', 24) "
                    "FROM elements WHERE elements MATCH ? ORDER BY rank LIMIT ?",
                    (query, limit),
                ).fetchall()
            except sqlite3.OperationalError as error:
                logger.warning("search %r failed: %s", text, error)
                return []
        return [Hit(uid, anchor, kind, snippet) for uid, anchor, kind, snippet in rows]
