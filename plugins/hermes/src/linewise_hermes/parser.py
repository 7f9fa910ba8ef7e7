"""Hermes Agent CLI text output (``┊`` tool lines, boxes, footers) to TranscriptEntries."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from linewise_contracts.entries import (
    AssistantEntry,
    DiffChangeType,
    ThinkingEntry,
    TranscriptEntry,
)
from linewise_contracts.extract import strip_ansi

try:
    # Built in; hashlib would load OpenSSL first (3.7 MiB, a few ms) for this one digest.
    from _blake2 import blake2b as _blake2b
except ImportError:  # a Python built without it
    from hashlib import blake2b as _blake2b

__all__ = [
    "HermesStdoutParser",
    "ToolLine",
    "create_stdout_parser",
    "parse_stdout_line",
    "parse_tool_line",
]

#: The prefix of Hermes's tool and message lines (a skin may change it; this is the default).
TOOL_PREFIX: Final = "┊"
# Pending tool calls (a start line waiting for its completion line): bounded.
_PENDING_LIMIT: Final = 64

# Hermes verbs (the second column of a tool line) to the tool names the
# reference adapter shows; unknown verbs stay as they are.
_VERB_NAMES: Final = {
    "$": "shell",
    "terminal": "shell",
    "exec": "execute",
    "code": "execute",
    "execute": "execute",
    "execute_code": "execute",
    "search": "search",
    "grep": "search",
    "find": "search",
    "web_search": "search",
    "search_files": "search",
    "fetch": "fetch",
    "web_extract": "fetch",
    "crawl": "crawl",
    "navigate": "browser",
    "snapshot": "browser",
    "click": "browser",
    "type": "browser",
    "scroll": "browser",
    "back": "browser",
    "press": "browser",
    "close": "browser",
    "images": "browser",
    "vision": "browser",
    "read": "read",
    "read_file": "read",
    "write": "write",
    "write_file": "write_file",
    "patch": "patch",
    "patch_file": "patch",
    "plan": "plan",
    "todo": "todo",
    "recall": "recall",
    "session_search": "recall",
    "proc": "process",
    "delegate": "delegate",
    "memory": "memory",
    "clarify": "clarify",
}

# Decorations: a response box, a reasoning box, their closing borders, plain rules.
# Every pattern here runs on agent text: none may backtrack over a run of spaces
# (two adjacent \s*, or \s* before a literal in a search) or it turns quadratic.
_RESPONSE_BOX: Final = re.compile(r"^╭─+\s*(?:⚕\s*)?Hermes\b")
_REASONING_BOX: Final = re.compile(r"^┌─+\s*Reasoning\b")
_CLOSING_BORDER: Final = re.compile(r"[╰└]─*[╯┘]\s*$")
_RULE: Final = re.compile(r"^[─━═]+$")
# A parenthesised kaomoji face (with the odd arm outside) leading a spinner or tool line.
_FACE: Final = re.compile(r"^\S{0,2}\([^()]{1,20}\)\S{0,2}\s+")
# A spinner frame left behind (``💻 Completed``): one to three non-ASCII symbols.
_SPINNER_REMNANT: Final = re.compile(r"^[^\x00-\x7f\w\s]{1,3}\s*(?:Completed|Running|Error)?$")
_LOG_LINE: Final = re.compile(r"^\[\d{4}-\d{2}-\d{2}T")
# The CLI's own lines: session footer, resume notices, warnings about its setup.
# Footer labels are column-aligned, which keeps answer text like "Title: x" out.
_SYSTEM_LINE: Final = re.compile(
    r"^(?:session_id:\s*\S+$"
    r"|Session:\s{2,}\S+$"
    r"|Title:\s{2,}"
    r"|Duration:\s{2,}"
    r"|Messages:\s+\d+ \("
    r"|Resume this session with:$"
    r"|hermes\s+(?:--resume|-r)\s+\S+$"
    r"|hermes\s+(?:-c|--continue)(?:\s|$)"
    r"|↻\s*Resumed session\b"
    r"|Session\s+\S+\s+found but has no messages"
    r"|Session not found:"
    r"|Initializing agent\b"
    r"|Goodbye!"
    r"|Warning: (?:Unknown toolsets:|Input is not a terminal)"
    r"|paperclip_stop_reason:"
    r"|\(clarify timed out\b)"
)
_ERROR_LINE: Final = re.compile(r"^(?:Error:|ERROR:|Traceback\b|⚠\ufe0f?\s|❌)")
# The last line of a traceback: ``ValueError: ...``, ``requests.exceptions.HTTPError``.
_EXCEPTION: Final = re.compile(r"^[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning)\b")
_THINKING_LINE: Final = re.compile(r"^(?:💭|<thinking>|</thinking>|Thinking:|\[thinking\])")
# Hermes appends one failure marker; a few more are tolerated, a line of brackets is not.
_MAX_SUFFIXES: Final = 4


@dataclass(frozen=True, slots=True)
class ToolLine:
    """One Hermes tool line, taken apart.

    ``duration`` is empty on a start line (a call announced before it ran);
    ``problems`` are the bracketed failure markers Hermes appends after the
    duration (``exit 1``, ``error``, ``full``, a short error message).
    """

    name: str
    verb: str
    detail: str
    result: str
    duration: str
    problems: tuple[str, ...]


def _emoji(token: str) -> bool:
    # Emoji, arrows and their variation selectors: no ASCII and nothing alphanumeric.
    return all(ord(char) > 127 and not char.isalnum() for char in token)


def _seconds(token: str) -> bool:
    """``12s`` or ``0.4s``: a Hermes duration."""
    if not token.endswith("s"):
        return False
    whole, dot, fraction = token[:-1].partition(".")
    return whole.isdecimal() and (not dot or fraction.isdecimal())


def _without_total(text: str) -> str:
    """``text`` without a trailing ``(12.3s)`` total (and the spaces before it)."""
    if text.endswith(")"):
        start = text.rfind("(")
        if start >= 0 and _seconds(text[start + 1 : -1]):
            return text[:start].rstrip()
    return text


def _trailing_suffix(text: str) -> tuple[str, str] | None:
    """``(rest, problem)`` when ``text`` ends with a ``[problem]`` holding no brackets."""
    if not text.endswith("]"):
        return None
    start = text.rfind("[")
    if start < 0 or "]" in text[start + 1 : -1]:
        return None
    return text[:start].rstrip(), text[start + 1 : -1].strip()


def _trailing_duration(text: str) -> tuple[str, str] | None:
    """``(rest, duration)`` when ``text`` ends with whitespace and a duration."""
    parts = text.rsplit(None, 1)
    if len(parts) < 2 or not text.endswith(parts[1]) or not _seconds(parts[1]):
        return None  # trailing whitespace after the duration is not Hermes's layout
    return text[: -len(parts[1]) - 1], parts[1]


def parse_tool_line(body: str) -> ToolLine | None:
    """Read ``{emoji} {verb} {detail}[ — {result}]  {duration}[ [problem]][ ({total})]``.

    ``body`` is the text after the ``┊`` prefix. Hermes pads the verb to nine
    columns and separates the duration by two spaces; neither is relied on.
    None when nothing is left once the emoji is gone. Linear in the line: the
    trailing parts are taken off with string methods, not searched for.
    """
    text = _FACE.sub("", body.strip(), count=1)
    if text.startswith("[done]"):
        text = text[6:].lstrip()
    rest = _without_total(text)
    problems: list[str] = []
    while len(problems) < _MAX_SUFFIXES and (suffix := _trailing_suffix(rest)) is not None:
        rest, problem = suffix
        problems.insert(0, problem)
    duration = _trailing_duration(rest)
    if duration is None:
        rest, problems = text, []  # a start line: brackets belong to the detail
    else:
        rest = duration[0]
    words = rest.split(None, 1)
    if words and _emoji(words[0]):
        words = words[1].split(None, 1) if len(words) > 1 else []
    if not words:
        return None
    verb = words[0]
    detail = words[1].strip() if len(words) > 1 else ""
    result = ""
    if " — " in f" {detail} ":
        head, _, tail = f" {detail} ".partition(" — ")
        detail, result = head.strip(), tail.strip()
    return ToolLine(
        name=_VERB_NAMES.get(verb.lower(), verb),
        verb=verb,
        detail=detail,
        result=result,
        duration=duration[1] if duration else "",
        problems=tuple(problems),
    )


def _tool_body(text: str) -> str | None:
    """The text after ``┊`` (and an optional ``[done]`` before it), or None for other lines."""
    if text.startswith("[done]"):
        text = text[6:].lstrip()
    if not text.startswith(TOOL_PREFIX):
        return None
    return text[len(TOOL_PREFIX) :].strip()


def _call(tool: ToolLine, ident: str, ts: str) -> TranscriptEntry:
    return {
        "kind": "tool_call",
        "ts": ts,
        "name": tool.name,
        "input": {"detail": tool.detail},
        "toolUseId": ident,
    }


def _result(tool: ToolLine, ident: str, ts: str) -> TranscriptEntry:
    # The result card shows what Hermes reports of the outcome: the result text of
    # a ``— result`` line, the duration, and any failure markers.
    content = "  ".join(part for part in (tool.result, tool.duration) if part)
    if tool.problems:
        content += " " + " ".join(f"[{problem}]" for problem in tool.problems)
    return {
        "kind": "tool_result",
        "ts": ts,
        "toolUseId": ident,
        "toolName": tool.name,
        "content": content,
        "isError": bool(tool.problems),
    }


Block = Literal["assistant", "thinking"]


def _text(kind: Block, ts: str, text: str, *, delta: bool) -> TranscriptEntry:
    if kind == "thinking":
        thinking: ThinkingEntry = {"kind": "thinking", "ts": ts, "text": text}
        if delta:
            thinking["delta"] = True
        return thinking
    assistant: AssistantEntry = {"kind": "assistant", "ts": ts, "text": text}
    if delta:
        assistant["delta"] = True
    return assistant


class HermesStdoutParser:
    """The Hermes parser; stateful unless made with ``stateless=True``.

    Hermes prints text, not events. The stateful parser knows what the
    previous lines opened: a response box (its lines are the answer), a
    reasoning box (its lines are thinking), a ``┊ 💬`` message (the plain
    lines after it continue it), an inline diff after ``┊ review diff``
    (coloured ``+``/``-``/``@@`` lines), and tool calls announced by a start
    line that a later completion line finishes. Answer and thinking lines are
    deltas joined by newlines, so the host merges a multi-line answer into one
    entry. Tool call ids count up per parser: ``hermes-tool-1``, ``-2`` ...

    The stateless form (:func:`parse_stdout_line`) reads each line alone, as
    the reference does: no deltas, and ids derived from the line itself.
    """

    __slots__ = (
        "_box",
        "_continues",
        "_counter",
        "_diff",
        "_last",
        "_pending",
        "_stateless",
        "_traceback",
    )

    def __init__(self, *, stateless: bool = False) -> None:
        self._stateless = stateless
        self._counter = 0
        self.reset()

    def reset(self) -> None:
        self._counter = 0
        self._box: Block | None = None
        self._diff = False
        # Inside a Python traceback: its frame lines are stderr too, up to the exception.
        self._traceback = False
        # The kind plain lines continue (after a ``┊ 💬`` message or an answer line).
        self._continues: Block | None = None
        # Kind of the last delta produced, when nothing else came after it.
        self._last: Block | None = None
        # Announced calls waiting for their completion line: (id, name).
        self._pending: list[tuple[str, str]] = []

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        text = strip_ansi(line)
        if "\r" in text:
            # A terminal line redrawn in place (a spinner): what shows is the last draw.
            text = next((part for part in reversed(text.split("\r")) if part.strip()), "")
        text = text.strip()
        if not text:
            return []
        if self._diff:
            entry = self._diff_entry(line, text, ts)
            if entry is not None:
                return [entry]
            self._diff = False
        entries = self._classify(text, ts)
        if entries:
            kind = entries[-1]["kind"]
            if kind not in ("assistant", "thinking") or not entries[-1].get("delta"):
                self._last = None
                if kind != "thinking":
                    self._continues = None
        return entries

    # -- one line ------------------------------------------------------------------

    def _classify(self, text: str, ts: str) -> list[TranscriptEntry]:
        in_traceback, self._traceback = self._traceback, False
        if text.startswith(("[hermes]", "[paperclip]")):
            return [{"kind": "system", "ts": ts, "text": text}]
        if text.startswith("[tool]"):
            # Non-TTY spinner start; the ``[done] ┊ ...`` line that follows says it all.
            return []
        if _LOG_LINE.match(text):
            return [{"kind": "stderr", "ts": ts, "text": text}]
        body = _tool_body(text)
        if body is not None:
            return self._tool_prefixed(body, ts)
        if _RESPONSE_BOX.match(text) or _REASONING_BOX.match(text):
            # Borders give no entry, so ``_last`` stays: the host still joins the
            # deltas on either side, and they need their newline.
            self._box = "assistant" if text.startswith("╭") else "thinking"
            self._continues = None
            return []
        if _CLOSING_BORDER.match(text) or _RULE.match(text):
            self._box = self._continues = None
            return []
        if _SPINNER_REMNANT.match(text):
            return []
        if _SYSTEM_LINE.match(text):
            return [{"kind": "system", "ts": ts, "text": text}]
        if text.startswith("Query:"):
            return [{"kind": "user", "ts": ts, "text": text[6:].strip()}]
        if _ERROR_LINE.match(text):
            self._traceback = not self._stateless and text.startswith("Traceback")
            return [{"kind": "stderr", "ts": ts, "text": text}]
        if in_traceback:
            self._traceback = _EXCEPTION.match(text) is None
            return [{"kind": "stderr", "ts": ts, "text": text}]
        if _THINKING_LINE.match(text):
            thought = re.sub(r"^(?:💭|\[thinking\])\s*", "", text)
            return self._block("thinking", thought, ts, continues=False)
        return self._plain(text, ts)

    def _plain(self, text: str, ts: str) -> list[TranscriptEntry]:
        closed = _CLOSING_BORDER.search(text)
        if closed is not None:
            # A closing border glued to the box's last line: decoration, not text.
            text = text[: closed.start()].rstrip()
        if text.startswith("│"):
            # A boxed line: ``│ text │``.
            text = text[1:].strip()
            if text.endswith("│"):
                text = text[:-1].rstrip()
        kind: Block = self._box or self._continues or "assistant"
        entries = self._block(kind, text, ts, continues=True) if text else []
        if closed is not None:
            self._box = self._continues = None
        return entries

    def _block(self, kind: Block, text: str, ts: str, *, continues: bool) -> list[TranscriptEntry]:
        if self._stateless:
            return [_text(kind, ts, text, delta=False)]
        if self._last == kind:
            text = "\n" + text
        self._last = kind
        self._continues = kind if continues or self._continues == kind else None
        return [_text(kind, ts, text, delta=True)]

    # -- ┊ lines ---------------------------------------------------------------------

    def _tool_prefixed(self, body: str, ts: str) -> list[TranscriptEntry]:
        if body.startswith("[done]"):
            body = body[6:].lstrip()
        if body.startswith("💬"):
            message = body[1:].strip()
            self._continues = None
            return self._block("thinking", message, ts, continues=True)
        if body == "review diff":
            self._diff = not self._stateless
            self._last = self._continues = None
            return []
        tool = parse_tool_line(body)
        if tool is None:
            return []
        if not tool.duration:
            return [self._start(tool, ts)]
        return self._finish(tool, ts)

    def _new_id(self, tool: ToolLine) -> str:
        if self._stateless:
            digest = _blake2b(repr(tool).encode(), digest_size=6).hexdigest()
            return f"hermes-tool-{digest}"
        self._counter += 1
        return f"hermes-tool-{self._counter}"

    def _start(self, tool: ToolLine, ts: str) -> TranscriptEntry:
        ident = self._new_id(tool)
        if not self._stateless:
            self._pending.append((ident, tool.name))
            del self._pending[:-_PENDING_LIMIT]
        return _call(tool, ident, ts)

    def _finish(self, tool: ToolLine, ts: str) -> list[TranscriptEntry]:
        if self._pending:
            # Completes an announced call: the one of the same tool, else the oldest.
            index = next((i for i, (_, n) in enumerate(self._pending) if n == tool.name), 0)
            ident, _ = self._pending.pop(index)
            return [_result(tool, ident, ts)]
        ident = self._new_id(tool)
        return [_call(tool, ident, ts), _result(tool, ident, ts)]

    # -- inline diffs ------------------------------------------------------------------

    def _diff_entry(self, line: str, text: str, ts: str) -> TranscriptEntry | None:
        """A line of the coloured diff after ``┊ review diff``, or None when it has ended."""
        if not line.lstrip().startswith(("\x1b[", "\x9b")):
            return None  # Hermes colours every diff line; plain text is what comes next
        bare = strip_ansi(line.strip())
        change: DiffChangeType
        if bare.startswith("@@"):
            change = "hunk"
        elif bare.startswith("+"):
            change = "add"
        elif bare.startswith("-"):
            change = "remove"
        elif bare.startswith("…") and "omitted" in bare:
            change = "truncation"
        elif " → " in bare and not bare.startswith(" "):
            change = "file_header"
        elif bare.startswith(" "):
            change = "context"
        else:
            return None
        return {"kind": "diff", "ts": ts, "changeType": change, "text": bare.rstrip()}


def parse_stdout_line(line: str, ts: str) -> list[TranscriptEntry]:
    """One Hermes stdout line to entries, read alone (prefer :func:`create_stdout_parser`)."""
    return HermesStdoutParser(stateless=True).parse_line(line, ts)


def create_stdout_parser() -> HermesStdoutParser:
    """A fresh stateful Hermes parser for one transcript."""
    return HermesStdoutParser()
