"""The compact style: one line per event, from a plugin's own formatter or from the entries.

With a plugin formatter (a declared format's ``format_entries``, contract 1.7,
given the entries of each stdout line; else a 1.x plugin's ``format_stdout_line``,
the reference's per-CLI ``formatStdoutEvent``, given the raw line),
:class:`FormatterRenderer` prints the plugin's lines: the host never reads a
CLI's wire format. Without one, :class:`CompactRenderer` applies the same spirit to
entries: ``[session <id8> · <model>]``, ``[<Tool>] <argument>``, ``→ <first
line of the result>``, 120-character lines, ``--- Result ---``.

Every line is a ``(role, text)`` segment of raw text, neutralised and coloured
by role by the terminal writer (:mod:`linewise.render.terminal`). Entries from
a subagent get a prefix naming it (``⤷ Explore · ``). A failed result is
followed by ``[failed: <subtype>]`` in red, and a summary given to
:meth:`close` by one ``[run ...]`` line with its outcome, tokens and cost.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any, Final, TypeAlias, assert_never

from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.protocols import COMPACT_ROLES, CompactLine, CompactRole, FormatStdoutLine
from linewise_contracts.summary import RunSummary

from linewise.render import described
from linewise.render.nesting import Subagents
from linewise.render.outcome import (
    result_failed,
    result_label,
    summary_failed,
    summary_outcome,
    summary_usage,
)
from linewise.render.preview import subagent_kind, tool_preview
from linewise.render.segments import Segment
from linewise.render.terminal import TerminalWriter, first_line

__all__ = ["LIMIT", "CompactRenderer", "EntryFormatter", "FormatterRenderer", "fragments_only"]

#: A format's ``format_entries`` as the registry hands it out (behind the guard): the
#: compact lines for one line's entries, or None when the plugin's call failed.
EntryFormatter: TypeAlias = Callable[[Sequence[TranscriptEntry]], "list[CompactLine] | None"]

#: Longest command, description, query or summary line shown; longer ones end in ``…``.
LIMIT: Final = 120
# A plugin's lines for one input line may be at most this many characters per input
# character (plus a constant); more is a runaway formatter and its entries are shown instead.
_OUTPUT_FACTOR: Final = 16
_OUTPUT_SLACK: Final = 1 << 20


def _summary_line(text: str) -> str:
    return first_line(text, LIMIT)


_HEADER_KEY: Final = frozenset("abcdefghijklmnopqrstuvwxyz_")
_MAX_HEADER_LINES: Final = 12


def _header_key(line: str) -> bool:
    """True for a ``snake_case_key: value`` line, how plugins label a result's facts."""
    key, colon, _ = line.partition(":")
    return bool(colon) and bool(key) and len(key) <= 40 and set(key) <= _HEADER_KEY


def _output(content: str) -> str:
    """The tool's output: what follows a leading block of ``key: value`` facts, if any.

    Codex, OpenCode and other plugins put a command's facts (``command:``,
    ``status:``, ``exit_code:``) above its output, separated by a blank line;
    the compact line shows the output, as it does for Claude.
    """
    start = 0
    for _ in range(_MAX_HEADER_LINES):
        end = content.find("\n", start)
        if end == -1:
            return content
        line = content[start:end].rstrip("\r")
        if not line.strip():
            return content[end + 1 :] if start else content
        if not _header_key(line):
            return content
        start = end + 1
    return content


def _result_summary(content: str, is_error: bool) -> CompactLine:
    if is_error:
        line = _summary_line(_output(content)) or _summary_line(content)
        return ("error", f"→ error: {line}" if line else "→ error")
    if not content.strip():
        return ("result", "→ ok")
    line = _summary_line(_output(content))
    return ("result", f"→ {line}" if line else "→ ok")


def _described_line(entry: Mapping[str, Any]) -> CompactLine:
    """A contract 1.3 entry in one bracketed line: ``[run result: done · Finished]``."""
    kind = entry["kind"]
    label = entry["title"] if kind == "provider_activity" else described.kind_label(kind)
    role: CompactRole = "error" if described.is_failure(entry) else "lifecycle"
    if kind in ("run_result", "runtime_request"):
        role = "error" if role == "error" else "result"
    heading = described.heading(entry)
    if kind == "provider_activity":
        heading = heading.removeprefix(entry["title"] + " · ")
    return (role, f"[{_summary_line(label)}: {_summary_line(heading)}]")


def _session_line(session_id: object, model: object) -> CompactLine:
    ident = session_id[:8] if type(session_id) is str and session_id else "?"
    name = model if type(model) is str and model else "?"
    return ("lifecycle", f"[session {ident} · {name}]")


