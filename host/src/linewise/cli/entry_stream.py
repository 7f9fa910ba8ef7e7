"""Keeping plugin output off the transcript: stdout is the entries' alone while plugins run."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

__all__ = ["entry_stream"]


def _fd(stream: TextIO) -> int | None:
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return None


@contextmanager
def entry_stream() -> Iterator[TextIO]:
    """A text stream to the process's standard output, for the entries only.

    While it is open, what plugin code prints (``print``, a thread, even
    ``os.write(1, ...)``) goes to stderr instead, neutralised (an escape
    sequence shows as text): ``sys.stdout`` writes to ``sys.stderr`` through
    :class:`~linewise.plugins.relay.NeutralisedText` and file descriptor 1 is a pipe
    an :class:`~linewise.plugins.relay.OutputRelay` drains to descriptor 2; the
    entries go to a duplicate of the original descriptor 1. Everything is put
    back afterwards. When ``sys.stdout`` is not descriptor 1 (an embedding
    app, a test capture), only ``sys.stdout`` is redirected and the entries go to it.
    """
    from linewise.plugins.relay import NeutralisedText, OutputRelay

    original = sys.stdout
    original.flush()
    fd = _fd(original)
    if fd != 1 or _fd(sys.stderr) is None:
        sys.stdout = NeutralisedText(sys.stderr)
        try:
            yield original
        finally:
            sys.stdout = original
        return
    saved = os.dup(1)
    # Line-buffered when the original was (a terminal): someone is watching.
    line_buffered = getattr(original, "line_buffering", False) is True
    from linewise.run.written import NamedRaw

    # A write error (a full disk behind a redirect) names stdout, not the input.
    output = io.TextIOWrapper(
        io.BufferedWriter(NamedRaw(os.dup(1), "stdout")),
        encoding=original.encoding or "utf-8",
        errors="replace",
        line_buffering=line_buffered,
    )
    sys.stderr.flush()
    relay = OutputRelay()
    os.dup2(relay.fd, 1)
    sys.stdout = NeutralisedText(sys.stderr, 1)
    try:
        yield output
    finally:
        try:
            output.close()  # flushes the entries first
        finally:
            sys.stdout = original
            os.dup2(saved, 1)
            os.close(saved)
            relay.close()
