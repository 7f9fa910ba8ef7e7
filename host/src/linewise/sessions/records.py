"""A stored session's record lines: through its plugin's ``session_records``, or the file's lines.

This is all the host knows of a session file's format: either the plugin turns
it into the lines its parser reads (``session_records``, contract 1.2), or the
file already is those lines. The plugin's generator runs behind the guard one
item at a time: what it raises, or an item that is not a string, stops the
reading with a :class:`~linewise.plugins.guard.PluginCallError` naming the plugin and
how many lines came before, never a silent cut.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Final

from linewise.plugins.guard import (
    PluginCallError,
    PluginCallFailure,
    describe,
    is_plugin_failure,
)
from linewise.settings.defaults import MAX_LINE_CHARS
from linewise.stream.lines import read_lines

if TYPE_CHECKING:
    from linewise.plugins.registry import LoadedParser, Registry
    from linewise.stream.detect import Detection

__all__ = ["records_stream", "session_lines", "sniffed_type"]

#: Bytes of a file's start the sniffers see when a session file's type is detected.
SNIFF_BYTES: Final = 1024 * 1024
#: Bytes of a session's records kept in memory before they spill to a temporary file.
SPOOL_BYTES: Final = 8 * 1024 * 1024


def session_lines(
    parser: LoadedParser,
    path: Path,
    key: str | None = None,
    *,
    max_chars: int = MAX_LINE_CHARS,
) -> Iterator[str]:
    """The lines ``parser`` reads for the session at ``path`` (``key``: one of several in it).

    Raises :class:`OSError` when the file cannot be read and
    :class:`~linewise.plugins.guard.PluginCallError` when the plugin's ``session_records`` fails.
    """
    records = parser.session_records
    if records is None or parser.is_fallback:
        if key is not None:
            raise PluginCallError(
                PluginCallFailure(
                    parser.adapter_type, "session_records", "is missing, but a key was given"
                )
            )
        with open(path, "rb") as stream:
            yield from read_lines(stream, max_chars=max_chars)
        return
    try:
        produced = records(path, key) if key is not None else records(path)
    except PluginCallError:
        raise
    except Exception as error:  # the guard turned anything else into an Exception
        failure = PluginCallFailure(
            parser.adapter_type, "session_records", f"raised {describe(error)}"
        )
        raise PluginCallError(failure, error) from error
    yield from _guarded_items(parser.adapter_type, produced, max_chars)


def _guarded_items(adapter_type: str, produced: object, max_chars: int) -> Iterator[str]:
    call = "session_records"
    iterator = _iterate(adapter_type, produced)
    count = 0
    while True:
        try:
            item = next(iterator)
        except StopIteration:
            return
        except BaseException as error:  # plugin code runs inside next()
            if not is_plugin_failure(error) or isinstance(error, PluginCallError):
                raise
            reason = f"raised {describe(error)} after {count} lines"
            raise PluginCallError(PluginCallFailure(adapter_type, call, reason), error) from error
        if type(item) is not str:
            reason = f"yielded a {type(item).__name__}, not a str, after {count} lines"
            raise PluginCallError(PluginCallFailure(adapter_type, call, reason))
        count += 1
        # One over the bound, as linewise_contracts.sessions.record_lines gives it: the
        # safety net still sees the line is too long and cuts it with its marker.
        yield item if len(item) <= max_chars else item[: max_chars + 1]


def _iterate(adapter_type: str, produced: object) -> Iterator[object]:
    if isinstance(produced, str | bytes) or not isinstance(produced, Iterable):
        reason = f"returned a {type(produced).__name__}, not an iterable of lines"
        raise PluginCallError(PluginCallFailure(adapter_type, "session_records", reason))
    try:
        return iter(produced)
    except BaseException as error:  # a hostile __iter__
        if not is_plugin_failure(error):
            raise
        reason = f"returned something iter() refused: {describe(error)}"
        raise PluginCallError(
            PluginCallFailure(adapter_type, "session_records", reason), error
        ) from error


def records_stream(lines: Iterable[str], mask: Callable[[str], str] | None = None) -> IO[bytes]:
    """``lines`` as a seekable byte stream (one per line, UTF-8), at its start.

    ``mask`` (secret redaction) is applied to each line first. Memory is bounded:
    past :data:`SPOOL_BYTES` the stream spills to a temporary file.
    """
    import tempfile  # only when a session is read: not on every render's start

    stream = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES)  # noqa: SIM115 - returned
    try:
        for line in lines:
            text = mask(line) if mask is not None else line
            stream.write(text.encode("utf-8", "replace") + b"\n")
    except BaseException:
        stream.close()
        raise
    stream.seek(0)
    return stream


def sniffed_type(
    path: str | Path, registry: Registry, *, max_chars: int = MAX_LINE_CHARS
) -> Detection:
    """What the installed sniffers make of the first lines of the file at ``path``."""
    from linewise.settings.defaults import SNIFF_MAX_LINES
    from linewise.stream.detect import detect_adapter

    lines: list[str] = []
    with open(path, "rb") as file:
        # Bounded: a file with few line breaks (a database) is not read to its end.
        stream = io.BytesIO(file.read(SNIFF_BYTES))
        for line in read_lines(stream, max_chars=max_chars):
            lines.append(line)
            if len(lines) >= SNIFF_MAX_LINES:
                break
    return detect_adapter(lines, registry=registry)