def tool_line(name: str, tool_input: object, *, marker: object = None) -> str:
    """``[<Tool>] <argument>``: the one tool-preview rule, in its short form.

    ``marker`` is the call's ``startsSubagent`` (contract 1.5), see
    :func:`linewise.render.preview.subagent_kind`.
    """
    shown = name or "tool"
    kind = subagent_kind(name, tool_input, marker=marker)
    label = f"[{shown}: {kind}]" if kind and kind != "subagent" else f"[{shown}]"
    preview = tool_preview(tool_input, LIMIT)
    return f"{label} {preview.short()}" if preview else label


class CompactRenderer:
    """The compact style drawn from entries: one line per entry.

    Consecutive delta fragments of one kind continue one line; thinking and
    user text are not shown; system entries are one bracketed line
    (``[Retrying API call...]`` for API retries); stderr is ``[stderr] <first
    line>``; raw stdout and diff lines are printed as they are.
    """

    def __init__(self, stream: IO[str], *, color: bool = False) -> None:
        self._stream = stream
        self._writer = TerminalWriter(color)
        self._open: str | None = None  # kind of the delta line still being written
        self._subagents = Subagents()
        self._calls = 0

    def _prefix(self, entry: Mapping[str, Any]) -> str:
        agent = self._subagents.parent(entry)
        return f"⤷ {agent.kind} · " if agent is not None else ""

    def _lines(self, lines: Sequence[Segment], prefix: str = "") -> None:
        self._end_fragment()
        self._stream.write(self._writer.lines(lines, prefix))

    def _end_fragment(self) -> None:
        if self._open is not None:
            self._stream.write("\n")
            self._open = None

    def write(self, entry: TranscriptEntry) -> None:
        """Draw one entry."""
        item: Mapping[str, Any] = entry
        prefix = self._prefix(item)
        kind = entry["kind"]
        match kind:
            case "thinking" | "user":
                return
            case "assistant" if item.get("delta") is True:
                if self._open != kind:
                    self._end_fragment()
                    self._open = kind
                    self._stream.write(self._writer.segment("muted", prefix))
                self._stream.write(self._writer.segment("assistant", item["text"]))
            case "assistant":
                if item["text"]:
                    self._lines([("assistant", item["text"])], prefix)
            case "init":
                self._lines([_session_line(item["sessionId"], item["model"])], prefix)
            case "tool_call":
                self._calls += 1
                self._subagents.called(item, self._calls)
                line = tool_line(item["name"], item["input"], marker=item.get("startsSubagent"))
                self._lines([("tool", line)], prefix)
            case "tool_result":
                self._lines([_result_summary(item["content"], item["isError"])], prefix)
            case "result":
                self._lines(self._result_lines(item), prefix)
            case "system":
                if item["text"].startswith("API retry"):
                    self._lines([("lifecycle", "[Retrying API call...]")], prefix)
                else:
                    self._lines([("lifecycle", f"[{_summary_line(item['text'])}]")], prefix)
            case "stderr":
                self._lines([("error", f"[stderr] {_summary_line(item['text'])}")], prefix)
            case "diff" | "stdout":
                self._lines([("plain", item["text"])], prefix)
            case (
                "provider_activity"
                | "workspace_change"
                | "workspace_file_reference"
                | "runtime_request"
                | "run_result"
                | "run_terminal"
            ):
                self._lines([_described_line(item)], prefix)
            case _:
                assert_never(kind)

    @staticmethod
    def _result_lines(entry: Mapping[str, Any]) -> list[CompactLine]:
        text: str = entry["text"]
        if not text and entry["isError"] and entry["errors"]:
            text = "error: " + entry["errors"][0]
        # `\n--- Result ---\n<text>\n`: an empty line, the heading, the text.
        failed = result_failed(entry)
        lines: list[CompactLine] = [
            ("plain", ""),
            ("error" if failed else "heading", "--- Result ---"),
            ("plain", text),
        ]
        if failed:
            lines.append(("error", f"[failed: {result_label(entry)}]"))
        return lines

    def close(self, *, summary: RunSummary | None = None) -> None:
        """End the last line, the run's summary line when given, and flush."""
        self._end_fragment()
        if summary is not None:
            role: CompactRole = "error" if summary_failed(summary) else "lifecycle"
            model = f" · {summary.model}" if summary.model else ""
            text = f"[run {summary_outcome(summary)}{model} · {summary_usage(summary)}]"
            self._lines([(role, text)])
        self._stream.flush()


