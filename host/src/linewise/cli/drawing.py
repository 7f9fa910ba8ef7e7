"""The drawing of ``render`` and ``run``: the renderer for their options, built once the
adapter is known, and the note on what detection chose."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

from linewise.cli.common import logger
from linewise.plugins.registry import get_registry
from linewise.settings.sanitising import neutralize

if TYPE_CHECKING:
    from linewise_contracts.entries import TranscriptEntry
    from linewise_contracts.summary import RunSummary

    from linewise.render import Renderer
    from linewise.stream.detect import Detection

__all__ = ["Drawing", "build_renderer", "drawing_for", "note_detection"]


def build_renderer(
    output: TextIO,
    *,
    format: str = "text",
    style: str = "default",
    adapter_type: str = "process",
    color: bool = False,
    full: bool = False,
    thinking: bool = False,
    title: str = "transcript",
    endpoint: str | None = None,
    file_ts: str | None = None,
) -> Renderer:
    """The renderer for a format and style, drawing on ``output`` (jsonl uses its buffer).

    The compact style draws with the plugin's own compact lines when the
    adapter's plugin gives them: a declared format's ``format_entries``
    (contract 1.7), made from each stdout line's entries, else a 1.x
    ``format_stdout_line``, made from the raw line (the pipeline hands it each
    stdout line with its entries); otherwise it applies the entry-based compact
    rules. One table for ``render`` and ``run``: :func:`linewise.render.create_renderer`.
    """
    from linewise.render import create_renderer

    formatter = format_entries = None
    if format == "text" and style == "compact":
        loaded = get_registry().load(adapter_type)
        format_entries = loaded.format_entries
        formatter = loaded.format_stdout_line if format_entries is None else None
    return create_renderer(
        output,
        format=format,
        style=style,
        color=color,
        full=full,
        thinking=thinking,
        title=title,
        formatter=formatter,
        format_entries=format_entries,
        adapter_type=adapter_type,
        endpoint=endpoint,
        file_ts=file_ts,
    )


class Drawing:
    """The renderer of a stream, chosen once its adapter type is known.

    A renderer that depends on the adapter (the compact style draws from a
    CLI's raw lines) is built when detection settles; entries that come first
    (a live run's early stderr) wait for it. Every other renderer is built at once.
    """

    def __init__(self, make: Callable[[str], Renderer], adapter_type: str) -> None:
        self._make = make
        self._early: list[TranscriptEntry] = []
        self.renderer: Renderer | None = None
        if adapter_type != "auto":
            self.detected(adapter_type)

    def detected(self, adapter_type: str) -> None:
        """The adapter type is known: build the renderer, draw what waited."""
        if self.renderer is not None:
            return
        self.renderer = self._make(adapter_type)
        early, self._early = self._early, []
        for entry in early:
            self.renderer.write(entry)

    def write(self, entry: TranscriptEntry) -> None:
        """Draw one entry (or keep it until the renderer exists)."""
        if self.renderer is None:
            self._early.append(entry)
        else:
            self.renderer.write(entry)

    def write_line(self, line: str, entries: Sequence[TranscriptEntry]) -> None:
        """Draw one stdout line: from the line itself when the renderer wants lines."""
        renderer = self.renderer
        if renderer is None:
            self._early.extend(entries)
        elif getattr(renderer, "wants_lines", False):
            renderer.write_line(line, entries)  # type: ignore[attr-defined]
        else:
            for entry in entries:
                renderer.write(entry)

    def close(self, summary: RunSummary | None = None) -> None:
        """Draw what is left and end the output, with the run's summary when known."""
        self.detected("process")
        assert self.renderer is not None
        if summary is None:
            self.renderer.close()
        else:
            self.renderer.close(summary=summary)


def drawing_for(
    args: argparse.Namespace, output: TextIO, *, title: str, adapter_type: str
) -> Drawing:
    """The drawing of ``render`` and ``run``: their shared options to :func:`build_renderer`.

    ``args.file_ts``: the time stamped on lines without their own (a file's), which the
    views tell apart from the events' own times; absent for ``run``.
    """
    from linewise.render import use_color

    color = args.format == "text" and use_color(output, args.color)

    def make(adapter: str) -> Renderer:
        renderer = build_renderer(
            output,
            format=args.format,
            style=args.style,
            adapter_type=adapter,
            color=color,
            full=args.full,
            thinking=args.thinking,
            title=title,
            endpoint=getattr(args, "otlp_endpoint", None),
            file_ts=getattr(args, "file_ts", None),
        )
        redactor = getattr(args, "redactor", None)
        if redactor is not None:
            from linewise.render.redacting import RedactingRenderer

            renderer = RedactingRenderer(renderer, redactor)
        if getattr(args, "censor_usernames", False):
            from linewise.render.privacy import CensoringRenderer

            return CensoringRenderer(renderer)
        return renderer

    # Only the compact style and ATIF (which names the agent) depend on the adapter; the
    # others draw from the start.
    waits = args.style == "compact" or args.format in ("atif", "otlp", "agent-trace")
    return Drawing(make, adapter_type if waits else "process")


def note_detection(detection: Detection, *, quiet: bool, source: str = "log") -> None:
    """Say on stderr what auto-detection chose, or warn that it chose nothing."""
    if detection.detected:
        if not quiet:
            sys.stderr.write(
                f"linewise: detected {detection.adapter_type}: {neutralize(detection.reason)}\n"
            )
    else:
        logger.warning(
            "could not detect the %s's format, using the generic parser: %s",
            source,
            detection.reason,
        )
