"""The run summary ``render`` ends with: the same outcome, tokens and cost ``summarize`` gives."""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from typing import IO

from linewise_contracts.summary import RunSummary

from linewise.cli.common import logger
from linewise.plugins.registry import Registry
from linewise.settings.defaults import SUMMARY_KEEP_BYTES
from linewise.stream.lines import read_lines
from linewise.transcript.fold import RunFold
from linewise.transcript.summary import plugin_summary

__all__ = ["KeptChunks", "run_summary"]


class KeptChunks:
    """Passes a pipe's chunks on and keeps them (up to ``limit`` bytes) to be read again.

    Past the limit what was kept is let go: :attr:`data` is then None, and the
    run summary is left out rather than holding an unbounded log in memory.
    """

    def __init__(self, chunks: Iterable[bytes], limit: int = SUMMARY_KEEP_BYTES) -> None:
        self._chunks = chunks
        self._limit = limit
        self._kept: list[bytes] | None = []
        self._size = 0

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self._chunks:
            if self._kept is not None:
                self._size += len(chunk)
                if self._size > self._limit:
                    self._kept = None
                else:
                    self._kept.append(chunk)
            yield chunk

    @property
    def data(self) -> IO[bytes] | None:
        """What was read, as a stream, or None when it was longer than the limit."""
        return None if self._kept is None else io.BytesIO(b"".join(self._kept))


def run_summary(
    registry: Registry,
    adapter_type: str,
    log: IO[bytes] | None,
    stats: RunFold,
    *,
    max_line_chars: int,
) -> RunSummary | None:
    """The plugin's ``summarize_run`` over ``log`` (read from its start): the one outcome
    every view of the run shows (``summarize`` included).

    None when the plugin has no ``summarize_run``, or ``log`` is None (a pipe
    longer than what is kept: said on stderr). A failing ``summarize_run`` is
    reported and the transcript's own summary stands in, as in ``summarize``. A cost
    the CLI did not report is estimated, as ``summarize`` estimates it.
    """
    from linewise.transcript.prices import priced

    if log is None:
        logger.warning(
            "no run summary: the input was longer than %d MB and cannot be read again",
            SUMMARY_KEEP_BYTES // (1024 * 1024),
        )
        return None
    parser = registry.load(adapter_type)
    if parser.summarize_run is None or parser.is_fallback:
        return None  # entries alone cannot tell how a run ended: no outcome is invented
    log.seek(0)
    summary, problem = plugin_summary(
        parser, read_lines(log, max_chars=max_line_chars), strict=registry.strict
    )
    if summary is None:
        logger.warning("%s; summarised from the transcript", problem)
        return priced(stats.to_summary())[0]
    return priced(stats.summary(summary))[0]
