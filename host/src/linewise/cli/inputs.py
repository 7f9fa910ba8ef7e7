"""What ``render`` and ``summarize`` read: a stored session in place of a file, never a binary one.

:mod:`linewise.sessions.inputs` tells a stored session (given by id, or a file
its plugin reads) and a log that is not text; here is what the commands make
of them: ``render`` says which session an id named and reads its record lines
in place of the file, ``summarize`` reports it, and either exits with a clear
message when it cannot be found or read; a binary file is refused.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from linewise.cli.common import EXIT_FAILURE, fail
from linewise.plugins.guard import PluginCallError
from linewise.plugins.registry import Registry
from linewise.sessions.inputs import SessionInput, looks_binary, session_input
from linewise.settings.errors import SessionNotFoundError

if TYPE_CHECKING:
    from linewise.transcript.run_report import RunReport

__all__ = ["refusing_binary", "session_report", "session_source"]


def refusing_binary(chunks: Iterable[bytes], path: str) -> Iterator[bytes]:
    """``chunks`` passed on, after checking that the first one is text (exits 1 if not)."""
    first = True
    for chunk in chunks:
        if first and chunk:
            first = False
            if looks_binary(chunk):
                fail(
                    f"{path} looks like a binary file, not an agent's output "
                    "(it holds NUL bytes or is mostly not UTF-8 text); nothing rendered",
                    EXIT_FAILURE,
                )
        yield chunk


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
