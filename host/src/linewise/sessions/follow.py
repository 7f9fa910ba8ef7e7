"""A stored session followed as its CLI writes it: each new record once, as it appears.

The host knows a session only as the lines its plugin's ``session_records``
gives (or the file's lines), so following one is listing it again whenever its
files change and passing on the records not passed on before. A record is
known by a digest of its line: each is passed on once, however often it is
listed (a record written twice is passed on twice). What the host watches is
the session file and the folder of the same name beside it (where Claude Code
keeps a session's subagent files), so a subagent file that appears midway
joins in.

Two things the plugin lists are not records the CLI wrote, and are handled so:

- a first line that changed while the files only grew is a header the plugin
  makes from the records (Claude's ``linewise-session``, whose model is known
  only once an assistant record is written): it was passed on already;
- a record file (the session file, a ``.jsonl`` in its folder) whose last line
  is not ended yet is being written: listing waits for the line to be ended (a
  few looks at most), so half a record is not passed on.

A session file replaced (another inode at its path) or rewritten shorter is
said on stderr and listed again: what it holds that was not passed on yet is.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Final

from linewise.settings.logs import logger

__all__ = ["FOLLOW_INTERVAL", "follow_records", "session_files"]


#: Seconds between two looks at a followed session whose files did not change.
FOLLOW_INTERVAL: Final = 0.25
#: Looks a file's unended last line is waited for before the session is listed anyway.
_UNENDED_LOOKS: Final = 8
#: Most files watched in a session's folder (a session with more is watched by its first ones).
_MAX_WATCHED: Final = 4096

# (path, device, inode, size, modification time in ns) of each watched file.
_Signature = tuple[tuple[str, int, int, int, int], ...]


def session_files(path: Path) -> list[Path]:
    """The files a followed session is: ``path``, and the files in the folder of its name."""
    files = [path]
    folder = path.with_suffix("")
    if folder == path or not folder.is_dir():
        return files
    try:
        for root, dirs, names in os.walk(folder):
            dirs.sort()
            for name in sorted(names):
                files.append(Path(root, name))
                if len(files) > _MAX_WATCHED:
                    return files
    except OSError:
        pass
    return files


def _signature(files: list[Path]) -> _Signature:
    out = []
    for file in files:
        try:
            status = file.stat()
        except OSError:
            continue
        out.append((str(file), status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns))
    return tuple(out)


def _ended(file: Path, size: int) -> bool:
    """True when ``file`` is empty or its last byte ends a line."""
    if size == 0:
        return True
    try:
        with open(file, "rb") as stream:
            stream.seek(size - 1)
            return stream.read(1) in (b"\n", b"")
    except OSError:
        return True


def _digest(line: str) -> bytes:
    return hashlib.blake2b(line.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class _Passed:
    """Which records were passed on, by digest and count, and the listing's first line."""

    def __init__(self) -> None:
        self.counts: Counter[bytes] = Counter()
        self.first: bytes | None = None

    def new_lines(self, lines: Iterable[str], *, grew_only: bool) -> Iterator[str]:
        seen: Counter[bytes] = Counter()
        for index, line in enumerate(lines):
            digest = _digest(line)
            if index == 0:
                if self.first is None:
                    self.first = digest
                elif digest != self.first and grew_only:
                    self.counts[digest] += 1  # the plugin's header, remade: shown already
                    self.first = digest
                    continue
            seen[digest] += 1
            if seen[digest] > self.counts[digest]:
                self.counts[digest] += 1
                yield line


def follow_records(
    listing: Callable[[], Iterable[str]],
    path: Path,
    *,
    interval: float = FOLLOW_INTERVAL,
    sleep: Callable[[float], object] | None = None,
    on_idle: Callable[[], None] | None = None,
) -> Iterator[bytes]:
    """The session's record lines (UTF-8, each ended) now, then each new one as it is written.

    ``listing`` lists the session's lines afresh (``session_lines`` of its plugin);
    ``path`` is the session file. Runs for ever: stop it by closing the generator or
    with Ctrl-C. ``on_idle`` is called each time what was written has been passed on.
    """
    pause = time.sleep if sleep is None else sleep
    passed = _Passed()
    files = session_files(path)
    signature = _signature(files)
    for line in passed.new_lines(listing(), grew_only=True):
        yield line.encode("utf-8", "surrogatepass") + b"\n"
    waited = 0
    while True:
        if on_idle is not None:
            on_idle()
        pause(interval)
        files = session_files(path)
        now = _signature(files)
        if now == signature:
            continue
        unended = any(
            not _ended(Path(name), size)
            for name, _, _, size, _ in now
            if name == str(path) or name.endswith(".jsonl")
        )
        if unended and waited < _UNENDED_LOOKS:
            waited += 1
            continue
        waited = 0
        grew_only = _grew_only(signature, now)
        if not grew_only:
            logger.warning(
                "the followed session %s was rewritten or replaced; reading it again "
                "(records shown already are not shown again)",
                path,
            )
        signature = now
        for line in passed.new_lines(listing(), grew_only=grew_only):
            yield line.encode("utf-8", "surrogatepass") + b"\n"


def _grew_only(before: _Signature, now: _Signature) -> bool:
    """True when every file watched before is still the same file, no shorter."""
    was = {name: (dev, ino, size) for name, dev, ino, size, _ in before}
    still = {name for name, *_ in now}
    if any(name not in still for name in was):
        return False  # a file went away
    for name, dev, ino, size, _ in now:
        old = was.get(name)
        if old is not None and ((dev, ino) != old[:2] or size < old[2]):
            return False
    return True
