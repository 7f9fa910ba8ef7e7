"""Lines to an isolated parser in batches: one call for a chunk's lines, each result in turn.

An isolated parser (:class:`linewise.plugins.isolation._parser.IsolatedParser`, host
code) takes a chunk's lines at once and hands back one result per line as its
worker delivers them, so the host validates a line's entries while the worker
parses the next ones. The safety net's accounting is the same as line by line
(:meth:`linewise.stream.safety.SafetyNet.line`); the worker has already reset the
parser after a line that raised, so the net does not reset it again. The driver that
hands a chunk's lines here is :class:`linewise.stream.drivers.Batched`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Final

from linewise.stream.leftover import Leftover
from linewise.stream.lines import stripped

if TYPE_CHECKING:
    from linewise_contracts.entries import TranscriptEntry

    from linewise.plugins.loaded import LoadedParser
    from linewise.stream.safety import SafetyNet

__all__ = ["Batch", "batch_of", "parse_batched"]

#: ``parse_batch(lines, ts)``: one result per line (a list, or the exception raised).
Batch = Callable[[list[str], str], Iterator[Any]]

_BOM: Final = "\ufeff"


def batch_of(loaded: LoadedParser, parser: object) -> Batch | None:
    """The batch door of an isolated parser; None for any other parser.

    Only the host's own isolation is trusted with it: ``loaded.isolated`` is set
    by the host's loader alone (:mod:`linewise.plugins.isolation`), whose parsers
    are host code; a plugin's parser with a ``parse_batch`` attribute gets the
    ordinary per-line path.
    """
    if not loaded.isolated:
        return None
    batch = getattr(parser, "parse_batch", None)
    return batch if callable(batch) else None


def parse_batched(
    net: SafetyNet, pieces: list[str], ts: str, keep: Callable[[Leftover], None]
) -> list[tuple[str, list[TranscriptEntry]]]:
    """Each piece (as the parser saw it, ``\\n`` added for a raw-line parser) with its entries.

    A real Ctrl-C while a result is taken hands ``keep`` what it left (the entries
    made so far, the pieces not yet taken) before it goes on.
    """
    assert net.batch is not None
    raws = [piece + "\n" for piece in pieces] if net.raw else pieces
    prepared = [_prepare(net, raw) for raw in raws]
    limit = net.max_line
    sent = [line for line in prepared if line is not None and len(line) <= limit]
    results = net.batch(sent, ts) if sent else iter(())
    done: list[tuple[str, list[TranscriptEntry]]] = []
    diagnostics = net.diagnostics
    counted = False
    try:
        for raw, line in zip(raws, prepared, strict=True):
            entries: list[TranscriptEntry] = []
            # Counted as each result is taken, so an error names its own line, not the batch's last.
            if line is None:
                diagnostics.blank_lines += 1
            else:
                diagnostics.lines += 1
                counted = True
                if len(line) > limit:
                    entries.append(net.cut(line, ts))
                else:
                    net.accept(line, ts, next(results), entries, recover=False)
                counted = False
            done.append((raw, entries))
    except KeyboardInterrupt:
        if counted:  # the line being taken when Ctrl-C came is in the leftover
            diagnostics.lines -= 1
        handed = [entry for _, entries in done for entry in entries]
        keep(Leftover(handed, list(pieces[len(done) :])))
        raise
    take = getattr(net.parser, "take_restarts", None)
    if callable(take):
        net.diagnostics.parser_restarts += int(take())
    return done


def _prepare(net: SafetyNet, raw: str) -> str | None:
    """The line the parser gets, or None for a blank line (counted when its turn comes)."""
    if net.raw:
        line = raw
    else:
        line = raw.strip()
        if line and line[0] == _BOM:
            line = stripped(line)
    return line or None