class FormatterRenderer(CompactRenderer):
    """The compact style in the plugin's own lines: the CLI's compact format.

    The pipeline hands it every stdout line with the entries the session made
    of it (:meth:`write_line`). A format that gives ``format_entries``
    (contract 1.7) is handed those entries and nothing else, so the compact
    lines say what every other view says; a 1.x plugin's ``format_stdout_line``
    is handed the raw line (read for a format that gives only it). Entries that
    come from no whole line (stderr, system messages, lines cut for length, what
    the parser held at the end) go through :meth:`write` and the entry rules, as
    do the lines ``format_entries`` is never asked to draw: one whose only entry
    is the raw stdout entry (the generic parser stood in, or the plugin's own
    fallback), and one of streamed fragments only (``delta``), continued on one
    line.

    The plugin's lines are segments like any other, neutralised and coloured by
    role by the terminal writer; a formatter that raises, returns something that
    is not a list of ``(role, text)`` pairs, or returns far more text than its
    line held is not believed for that line: the line's entries are drawn
    instead, and counted in :attr:`formatter_failures`.
    """

    #: Tells the pipeline to hand over raw stdout lines.
    wants_lines = True

    def __init__(
        self,
        stream: IO[str],
        formatter: FormatStdoutLine | None = None,
        *,
        format_entries: EntryFormatter | None = None,
        color: bool = False,
    ) -> None:
        if formatter is None and format_entries is None:
            raise ValueError("a FormatterRenderer needs format_entries or formatter")
        super().__init__(stream, color=color)
        self._formatter = formatter
        self._format_entries = format_entries
        #: The plugin's lines are made from entries (``format_entries``): a line of
        #: fragments only is drawn from its entries, continued across lines.
        self.by_entries = format_entries is not None
        #: Lines the formatter could not format (their entries were drawn instead).
        self.formatter_failures = 0

    def write_line(self, line: str, entries: Sequence[TranscriptEntry]) -> None:
        """Draw one stdout line through the plugin's formatter."""
        if self._format_entries is not None:
            if not entries:
                return  # the entries are the truth: a line that gave none shows nothing
            if _host_drawn(line, entries):
                for entry in entries:
                    self.write(entry)
                return
        given: object = None
        try:  # the registry's formatters never raise; one given by other code might
            if self._format_entries is not None:
                given = self._format_entries(entries)
            elif self._formatter is not None:
                given = self._formatter(line)
        except Exception:  # plugin code: a failure falls back to the entries
            given = None
        lines = self._checked(line, given)
        if lines is None:
            self.formatter_failures += 1
            for entry in entries:
                self.write(entry)
            return
        prefix = ""
        failed: Mapping[str, Any] | None = None
        for entry in entries:
            item: Mapping[str, Any] = entry
            prefix = prefix or self._prefix(item)
            if item["kind"] == "tool_call":
                self._calls += 1
                self._subagents.called(item, self._calls)
            elif item["kind"] == "result" and result_failed(item):
                failed = item
        shown: list[Segment] = list(lines)
        if failed is not None:
            shown.append(("error", f"[failed: {result_label(failed)}]"))
        if shown:
            self._lines(shown, prefix)

    @staticmethod
    def _checked(line: str, lines: object) -> list[CompactLine] | None:
        """The formatter's lines when they are ``(role, text)`` pairs within the line's
        budget; None when they are not to be believed."""
        if type(lines) is not list:
            return None
        budget = _OUTPUT_FACTOR * len(line) + _OUTPUT_SLACK
        checked: list[CompactLine] = []
        for item in lines:
            if type(item) is not tuple or len(item) != 2:
                return None
            role, text = item
            if type(text) is not str or role not in COMPACT_ROLES:
                return None
            budget -= len(text)
            if budget < 0:
                return None
            checked.append((role, text))
        return checked


def _host_drawn(line: str, entries: Sequence[TranscriptEntry]) -> bool:
    """True for a line whose entries the host draws by its own rules, ``format_entries``
    not asked: the raw stdout entry of the whole line as its only entry (what the
    generic parser gives when it stands in for the plugin's, and what a plugin gives
    for a line it cannot read), or streamed fragments only (``delta``), which the host
    continues on one line across lines, as no formatter of one line's entries can."""
    if len(entries) == 1:
        item: Mapping[str, Any] = entries[0]
        if item["kind"] == "stdout" and item["text"] == line and len(item) == 3:
            return True
    return fragments_only(entries)


def fragments_only(entries: Sequence[TranscriptEntry]) -> bool:
    """True when every entry of a line is a streamed fragment (``delta``): drawn from its
    entries, continued across lines, by the host (and masked merged, see
    :mod:`linewise.render.redacting`)."""
    return all(entry.get("delta") is True for entry in entries)
