"""The parser protocols a plugin implements, and the names the host looks up."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal, Protocol, TypeAlias, TypedDict, runtime_checkable

from linewise_contracts.entries import TranscriptEntry

__all__ = [
    "CHECK_ENVIRONMENT",
    "COMPACT_ROLES",
    "CREATE_STDOUT_PARSER",
    "ENTRY_POINT_GROUP",
    "FINISH",
    "FORMAT_ENTRIES",
    "FORMAT_STDOUT_LINE",
    "METADATA_NAMES",
    "PARSE_STDOUT_LINE",
    "RAW_LINES",
    "SESSION_KEYS",
    "SESSION_RECORDS",
    "SESSION_STORES",
    "SNIFF",
    "SUMMARIZE_RUN",
    "CompactLine",
    "CompactRole",
    "FormatEntries",
    "FormatStdoutLine",
    "ModelOption",
    "ParseStdoutLine",
    "StdoutParser",
    "StdoutParserFactory",
    "adapter_type_problem",
    "entry_point_value_problem",
]

#: The entry point group plugins register in; the entry point name is the adapter type.
ENTRY_POINT_GROUP: Final = "linewise.parsers"

#: Name of the static parser export: ``parse_stdout_line(line, ts) -> list[entry]``.
PARSE_STDOUT_LINE: Final = "parse_stdout_line"

#: Name of the stateful parser factory export: ``create_stdout_parser() -> StdoutParser``.
CREATE_STDOUT_PARSER: Final = "create_stdout_parser"

#: Optional members of a stateful parser: see :class:`StdoutParser`.
RAW_LINES: Final = "raw_lines"
FINISH: Final = "finish"

#: Optional metadata exports: a display label, model options and a routing doc.
METADATA_NAMES: Final = ("label", "models", "agent_configuration_doc")

#: Optional export: ``summarize_run(lines: Iterable[str]) -> RunSummary``.
SUMMARIZE_RUN: Final = "summarize_run"

#: Optional export: ``sniff(lines: Sequence[str]) -> float``, how sure (0 to 1) the
#: plugin is that its CLI wrote these first non-blank lines of a log; 0 when not.
SNIFF: Final = "sniff"

#: Optional export: ``check_environment(environ: Mapping[str, str] | None = None)
#: -> list[EnvironmentCheck]``, whether the agent CLI can run on this machine.
CHECK_ENVIRONMENT: Final = "check_environment"

#: Optional exports of session stores (contract 1.2; see :mod:`linewise_contracts.sessions`,
#: which documents them): ``session_stores(environ, home)``, ``session_records(path,
#: key=None)`` and ``session_keys(path)``.
SESSION_STORES: Final = "session_stores"
SESSION_RECORDS: Final = "session_records"
SESSION_KEYS: Final = "session_keys"

#: Optional export (contract 1.1): ``format_stdout_line(line: str) -> list[CompactLine]``,
#: the CLI's own one-line-per-event terminal format (the reference's
#: ``formatStdoutEvent``), used by the host's compact style when a plugin has one.
FORMAT_STDOUT_LINE: Final = "format_stdout_line"

#: Optional :class:`~linewise_contracts.agent.Format` field (contract 1.7):
#: ``format_entries(entries: Sequence[TranscriptEntry]) -> list[CompactLine]``, the
#: CLI's compact lines made from the entries one stdout line gave, which the host's
#: compact style prefers to :data:`FORMAT_STDOUT_LINE` (see :class:`FormatEntries`).
FORMAT_ENTRIES: Final = "format_entries"

#: How a compact line is coloured: the host maps each role to the reference colours
#: (lifecycle blue, assistant green, thinking grey, tool yellow, result cyan, error red).
CompactRole: TypeAlias = Literal[
    "lifecycle", "assistant", "thinking", "tool", "result", "error", "heading", "plain"
]
COMPACT_ROLES: Final[tuple[CompactRole, ...]] = (
    "lifecycle",
    "assistant",
    "thinking",
    "tool",
    "result",
    "error",
    "heading",
    "plain",
)
#: One compact line: ``(role, text)``; the text is one line of agent text, which
#: the host neutralises before it reaches a terminal.
CompactLine: TypeAlias = tuple[CompactRole, str]


# The grammars, read with string operations: the host checks every claim at
# start-up, where compiling these two patterns would cost more than the checks.
#   adapter type:       [a-z][a-z0-9]*(?:_[a-z0-9]+)*
#   entry point value:  \s*(D)\s*(?::\s*(D)\s*)?(?:\[[^\]]*\]\s*)?
#   where D, dotted:    [A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*
_MAX_ADAPTER_TYPE: Final = 64
_LOWER_DIGITS: Final = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
_IDENTIFIER_START: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_IDENTIFIER: Final = _IDENTIFIER_START | frozenset("0123456789")


def _is_snake_case(name: str) -> bool:
    parts = name.split("_")
    return (
        "a" <= name[:1] <= "z"
        and all(parts)  # no leading, trailing or doubled underscore
        and all(set(part) <= _LOWER_DIGITS for part in parts)
    )


def _dotted_end(text: str, start: int) -> int:
    """Where the dotted name at ``start`` ends; ``start`` when there is none."""
    end = start
    while end < len(text) and text[end] in _IDENTIFIER_START:
        end += 1
        while end < len(text) and text[end] in _IDENTIFIER:
            end += 1
        if not (end + 1 < len(text) and text[end] == "." and text[end + 1] in _IDENTIFIER_START):
            break
        end += 1
    return end


def _space_end(text: str, start: int) -> int:
    while start < len(text) and text[start].isspace():
        start += 1
    return start


def _is_entry_point_value(value: str) -> bool:
    at = _space_end(value, 0)
    end = _dotted_end(value, at)
    if end == at:
        return False
    at = _space_end(value, end)
    if value[at : at + 1] == ":":
        start = _space_end(value, at + 1)
        end = _dotted_end(value, start)
        if end == start:
            return False
        at = _space_end(value, end)
    if value[at : at + 1] == "[":
        close = value.find("]", at + 1)
        if close < 0:
            return False
        at = _space_end(value, close + 1)
    return at == len(value)


def adapter_type_problem(name: str) -> str | None:
    """Why ``name`` is not a valid adapter type (snake_case, at most 64 characters), or None."""
    if len(name) > _MAX_ADAPTER_TYPE:
        return f"adapter type is longer than {_MAX_ADAPTER_TYPE} characters"
    if not _is_snake_case(name):
        return f"adapter type {name!r} is not snake_case (lowercase letters, digits, underscores)"
    return None


def entry_point_value_problem(value: str) -> str | None:
    """Why ``value`` is not ``module`` or ``module:attr``, or None."""
    if _is_entry_point_value(value):
        return None
    return f"entry point value {value!r} is not 'module' or 'module:attribute'"


class ParseStdoutLine(Protocol):
    """A static parser: one stdout line in, the entries it stands for out.

    It must be deterministic (same ``(line, ts)``, same entries), free of side
    effects, and never raise: a line it cannot read becomes
    ``[{"kind": "stdout", "ts": ts, "text": line}]``.
    """

    def __call__(self, line: str, ts: str, /) -> list[TranscriptEntry]: ...


@runtime_checkable
class StdoutParser(Protocol):
    """A stateful parser for formats where one line's meaning depends on earlier lines.

    The host creates one instance per transcript and calls ``reset()`` after
    the parser raised, so the next line starts from a clean state.

    Two optional members change what the host does:

    - ``raw_lines = True`` (a class attribute): every line arrives exactly as
      the agent printed it, with its line ending, blank lines included, nothing
      trimmed. For formats where whitespace is content (a model's raw text).
    - ``finish(ts) -> list[entry]``: called once when the stream ends, to emit
      what the parser still holds (a block the stream cut off, say).
    """

    def parse_line(self, line: str, ts: str, /) -> list[TranscriptEntry]: ...

    def reset(self) -> None: ...


class StdoutParserFactory(Protocol):
    """``create_stdout_parser()``: returns a fresh :class:`StdoutParser`."""

    def __call__(self) -> StdoutParser: ...


class FormatStdoutLine(Protocol):
    """``format_stdout_line(line)``: one raw stdout line as compact lines.

    Pure and deterministic like a parser; ``[]`` means the line is not shown
    (a heartbeat, a streamed fragment repeated later); a line the formatter does
    not understand comes back as ``[("plain", line)]``.
    """

    def __call__(self, line: str, /) -> list[CompactLine]: ...


class FormatEntries(Protocol):
    """``format_entries(entries)`` (contract 1.7): one stdout line's entries as compact lines.

    ``entries`` are the validated entries the plugin's parser gave for one line
    (never empty, in the order given; copies, so changing them changes nothing
    shown). The host calls it only for a line its own parser read: a line cut
    for length, one the generic parser stood in for (the parser raised or its
    entries were refused), a line whose only entry is the raw stdout entry
    (``stdout_entries(line, ts)``) and a line of streamed fragments only
    (``delta: true``, which the host continues on one line across lines) are
    drawn by the host. Pure, deterministic and never raising like a parser;
    ``[]`` shows nothing for the line. A call that raises or
    returns something other than a list of ``(role, text)`` pairs is not
    believed: the host draws that line's entries itself.
    """

    def __call__(self, entries: Sequence[TranscriptEntry], /) -> list[CompactLine]: ...


class ModelOption(TypedDict):
    """One entry of a plugin's ``models`` metadata."""

    id: str
    label: str
