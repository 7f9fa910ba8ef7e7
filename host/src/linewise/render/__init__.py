"""Renderers: draw entries as text, compact lines, JSON lines or an HTML page.

A renderer knows how to draw an entry; entries know nothing of terminals or
pages. :func:`create_renderer` is the one table from (format, style) to
renderer, used by ``linewise render`` and ``linewise run`` alike.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from linewise_contracts.protocols import FormatStdoutLine

    from linewise.render.colours import COLOURS, STATUS_ROLES, paint, use_color
    from linewise.render.compact import CompactRenderer, EntryFormatter, FormatterRenderer
    from linewise.render.jsonl import JsonlRenderer, entry_json
    from linewise.render.protocols import LineRenderer, Renderer
    from linewise.render.text import TextRenderer

__all__ = [
    "COLOURS",
    "FORMATS",
    "STATUS_ROLES",
    "STYLES",
    "CompactRenderer",
    "FormatterRenderer",
    "JsonlRenderer",
    "LineRenderer",
    "Renderer",
    "TextRenderer",
    "create_renderer",
    "entry_json",
    "paint",
    "use_color",
]

# Each renderer module is imported on first use: `linewise render -f jsonl`
# does not pay for the text and compact renderers, nor `linewise list` for any.
_EXPORTS = {
    "COLOURS": "colours",
    "STATUS_ROLES": "colours",
    "paint": "colours",
    "use_color": "colours",
    "CompactRenderer": "compact",
    "FormatterRenderer": "compact",
    "JsonlRenderer": "jsonl",
    "entry_json": "jsonl",
    "LineRenderer": "protocols",
    "Renderer": "protocols",
    "TextRenderer": "text",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'linewise.render' has no attribute {name!r}")
    value = getattr(import_module(f"linewise.render.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


#: The output formats and, for text, its styles.
FORMATS = ("text", "jsonl", "html", "markdown", "atif", "otlp", "agent-trace")
STYLES = ("default", "compact")


def create_renderer(
    output: TextIO,
    *,
    format: str = "text",
    style: str = "default",
    color: bool = False,
    full: bool = False,
    thinking: bool = False,
    title: str = "transcript",
    formatter: FormatStdoutLine | None = None,
    format_entries: EntryFormatter | None = None,
    adapter_type: str = "process",
    endpoint: str | None = None,
    file_ts: str | None = None,
) -> Renderer:
    """The renderer for ``format`` and ``style``, drawing on ``output``.

    ``jsonl`` writes bytes to ``output.buffer``. ``html`` and ``markdown`` ignore the style.
    ``compact`` with a plugin's ``format_entries`` (a declared format's, contract
    1.7: the compact lines of one line's entries) or ``formatter`` (its 1.x
    ``format_stdout_line``, read only without ``format_entries``) returns a
    :class:`LineRenderer` printing the plugin's own lines (feed it lines through
    the pipeline); without either, the entry-based compact rules.
    ``atif`` writes one ATIF trajectory naming ``adapter_type`` as its agent;
    ``otlp`` its OpenTelemetry spans as OTLP JSON (and sends them to ``endpoint``);
    ``agent-trace`` one Agent Trace record of the files its agent wrote.
    ``file_ts``: the time the host stamped on lines without their own (a file's
    modification time); ``html`` and ``text`` mark it as the file's, never the event's.
    Raises ValueError for an unknown format or style.
    """
    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r}: choose one of {', '.join(FORMATS)}")
    if style not in STYLES:
        raise ValueError(f"unknown style {style!r}: choose one of {', '.join(STYLES)}")
    if format == "jsonl":
        from linewise.render.jsonl import JsonlRenderer

        return JsonlRenderer(output.buffer)
    if format == "html":
        from linewise.render.html import HtmlRenderer  # its page assets load on first use

        return HtmlRenderer(output, title=title, file_ts=file_ts)
    if format == "agent-trace":
        from linewise.render.agent_trace import AgentTraceRenderer

        return AgentTraceRenderer(output, title=title, adapter_type=adapter_type)
    if format == "otlp":
        from linewise.render.otlp import OtlpRenderer  # the OpenTelemetry SDK, lazily

        return OtlpRenderer(output, title=title, adapter_type=adapter_type, endpoint=endpoint)
    if format == "atif":
        from linewise.render.atif import AtifRenderer

        return AtifRenderer(output, title=title, adapter_type=adapter_type)
    if format == "markdown":
        from linewise.render.markdown import MarkdownRenderer

        return MarkdownRenderer(output, title=title, full=full, thinking=thinking)
    if style == "compact":
        from linewise.render.compact import CompactRenderer, FormatterRenderer

        if format_entries is not None:
            return FormatterRenderer(output, format_entries=format_entries, color=color)
        if formatter is not None:
            return FormatterRenderer(output, formatter, color=color)
        return CompactRenderer(output, color=color)
    from linewise.render.text import TextRenderer

    return TextRenderer(output, color=color, full=full, thinking=thinking, file_ts=file_ts)
