"""An input that may be a stored session: given by id, or a file its plugin reads.

An input is a session when it names no file but a session's id (or an
unambiguous prefix of one), or when it is a file whose adapter type (given,
or detected) exports ``session_records`` or whose store's layout holds it.
The session's record lines, with secret values masked, then stand in for the
file: ``render``, ``summarize`` and ``export`` read them as they read a log.
Any other input is left alone (and a type without ``session_records`` imports
nothing more). :func:`looks_binary` tells a log that is not text.
"""

from __future__ import annotations

import codecs
import errno
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import IO, TYPE_CHECKING, Final

from linewise.settings.logs import logger

if TYPE_CHECKING:
    from pathlib import Path

    from linewise.plugins.registry import Registry
    from linewise.render.progress import ProgressBar
    from linewise.stream.detect import Detection

__all__ = ["SessionInput", "keyed_input", "looks_binary", "session_input", "terminal_progress"]


#: How much of the start of an input is looked at.
LOOKED_AT: Final = 1024
#: Share of characters that may be undecodable or control characters in text.
MOST_UNREADABLE: Final = 0.3
# Control characters an agent's output does carry: tab, newline, carriage return,
# form feed, backspace and escape (colours).
_TEXT_CONTROLS: Final = frozenset("\t\n\r\f\b\x1b")


def looks_binary(start: bytes) -> bool:
    """True when ``start`` (a stream's first bytes) is not text: it holds a NUL byte, or
    a large share of it is not UTF-8 or is control characters."""
    start = start[:LOOKED_AT]
    if b"\x00" in start:
        return True
    # Incremental: a character cut at the end of what is looked at is not held against it.
    text = codecs.getincrementaldecoder("utf-8")("replace").decode(start, final=False)
    if not text:
        return False
    unreadable = sum(
        1 for char in text if char == "\ufffd" or (char < " " and char not in _TEXT_CONTROLS)
    )
    return unreadable > MOST_UNREADABLE * len(text)


# What pathlib's is_file() and exists() take for "not there" rather than an error.
_ABSENT = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)
_WINDOWS_ABSENT = (21, 123, 1921)


class SessionInput:
    """A session's record lines as a seekable byte stream, and the adapter type that reads them.

    A plain class: ``render FILE`` imports this module, and builds one only for a session.
    """

    __slots__ = ("about", "adapter_type", "detection", "listing", "path", "stream")

    def __init__(
        self,
        stream: IO[bytes],
        adapter_type: str,
        path: Path,
        detection: Detection | None = None,
        *,
        about: str | None = None,
        listing: Callable[[], Iterable[str]] | None = None,
    ) -> None:
        self.stream = stream
        self.adapter_type = adapter_type
        self.path = path
        self.detection = detection
        #: Which session an id named, said on stderr by ``render``.
        self.about = about
        #: The session's lines listed afresh (masked as :attr:`stream`'s): what ``--follow`` reads.
        self.listing = listing


def _looks_like_id(reference: str) -> bool:
    return bool(reference) and reference != "-" and "/" not in reference and os.sep not in reference


def terminal_progress() -> tuple[Callable[[int, int], None] | None, Callable[[], None]]:
    """A progress bar on stderr while sessions are read, when stderr is a terminal (shown only
    when reading is slow), and what erases it."""
    from linewise.render.progress import ProgressBar

    if not ProgressBar.wanted(sys.stderr):
        return None, lambda: None
    bars: list[ProgressBar] = []

    def update(done: int, total: int) -> None:
        if not bars:
            bars.append(ProgressBar(sys.stderr, total))
        bars[0].update(done)

    return update, lambda: bars[0].close() if bars else None


def session_input(reference: str, adapter_type: str, registry: Registry) -> SessionInput | None:
    """The session ``reference`` names, or None when it is an ordinary input.

    Raises :class:`~linewise.settings.errors.SessionNotFoundError` and
    :class:`~linewise.settings.errors.AmbiguousSessionError` for an id that matches no
    session or several, :class:`OSError` and
    :class:`~linewise.plugins.guard.PluginCallError` when the session cannot be read.
    """
    if reference == "-":
        return None
    mode = _mode(reference)
    if mode is not None and stat.S_ISREG(mode):
        return _file_input(reference, adapter_type, registry)
    if mode is not None or not _looks_like_id(reference):
        return None
    from linewise.sessions import resolve_session

    progress, done = terminal_progress()
    try:
        source = resolve_session(reference, registry=registry, progress=progress)
    finally:
        done()
    if adapter_type not in ("auto", source.adapter_type):
        logger.warning(
            "session %s is read by %s, its store's adapter type, not %s",
            reference,
            source.adapter_type,
            adapter_type,
        )
    found = _read(registry, source.adapter_type, source.path, source.key)
    found.about = f"{source.reason}: {source.path}"
    return found


def _mode(reference: str) -> int | None:
    """The file mode of ``reference``, None when nothing is there.

    What ``Path(reference).is_file()`` and ``.exists()`` decide (an error other
    than "not there" is raised), without importing pathlib for every ``render``.
    """
    target = reference
    if os.path.basename(reference) in ("", "."):
        # pathlib drops a trailing separator or "." (`log.jsonl/` is the file): ask it.
        from pathlib import Path

        target = str(Path(reference))
    try:
        return os.stat(target).st_mode
    except OSError as error:
        if error.errno in _ABSENT or getattr(error, "winerror", None) in _WINDOWS_ABSENT:
            return None
        raise
    except ValueError:  # a NUL character, or a name the file system cannot encode
        return None


def _file_input(reference: str, adapter_type: str, registry: Registry) -> SessionInput | None:
    if adapter_type != "auto":
        if registry.load(adapter_type).session_records is None:
            return None  # lines the ordinary way
        from pathlib import Path

        return _read(registry, adapter_type, Path(reference), None)
    from linewise.sessions.records import sniffed_type

    # A str until a session is read: pathlib is not imported for an ordinary log.
    detection = sniffed_type(reference, registry)
    if detection.detected and registry.load(detection.adapter_type).session_records is None:
        return None  # lines the ordinary way (detected again there)
    from pathlib import Path

    path = Path(reference)
    if detection.detected:
        return _read(registry, detection.adapter_type, path, None, detection)
    # No sniffer is sure (a database, say): the store whose layout holds the file, if any.
    from linewise.sessions import store_type
    from linewise.stream.detect import Detection

    found = store_type(path, registry=registry)
    if found is None:
        return None
    detection = Detection(found, True, "the file is in its session store")
    return _read(registry, found, path, None, detection)


def keyed_input(registry: Registry, adapter_type: str, path: Path, key: str) -> SessionInput:
    """The session ``key`` of a store file holding several, read through its plugin."""
    return _read(registry, adapter_type, path, key)


def _read(
    registry: Registry,
    adapter_type: str,
    path: Path,
    key: str | None,
    detection: Detection | None = None,
) -> SessionInput:
    from linewise.render.redaction.redactor import Redactor
    from linewise.sessions.records import records_stream, session_lines

    parser = registry.load(adapter_type)
    mask = Redactor.for_environment(os.environ)
    masking = mask.text if mask.active else None
    stream = records_stream(session_lines(parser, path, key), masking)

    def listing() -> Iterator[str]:
        for line in session_lines(parser, path, key):
            yield line if masking is None else masking(line)

    return SessionInput(stream, adapter_type, path, detection, listing=listing)
