"""``render`` and ``summarize`` of a stored session: given by id, or a file its plugin reads.

An input is a session when it names no file but a session's id (or an
unambiguous prefix of one), or when it is a file whose adapter type (given
with ``-a``, or detected) exports ``session_records`` or whose store's layout
holds it. The session's record lines, with secret values masked, then stand
in for the file: everything after that is the ordinary ``render`` or
``summarize``. Any other input is left alone, and ``render FILE -a TYPE`` of a
type without ``session_records`` imports nothing more.
"""

from __future__ import annotations

import argparse
import errno
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import IO, TYPE_CHECKING

from linewise.cli.common import EXIT_FAILURE, fail, logger
from linewise.errors import SessionNotFoundError
from linewise.plugins.guard import PluginCallError
from linewise.plugins.registry import Registry

if TYPE_CHECKING:
    from pathlib import Path

    from linewise.render.progress import ProgressBar
    from linewise.stream.detect import Detection
    from linewise.transcript.run_report import RunReport

__all__ = ["SessionInput", "session_input", "session_report", "session_source", "terminal_progress"]

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

    Raises :class:`~linewise.errors.SessionNotFoundError` and
    :class:`~linewise.errors.AmbiguousSessionError` for an id that matches no
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
    from pathlib import Path

    from linewise.sessions.records import sniffed_type

    path = Path(reference)
    detection = sniffed_type(path, registry)
    if detection.detected:
        if registry.load(detection.adapter_type).session_records is None:
            return None  # lines the ordinary way (detected again there)
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


def session_source(args: argparse.Namespace, registry: Registry) -> SessionInput | None:
    """For ``render``: the session ``args.path`` names, or None when it names none.

    ``args.adapter`` becomes the session's adapter type (what detection chose
    is said on stderr, as for any log). Exits with a clear message when the
    session cannot be found or read. With ``--follow`` its stream is closed:
    :attr:`SessionInput.listing` is read instead, again as the session grows.
    """
    try:
        found = session_input(args.path, args.adapter, registry)
    except SessionNotFoundError as error:
        fail(str(error), EXIT_FAILURE)
    except PluginCallError as error:
        fail(f"cannot read the session {args.path}: {error.failure.describe()}", EXIT_FAILURE)
    except OSError as error:
        fail(f"cannot read {args.path}: {error.strerror or error}", EXIT_FAILURE)
    if found is None:
        return None
    if args.follow:
        found.stream.close()
    if found.detection is not None:
        from linewise.cli.drawing import note_detection

        note_detection(found.detection, quiet=args.quiet)
    if found.about is not None and not args.quiet:
        from linewise.settings.sanitising import neutralize
        from linewise.transcript.privacy import censor_text

        about = censor_text(found.about) if args.censor_usernames else found.about
        sys.stderr.write(f"linewise: {neutralize(about)}\n")
    args.adapter = found.adapter_type
    return found


def session_report(reference: str, adapter_type: str, registry: Registry) -> RunReport | None:
    """For ``summarize``: the report of the session ``reference`` names, or None.

    An id that matches no session gives None (the input is then reported as an
    unreadable file, like any missing path); a session that cannot be read
    raises :class:`OSError`, so it is reported the same way.
    """
    from linewise.transcript.run_report import summarize_stream

    try:
        found = session_input(reference, adapter_type, registry)
    except SessionNotFoundError:
        return None
    except PluginCallError as error:
        raise OSError(f"cannot read the session: {error.failure.describe()}") from error
    if found is None:
        return None
    with found.stream:
        return summarize_stream(found.stream, reference, found.adapter_type, registry=registry)
