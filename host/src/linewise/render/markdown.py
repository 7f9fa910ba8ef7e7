"""The Markdown format: a transcript to paste into an issue, a pull request or a gist.

GitHub-flavoured and readable raw: a title and the run's header (outcome,
model, usage and cost, from the run summary every view reads), a heading per
turn (a user message, or the agent's next step after its tool results), prose
in block quotes, tool calls and results in fenced blocks with their language,
diffs as ``diff`` blocks, subagents nested one quote level deeper. Agent text
is untrusted: this module hands it raw to the Markdown writer
(:mod:`linewise.render.markdown_text`) in the form it is shown in (inline,
code, prose, a fence), which neutralises and escapes it once: prose has its
HTML and Markdown structure escaped, so it can neither inject HTML (GitHub
renders raw HTML in Markdown) nor open a block that swallows the rest; every
fence is longer than any run of backticks inside it. Nothing is printed as raw
JSON: tool inputs are shown as their command, path, edit or a list of fields.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Mapping
from typing import IO, Any, Final

from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.summary import RunSummary

from linewise.render import described
from linewise.render.markdown_text import (
    SHOWN_LINES,
    code,
    diff_fence,
    fence,
    inline,
    prose,
    shorten,
)
from linewise.render.nesting import Subagents
from linewise.render.outcome import (
    result_failed,
    result_label,
    result_usage,
    summary_failed,
    summary_outcome,
    summary_usage,
)

__all__ = ["SHOWN_LINES", "MarkdownRenderer", "fence", "inline", "prose"]

#: Errors listed in the header; the rest are counted.
HEADER_ERRORS: Final = 10
# The body waits in memory up to this size, then on disk, until the header is known.
_SPOOL: Final = 8 * 1024 * 1024

# A file's language for its fence, by extension.
_LANGUAGES: Final = {
    "py": "python",
    "js": "javascript",
    "mjs": "javascript",
    "cjs": "javascript",
    "ts": "typescript",
    "tsx": "tsx",
    "jsx": "jsx",
    "go": "go",
    "rs": "rust",
    "rb": "ruby",
    "java": "java",
    "kt": "kotlin",
    "c": "c",
    "h": "c",
    "cc": "cpp",
    "cpp": "cpp",
    "hpp": "cpp",
    "cs": "csharp",
    "swift": "swift",
    "php": "php",
    "sh": "bash",
    "bash": "bash",
    "zsh": "bash",
    "json": "json",
    "jsonl": "json",
    "yaml": "yaml",
    "yml": "yaml",
    "toml": "toml",
    "md": "markdown",
    "html": "html",
    "css": "css",
    "sql": "sql",
    "xml": "xml",
    "diff": "diff",
    "patch": "diff",
}
_COMMAND_KEYS: Final = ("command", "cmd")
_PATH_KEYS: Final = ("file_path", "filePath", "path", "notebook_path")


def _language(path: object) -> str:
    if not isinstance(path, str) or "." not in path.rsplit("/", 1)[-1]:
        return ""
    return _LANGUAGES.get(path.rsplit(".", 1)[-1].lower(), "")


class MarkdownRenderer:
    """Draws entries as GitHub-flavoured Markdown; the header is written once the run is known.

    ``full`` keeps long tool inputs and outputs whole (otherwise the first
    :data:`SHOWN_LINES` lines, and a note of what was left out); ``thinking``
    shows the agent's thinking (otherwise a one-line note per run of it).
    """

    def __init__(
        self,
        stream: IO[str],
        *,
        title: str = "transcript",
        full: bool = False,
        thinking: bool = False,
    ) -> None:
        self._stream = stream
        self._title = title
        self._full = full
        self._thinking = thinking
        self._body: IO[str] = tempfile.SpooledTemporaryFile(  # noqa: SIM115 - closed in close
            _SPOOL, mode="w+", encoding="utf-8", errors="surrogateescape", newline=""
        )
        self._turns = 0
        self._new_turn = True  # the next step of the main agent starts a turn
        self._calls = 0
        self._subagents = Subagents()
        self._parent: str | None = None
        self._open: str | None = None  # "assistant" / "thinking" delta text being gathered
        self._gathered: list[str] = []
        self._folded = False
        self._diff: list[tuple[str, str]] = []  # (marker, raw text) of each diff line
        self._depth = 0
        self._init: Mapping[str, Any] | None = None
        self._names: dict[str, str] = {}  # toolUseId -> tool name, for results

    # -- writing ---------------------------------------------------------------------

    def _lines(self, lines: Iterable[str]) -> None:
        """Write ``lines`` as one block at the current subagent depth, a blank line after."""
        quote = "> " * self._depth
        blank = quote.rstrip()
        write = self._body.write
        for line in lines:
            write(f"{quote}{line}".rstrip() + "\n" if line else blank + "\n")
        write(blank + "\n")

    def _quoted(self, label: str, text: str) -> None:
        self._lines([label, *(f"> {line}" if line else ">" for line in prose(text))])

    # -- entries ---------------------------------------------------------------------

    def write(self, entry: TranscriptEntry) -> None:
        """Draw one entry."""
        item: Mapping[str, Any] = entry
        kind = item["kind"]
        delta = item.get("delta") is True and kind in ("assistant", "thinking")
        if not delta or self._open != kind:
            self._end_open()
        if kind != "diff":
            self._end_diff()
        self._enter(item)
        if kind == "thinking" and not self._thinking:
            if not self._folded:
                self._lines(["*Thinking hidden (--thinking shows it).*"])
                self._folded = True
            return
        if kind not in ("thinking",):
            self._folded = False
        if delta:
            self._open = kind
            self._gathered.append(item["text"])
            return
        self._draw(item)

    def _draw(self, item: Mapping[str, Any]) -> None:
        kind = item["kind"]
        if self._parent is None:
            if kind in ("assistant", "thinking", "tool_call") and self._new_turn:
                self._turn()
            elif kind == "tool_result":
                self._new_turn = True
        if kind == "user":
            self._turn()
            self._quoted("**User**", item["text"])
        elif kind == "assistant":
            self._quoted("**Assistant**", item["text"])
        elif kind == "thinking":
            self._quoted("*Thinking*", item["text"])
        elif kind == "init":
            self._init = self._init or item
            model = item.get("model") or "not reported"
            session = item.get("sessionId") or "not reported"
            self._lines([f"*Session started:* model {code(model)}, session {code(session)}"])
        elif kind == "tool_call":
            self._tool_call(item)
        elif kind == "tool_result":
            self._tool_result(item)
        elif kind == "result":
            self._result(item)
        elif kind == "diff":
            self._diff.append(self._diff_line(item))
        elif kind in ("system", "stderr", "stdout"):
            label = {"system": "System", "stderr": "Stderr", "stdout": "Output"}[kind]
            text = item["text"].rstrip("\n")
            self._lines([f"**{label}**", *fence(text, "text", full=self._full)])
        else:
            self._described(item)

    def _turn(self) -> None:
        """A heading for the next turn: a user message, or the agent's next step after
        its tool results (a subagent's prompt is not a turn of the run)."""
        if self._parent is None:
            self._turns += 1
            self._new_turn = False
            self._lines([f"## Turn {self._turns}"])

    def _enter(self, item: Mapping[str, Any]) -> None:
        """Nest a subagent's entries one quote level deeper, naming it when it starts."""
        parent = item.get("parentToolUseId")
        parent = parent if isinstance(parent, str) and parent else None
        if parent == self._parent:
            return
        self._parent = parent
        agent = self._subagents.parent(item)
        if agent is None:
            self._depth = 0
            return
        self._depth = agent.depth
        name = f"#{agent.number} " if agent.number else ""
        self._lines([f"**{inline(name + agent.label)}**"])
        self._depth = agent.depth + 1

    def _end_open(self) -> None:
        if self._open is None:
            return
        kind, text = self._open, "".join(self._gathered)
        self._open, self._gathered = None, []
        self._draw({"kind": kind, "text": text})

    def _end_diff(self) -> None:
        if self._diff:
            lines, self._diff = self._diff, []
            self._lines(["**Diff**", *diff_fence(lines, self._full)])

    @staticmethod
    def _diff_line(item: Mapping[str, Any]) -> tuple[str, str]:
        marker = {"add": "+", "remove": "-", "context": " "}.get(item["changeType"], "")
        return (marker, item["text"])

    def _tool_call(self, item: Mapping[str, Any]) -> None:
        self._calls += 1
        name = item.get("name") or "tool"
        ident = item.get("toolUseId")
        if isinstance(ident, str):
            self._names[ident] = name
            if len(self._names) > 4096:
                self._names.pop(next(iter(self._names)))
        agent = self._subagents.called(item, self._calls)
        head = f"**Tool call #{self._calls}** {code(name)}"
        if agent is not None:
            head += f" starts {inline(agent.label)}"
        self._lines([head, *tool_input(name, item.get("input"), self._full)])

    def _tool_result(self, item: Mapping[str, Any]) -> None:
        ident = item["toolUseId"]
        name = item.get("toolName") or self._names.pop(ident, "")
        state = "error" if item["isError"] else "ok"
        head = f"**Result** ({state}{', ' + code(name) if name else ''})"
        content = item["content"].rstrip()
        self._lines([head, *fence(content, "text", full=self._full, omit_empty=True)])

    def _result(self, item: Mapping[str, Any]) -> None:
        failed = result_failed(item)
        head = f"**Result: {'failed' if failed else 'finished'}** ({inline(result_label(item))})"
        figures = result_usage(item)  # "" when the result reported no count (never "input 0")
        lines = [head, "", inline(figures)] if figures else [head]
        text = item["text"]
        if text.strip():
            lines += [
                "",
                *(f"> {line}" if line else ">" for line in prose(shorten(text, self._full))),
            ]
        lines += [f"- error: {inline(message)}" for message in item["errors"]]
        self._lines(lines)

    def _described(self, item: Mapping[str, Any]) -> None:
        """A contract 1.3 entry: its heading, then its details in a block."""
        kind = item["kind"]
        head = f"**{inline(described.kind_label(kind))}**: {inline(described.heading(item))}"
        details = "\n".join(described.details(item))
        language = "diff" if kind == "workspace_change" and "\n@@" in details else "text"
        body = fence(details, language, full=self._full) if details else []
        self._lines([head, *body])

    # -- the end ---------------------------------------------------------------------

    def close(self, *, summary: RunSummary | None = None) -> None:
        """Write the title and the run's header, then the transcript; flush."""
        self._end_open()
        self._end_diff()
        out = self._stream
        out.write(f"# {inline(self._title)}\n\n")
        for line in run_header(summary, self._init, self._calls):
            out.write(line + "\n")
        out.write("\n")
        body = self._body
        body.seek(0)
        while chunk := body.read(1 << 16):
            out.write(chunk)
        body.close()
        out.flush()


def _scalar(value: object) -> str:
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    return str(value)


def _plain(value: object) -> str:
    """A nested value on one line, as ``key=value`` pairs (not JSON)."""
    if isinstance(value, dict):
        return ", ".join(f"{key}={_plain(item)}" for key, item in value.items())
    if isinstance(value, list):
        return "[" + ", ".join(_plain(item) for item in value) + "]"
    return _scalar(value)


def run_header(summary: RunSummary | None, init: Mapping[str, Any] | None, calls: int) -> list[str]:
    """The run at a glance: a table of outcome, model, session, usage and cost."""
    rows: list[tuple[str, str]] = []
    if summary is not None:
        outcome = summary_outcome(summary)
        failed = summary_failed(summary)
        rows.append(("Outcome", f"**{inline(outcome)}**" if failed else inline(outcome)))
        if summary.model:
            rows.append(("Model", code(summary.model)))
        if summary.session_id:
            rows.append(("Session", code(summary.session_id)))
        rows.append(("Usage and cost", inline(summary_usage(summary))))
    elif init is not None:
        rows.append(("Model", code(init.get("model") or "not reported")))
    if summary is not None and summary.turns is not None:
        rows.append(("Turns (reported)", f"{summary.turns:,}"))
    rows.append(("Tool calls (in this transcript)", f"{calls:,}"))
    table = [f"| {key} | {value} |" for key, value in rows]
    lines = [table[0], "|---|---|", *table[1:]]
    if summary is not None and summary.errors:
        lines.append("")
        lines += [f"- error: {inline(error)}" for error in summary.errors[:HEADER_ERRORS]]
        hidden = len(summary.errors) - HEADER_ERRORS
        if hidden > 0:
            lines.append(f"- … {hidden:,} more errors (linewise summarize --json lists them)")
    return lines


def tool_input(name: str, value: Any, full: bool) -> list[str]:
    """A tool's input as a person reads it: its command, edit, file, or its fields."""
    if not isinstance(value, dict):
        return fence(str(value), "text", full=full) if value else []
    command = next((value[k] for k in _COMMAND_KEYS if isinstance(value.get(k), str)), None)
    path = next((value[k] for k in _PATH_KEYS if isinstance(value.get(k), str)), None)
    lines: list[str] = []
    rest = dict(value)
    if command is not None:
        lines += fence(command, "bash", full=full)
        for key in _COMMAND_KEYS:
            rest.pop(key, None)
    if path is not None:
        lines.append(f"- file: {code(path)}")
        for key in _PATH_KEYS:
            rest.pop(key, None)
    old, new = rest.get("old_string"), rest.get("new_string")
    if isinstance(old, str) and isinstance(new, str):
        edit = [f"-{line}" for line in old.split("\n")] + [f"+{line}" for line in new.split("\n")]
        lines += fence("\n".join(edit), "diff", full=full)
        rest.pop("old_string")
        rest.pop("new_string")
    for key in ("content", "patch", "input"):
        text = rest.get(key)
        if isinstance(text, str) and ("\n" in text or len(text) > 80):
            patch = key != "content" or text.startswith(("*** Begin Patch", "--- ", "diff "))
            language = "diff" if patch else _language(path)
            lines += fence(text, language, full=full)
            rest.pop(key)
    lines += _fields(rest, full)
    return lines


def _fields(value: Mapping[str, Any], full: bool, depth: int = 0) -> list[str]:
    """What is left of an input as a list: ``- **key**: value``, long values fenced."""
    lines: list[str] = []
    indent = "  " * depth
    for key, item in value.items():
        label = f"{indent}- {inline(str(key))}:"
        if isinstance(item, dict) and item and depth < 3:
            lines += [label, *_fields(item, full, depth + 1)]
        elif (
            isinstance(item, list)
            and item
            and depth < 3
            and all(isinstance(part, str | int | float | bool) for part in item)
        ):
            lines += [label, *(f"{indent}  - {code(str(part))}" for part in item[:SHOWN_LINES])]
            if len(item) > SHOWN_LINES and not full:
                lines.append(f"{indent}  - … {len(item) - SHOWN_LINES:,} more")
        elif isinstance(item, str) and ("\n" in item or len(item) > 120):
            lines += [label, "", *fence(item, "text", full=full)]
        elif isinstance(item, list | dict):
            text = _plain(item)
            lines.append(f"{label} {code(text if full else text[:400])}")
        else:
            lines.append(f"{label} {code(_scalar(item))}")
    return lines
