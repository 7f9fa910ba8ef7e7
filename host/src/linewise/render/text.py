"""The text format's default style: a coloured kind label, then the text with a hanging indent."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import IO, Any, Final, assert_never

from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.extract import to_json_text
from linewise_contracts.summary import RunSummary

from linewise.render import described
from linewise.render.clocks import RunClock
from linewise.render.layout import TextLayout
from linewise.render.nesting import Subagents
from linewise.render.outcome import (
    result_failed,
    result_label,
    result_usage,
    summary_failed,
    summary_outcome,
    summary_usage,
)
from linewise.render.pending import MAX_PENDING_CALLS, PendingCalls
from linewise.render.preview import tool_preview
from linewise.render.segments import Role, Segment

try:
    # Built in; hashlib would load OpenSSL first, 3.7 MiB more of resident memory.
    from _blake2 import blake2b
except ImportError:  # a Python built without it
    from hashlib import blake2b

__all__ = ["MAX_PENDING_CALLS", "TextRenderer"]

#: Errors the run's footer lists; the rest are counted (``linewise summarize --json``
#: lists them).
SUMMARY_ERRORS: Final = 10
_INPUT_PREVIEW: Final = 400
_LINK_PREVIEW: Final = 60
_FOLDED: Final = "⋯ (hidden; --thinking shows it)"
#: The colour of each contract 1.3 kind's heading (failures are red whatever the kind).
_DESCRIBED_ROLES: Final[dict[str, Role]] = {
    "provider_activity": "lifecycle",
    "workspace_change": "emphasis",
    "workspace_file_reference": "result",
    "runtime_request": "tool",
    "run_result": "assistant",
    "run_terminal": "lifecycle",
}
#: Nesting marker drawn once per subagent level.
_NEST: Final = "  │ "


def _lifecycle_marker(entry: Mapping[str, Any]) -> str:
    """An empty thinking item boundary (contract 1.3's ``lifecycle``) in words."""
    lifecycle = entry.get("lifecycle")
    return f"(reasoning {lifecycle})" if isinstance(lifecycle, str) else ""


def _digest(text: str) -> bytes:
    return blake2b(text.strip().encode("utf-8", "surrogatepass"), digest_size=16).digest()


def _diff_block(layout: TextLayout, entry: Mapping[str, Any]) -> None:
    change = entry["changeType"]
    role: dict[str, Role] = {
        "add": "assistant",
        "remove": "error",
        "hunk": "result",
        "file_header": "emphasis",
    }
    text = entry["text"]
    # Plugins usually keep the unified-diff marker in the text; add it only when missing.
    marker = {"add": "+", "remove": "-"}.get(change)
    if marker and not text.startswith(marker):
        text = f"{marker} {text}"
    layout.block("diff", role.get(change, "input"), layout.cut_lines(text))


def _described_block(layout: TextLayout, entry: Mapping[str, Any]) -> None:
    """A contract 1.3 entry: its heading, then its details (diffs and previews shortened)."""
    kind = entry["kind"]
    role: Role = "error" if described.is_failure(entry) else _DESCRIBED_ROLES.get(kind, "lifecycle")
    lines = [(layout.body(layout.cut_lines(described.heading(entry)), role),)]
    details = "\n".join(described.details(entry))
    if details:
        if kind in ("workspace_change", "workspace_file_reference"):
            details = layout.shorten_lines(details)
        else:
            details = layout.cut_lines(details)
        lines.append((layout.body(details),))
    layout.write_block((role, described.kind_label(kind)), lines)


class TextRenderer:
    """The default terminal style: one labelled block per entry, tool calls paired with results.

    Grouping while streaming. A tool call is drawn the moment it arrives and
    numbered ``#1``, ``#2``, ... A result is matched to its call by
    ``toolUseId`` only, never by position. A result drawn directly under its
    call is visibly that call's; when anything came in between its header links
    back: ``← #3 main.go``. Calls still unanswered at :meth:`close` are listed.
    Only unanswered calls are remembered (at most :data:`MAX_PENDING_CALLS`).

    Subagents: entries with a ``parentToolUseId`` are indented under a ``│``
    bar per level, after a line naming the call that started them
    (``⤷ #3 Explore: map the tests``); the call line itself names the subagent.

    Consecutive delta fragments of one kind continue one block. Thinking is
    folded unless ``thinking`` is set. What is drawn goes out as segments through
    the terminal writer, which neutralises all of it. Unless
    ``full`` is set, tool input, tool output, system and raw output lines longer
    than the terminal's width (``width``; :data:`~linewise.render.layout.DEFAULT_WIDTH`
    off a terminal)
    are cut with a note of what was hidden, and long outputs keep their first
    lines; prose (assistant, user, thinking) is left for the terminal to wrap.
    """

    def __init__(
        self,
        stream: IO[str],
        *,
        color: bool = False,
        full: bool = False,
        thinking: bool = False,
        width: int | None = None,
        file_ts: str | None = None,
    ) -> None:
        self._layout = TextLayout(stream, color=color, full=full, width=width)
        self._clock = RunClock(file_ts)  # file_ts: the time stamped on lines without their own
        self._out = self._layout.out
        self._full = full
        self._thinking = thinking
        # "assistant" / "thinking": a delta block still being written (no newline yet);
        # "folded": a thinking marker already drawn for the current run of thinking.
        self._open: str | None = None
        self._calls = PendingCalls()
        self._numbered = 0
        self._last_call: str | None = None  # id of a call drawn last, nothing after it
        self._subagents = Subagents()
        self._parent: str | None = None  # the parentToolUseId of the entry drawn last
        self._last_assistant: bytes | None = None

    def _end_open(self) -> None:
        if self._open in ("assistant", "thinking"):
            self._out.write("\n")
        self._open = None

    # -- nesting ---------------------------------------------------------------

    def _enter(self, entry: Mapping[str, Any]) -> None:
        """Indent for the entry's subagent, naming the subagent when it changes."""
        self._clock.add(entry.get("ts"))
        parent = entry.get("parentToolUseId")
        parent = parent if isinstance(parent, str) and parent else None
        if parent == self._parent:
            return
        self._end_open()
        self._parent = parent
        agent = self._subagents.parent(entry)
        if agent is None:
            self._out.prefix = ""
            return
        self._out.prefix = _NEST * agent.depth
        name = f"#{agent.number} {agent.label}" if agent.number else agent.label
        self._layout.write((("muted", f"⤷ {name}"),))
        self._out.prefix = _NEST * (agent.depth + 1)

    # -- entries ---------------------------------------------------------------

    def write(self, entry: TranscriptEntry) -> None:
        """Draw one entry (a delta fragment continues the block it belongs to)."""
        self._enter(entry)
        item: Mapping[str, Any] = entry
        after_call, self._last_call = self._last_call, None
        kind = entry["kind"]
        match kind:
            case "thinking" if not self._thinking:
                self._fold()
            case "assistant" | "thinking" if item.get("delta") is True:
                self._fragment(kind, item["text"])
            case "assistant":
                self._end_open()
                self._last_assistant = _digest(item["text"])
                self._layout.block("assistant", "assistant", item["text"], body_role="assistant")
            case "thinking":
                self._end_open()
                text = item["text"] or _lifecycle_marker(item)
                self._layout.block("thinking", "input", text, body_role="thinking")
            case "user":
                self._end_open()
                self._layout.block("user", "user", item["text"])
            case "init":
                self._end_open()
                self._write_init(item)
            case "system":
                self._end_open()
                self._layout.block(
                    "system", "lifecycle", self._layout.cut_lines(item["text"]), "lifecycle"
                )
            case "stderr":
                self._end_open()
                text = self._layout.cut_lines(item["text"].rstrip("\n"))
                self._layout.block("stderr", "error", text, body_role="error")
            case "stdout":
                self._end_open()
                self._layout.block("stdout", "input", self._layout.cut_lines(item["text"]))
            case "tool_call":
                self._end_open()
                self._write_tool_call(item)
            case "tool_result":
                self._end_open()
                self._write_tool_result(item, after_call)
            case "result":
                self._end_open()
                self._write_result(item)
            case "diff":
                self._end_open()
                _diff_block(self._layout, item)
            case (
                "provider_activity"
                | "workspace_change"
                | "workspace_file_reference"
                | "runtime_request"
                | "run_result"
                | "run_terminal"
            ):
                self._end_open()
                _described_block(self._layout, item)
            case _:
                assert_never(kind)

    def _fold(self) -> None:
        if self._open == "folded":
            return  # one marker for a whole run of thinking
        self._end_open()
        self._layout.write_block(("input", "thinking"), ((("thinking", _FOLDED),),))
        self._open = "folded"

    def _fragment(self, kind: str, text: str) -> None:
        role: Role = "assistant" if kind == "assistant" else "thinking"
        writer = self._layout.writer
        body = writer.segment(*self._layout.body(text, role))
        if self._open != kind:
            self._end_open()
            self._open = kind
            body = writer.label(("assistant" if kind == "assistant" else "input", kind)) + body
        self._out.write(body)

    def _write_init(self, entry: Mapping[str, Any]) -> None:
        model = entry["model"] or "not reported"
        text = f"model {model} · session {entry['sessionId'] or 'not reported'}"
        self._layout.block("init", "lifecycle", text, body_role="lifecycle")

    def _write_tool_call(self, entry: Mapping[str, Any]) -> None:
        self._numbered += 1
        number = self._numbered
        name: str = entry["name"]
        ident = entry.get("toolUseId")
        head: list[Segment] = [("tool_name", f"#{number} {name}")]
        agent = self._subagents.called(entry, number)
        if agent is not None:
            head.append(("tool", f"  subagent {agent.label}"))
        if ident:
            head.append(("muted", f"  [{ident}]"))
            preview = tool_preview(entry["input"], _LINK_PREVIEW)
            self._calls.remember(ident, number, name, preview.short() if preview else "")
        lines: list[Sequence[Segment]] = [head]
        if entry["input"] not in ({}, [], None, ""):
            arguments = to_json_text(entry["input"])  # compact: its size follows the input's
            if not self._full and len(arguments) > _INPUT_PREVIEW:
                arguments = arguments[:_INPUT_PREVIEW] + f"… ({len(arguments)} chars)"
            lines.append((self._layout.body(arguments, "input"),))
        self._layout.write_block(("tool", "tool_call"), lines)
        self._last_call = ident

    def _write_tool_result(self, entry: Mapping[str, Any], after_call: str | None) -> None:
        ident = entry["toolUseId"]
        call = self._calls.pop(ident)
        error = entry["isError"]
        role: Role = "error" if error else "result"
        name = entry.get("toolName") or (call.name if call else "")
        head = f"{'error' if error else 'ok'}{' · ' + name if name else ''}  [{ident}]"
        line: list[Segment] = [(role, head)]
        if call is not None and ident != after_call:
            link = f"  ← #{call.number} {call.preview}" if call.preview else f"  ← #{call.number}"
            line.append(("muted", link))
        lines: list[Sequence[Segment]] = [line]
        content = self._layout.shorten_lines(entry["content"].rstrip())
        if content:
            lines.append((self._layout.body(content, "error" if error else "plain"),))
        self._layout.write_block((role, "tool_result"), lines)

    def _write_result(self, entry: Mapping[str, Any]) -> None:
        failed = result_failed(entry)
        role: Role = "error" if failed else "assistant"
        head = f"{'failed' if failed else 'finished'} · {result_label(entry)}"
        parts = [self._layout.body(head, role), *_figures(self._layout, entry)]
        text: str = entry["text"]
        if text.strip():
            if self._last_assistant is not None and self._last_assistant == _digest(text):
                parts.append(
                    self._layout.body("final message: the assistant message above", "muted")
                )
            else:
                parts.append(self._layout.body(self._layout.shorten_lines(text)))
        parts.extend(self._layout.body(f"error: {message}", "error") for message in entry["errors"])
        self._layout.write_block((role, "result"), [(part,) for part in parts])

    def close(self, *, summary: RunSummary | None = None) -> None:
        """End an open block, list calls that never got a result, the run's summary; flush."""
        self._end_open()
        self._out.prefix = ""
        self._parent = None
        unanswered = self._calls.take_unanswered()
        if unanswered:
            self._layout.block("unanswered", "muted", unanswered, body_role="muted")
        if summary is not None:
            self._write_summary(summary)
        self._out.stream.flush()

    def _write_summary(self, summary: RunSummary) -> None:
        role: Role = "error" if summary_failed(summary) else "assistant"
        lines = _summary_lines(self._layout, summary, role, self._clock)
        self._layout.write_block((role, "run"), [(line,) for line in lines])


def _summary_lines(
    layout: TextLayout, summary: RunSummary, role: Role, clock: RunClock
) -> list[Segment]:
    """The run footer's lines: outcome, model, usage, when (from the events' own times), errors."""
    lines = [layout.body(summary_outcome(summary), role)]
    if summary.model:  # never invented: a model the run did not name is left out
        lines.append(layout.body(f"model {summary.model}", "lifecycle"))
    lines.append(layout.body(summary_usage(summary), "lifecycle"))
    when = clock.footer()
    if when is not None:
        lines.append(layout.body(when, "lifecycle"))
    shown = summary.errors[:SUMMARY_ERRORS]
    lines.extend(layout.body(f"error: {message}", "error") for message in shown)
    hidden = len(summary.errors) - len(shown)
    if hidden:
        plural = "s" if hidden != 1 else ""
        more = f"… {hidden:,} more error{plural} not shown"
        more += " (linewise summarize --json lists them)"
        lines.append(layout.body(more, "muted"))
    return lines


def _figures(layout: TextLayout, entry: Mapping[str, Any]) -> list[Segment]:
    """A result's own counts as a line; none when all are 0 (never "input 0")."""
    figures = result_usage(entry)
    return [layout.body(figures, "lifecycle")] if figures else []
