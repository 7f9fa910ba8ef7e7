"""What an export reads of one input: a stored session through its plugin, else the log's lines.

A session file (detected, or in a store's layout: a database, a whole JSON
document) is read as ``render`` and ``summarize`` read it, through its
plugin's ``session_records``. Any other input is a log, unless it is
something no plugin reads and whose lines would only be rows of raw bytes:

- a binary file (NUL bytes, or mostly not UTF-8: a database of a store no
  installed plugin declares);
- a JSON document (its first line a lone ``{`` or ``[``: a pretty-printed
  session file kept outside its store) that no sniffer recognised.

Those are refused with :class:`UnreadableInput`, saying why, and not exported.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Final

if TYPE_CHECKING:
    from linewise.plugins.registry import Registry
    from linewise.sessions.inputs import SessionInput

__all__ = ["UnreadableInput", "opened_input", "opened_inputs", "refuse_unread"]

# How much of a log's start is looked at to tell a binary file or a JSON document.
_HEAD_BYTES: Final = 64 * 1024


class UnreadableInput(ValueError):
    """An input no installed plugin reads, which would export as rows of raw bytes."""


def _stored(source: str, adapter_type: str, registry: Registry) -> SessionInput | None:
    """The stored session ``source`` is (see :func:`opened_input`), or None for a log."""
    from linewise.plugins.guard import PluginCallError
    from linewise.sessions.inputs import session_input

    try:
        return session_input(source, adapter_type, registry)
    except PluginCallError as error:
        raise UnreadableInput(f"cannot read the session: {error.failure.describe()}") from error


def opened_input(source: str, adapter_type: str, registry: Registry) -> tuple[IO[bytes], str]:
    """The bytes an export reads of ``source`` (at their start), and their adapter type.

    A stored session gives its record lines (secret-named variables masked, as
    ``render`` masks them) and its store's adapter type; a log gives its file
    and ``adapter_type``. Raises :class:`OSError` when it cannot be read,
    :class:`UnreadableInput` when its plugin cannot read the session.
    """
    found = _stored(source, adapter_type, registry)
    if found is not None:
        return found.stream, found.adapter_type
    return open(source, "rb"), adapter_type


def opened_inputs(
    source: str, adapter_type: str, registry: Registry
) -> Iterator[tuple[IO[bytes], str, str | None]]:
    """Each session of ``source``: its bytes, adapter type and key, one at a time.

    A store file holding several sessions (its plugin has ``session_keys``: a
    database) gives each of them under its key; anything else gives what
    :func:`opened_input` gives, under the key None.
    """
    from pathlib import Path

    from linewise.plugins.guard import PluginCallError
    from linewise.sessions._stores import session_keys_of
    from linewise.sessions.inputs import keyed_input

    found = _stored(source, adapter_type, registry)
    if found is None:  # a log: its own lines
        yield open(source, "rb"), adapter_type, None  # noqa: SIM115 - the caller closes it
        return
    keys = session_keys_of(registry.load(found.adapter_type), Path(source), registry)
    if len(keys) <= 1:
        yield found.stream, found.adapter_type, None
        return
    found.stream.close()
    for key in keys:
        assert key is not None  # several keys are never the one-session None
        try:
            one = keyed_input(registry, found.adapter_type, Path(source), key)
        except PluginCallError as error:
            raise UnreadableInput(
                f"cannot read its session {key}: {error.failure.describe()}"
            ) from error
        yield one.stream, found.adapter_type, key


def refuse_unread(stream: IO[bytes], source: str) -> None:
    """Raise :class:`UnreadableInput` when no parser recognised ``stream`` and it is not text
    lines (see the module's docstring); ``stream`` is left at its start."""
    from linewise.sessions.inputs import looks_binary

    head = stream.read(_HEAD_BYTES)
    stream.seek(0)
    name = os.path.basename(source)
    if head and looks_binary(head):
        raise UnreadableInput(
            f"{name} looks like a binary file no installed plugin reads (NUL bytes or mostly "
            "not UTF-8 text: a database of a session store linewise does not know?); "
            "not exported"
        )
    first = head.lstrip().split(b"\n", 1)[0].strip()
    if first in (b"{", b"["):
        raise UnreadableInput(
            f"{name} is a JSON document, not lines of agent output, and no installed plugin "
            "reads it as a session (outside its CLI's store, name its type or export the "
            "store's copy); not exported"
        )
