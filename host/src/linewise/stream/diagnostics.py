"""How a session's input was accounted for: line counts, fallbacks, drops, parser errors."""

from __future__ import annotations

from typing import Any, Final

__all__ = ["Diagnostics", "LineError", "preview"]

_KEPT_ERRORS: Final = 5
_KEPT_REASONS: Final = 50
#: Diagnostics' fields, in the order they are shown.
_COUNTS: Final = (
    "adapter_type",
    "fallback_reason",
    "lines",
    "blank_lines",
    "lines_with_entries",
    "lines_without_entries",
    "entries",
    "fallback_lines",
    "parser_errors",
    "first_errors",
    "dropped_entries",
    "drop_reasons",
    "truncated_lines",
    "truncated_chars",
    "parser_restarts",
    "stderr_chunks",
    "system_messages",
    "redactions",
)


class LineError:
    """A parser exception on one line (the line went through the generic parser).

    Immutable (read-only fields) and compared by its fields, as the frozen dataclass it
    was; a plain class, since building the dataclass cost about 4 M instructions at
    import.
    """

    __slots__ = ("_error_type", "_line_number", "_line_preview", "_message")

    def __init__(self, line_number: int, error_type: str, message: str, line_preview: str) -> None:
        self._line_number = line_number
        self._error_type = error_type
        self._message = message
        self._line_preview = line_preview

    @property
    def line_number(self) -> int:
        return self._line_number

    @property
    def error_type(self) -> str:
        return self._error_type

    @property
    def message(self) -> str:
        return self._message

    @property
    def line_preview(self) -> str:
        return self._line_preview

    def _values(self) -> tuple[int, str, str, str]:
        return (self._line_number, self._error_type, self._message, self._line_preview)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LineError):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return (
            f"LineError(line_number={self._line_number!r}, error_type={self._error_type!r}, "
            f"message={self._message!r}, line_preview={self._line_preview!r})"
        )

    def to_json(self) -> dict[str, Any]:
        """A JSON-compatible dict."""
        return {
            "lineNumber": self._line_number,
            "errorType": self._error_type,
            "message": self._message,
            "linePreview": self._line_preview,
        }


class Diagnostics:
    """How a session's input was accounted for.

    Every non-blank stdout line is counted in ``lines`` and ends up either in
    ``lines_with_entries`` or in ``lines_without_entries`` (the parser read it
    and chose to emit nothing), so ``accounted`` always holds.
    ``fallback_lines`` went through the generic parser because the plugin
    raised, returned something that is not a list, or returned no valid entry.

    A plain class (compared by its counts, as the dataclass it was): building the
    dataclass cost about 6 M instructions at import.
    """

    __slots__ = _COUNTS

    def __init__(self, adapter_type: str, fallback_reason: str | None = None) -> None:
        self.adapter_type = adapter_type
        self.fallback_reason = fallback_reason
        self.lines = 0
        self.blank_lines = 0
        self.lines_with_entries = 0
        self.lines_without_entries = 0
        self.entries = 0
        self.fallback_lines = 0
        self.parser_errors = 0
        self.first_errors: list[LineError] = []
        self.dropped_entries = 0
        self.drop_reasons: dict[str, int] = {}
        self.truncated_lines = 0
        self.truncated_chars = 0
        self.parser_restarts = 0
        self.stderr_chunks = 0
        self.system_messages = 0
        #: Secrets masked in what was written, by kind (``aws-access-key``, ``environment``).
        self.redactions: dict[str, int] = {}

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in _COUNTS)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Diagnostics):
            return NotImplemented
        return self._values() == other._values()

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass was

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in _COUNTS)
        return f"Diagnostics({shown})"

    @property
    def accounted(self) -> bool:
        """True when every line is either in ``lines_with_entries`` or ``lines_without_entries``."""
        return self.lines == self.lines_with_entries + self.lines_without_entries

    @property
    def clean(self) -> bool:
        """True when nothing fell back, was dropped or was cut."""
        return not (
            self.fallback_reason
            or self.fallback_lines
            or self.dropped_entries
            or self.truncated_lines
        )

    def drop(self, reason: str, count: int = 1) -> None:
        """Count ``count`` dropped entries and why (past 50 reasons, as "other reasons")."""
        self.dropped_entries += count
        reasons = self.drop_reasons
        if reason not in reasons and len(reasons) >= _KEPT_REASONS:
            reason = "other reasons"
        reasons[reason] = reasons.get(reason, 0) + count

    def parser_error(self, line_number: int, line: str, error: BaseException) -> None:
        """Count a parser exception; the first five are kept, with a preview of their line."""
        self.parser_errors += 1
        if len(self.first_errors) < _KEPT_ERRORS:
            self.first_errors.append(
                LineError(line_number, type(error).__name__, _message(error), preview(line))
            )

    def count_redactions(self, counts: dict[str, int]) -> None:
        """Add the secrets a redactor masked, by kind."""
        for kind, count in counts.items():
            self.redactions[kind] = self.redactions.get(kind, 0) + count

    def summary(self) -> str:
        """One human line: lines, entries, fallbacks, dropped, and what else happened."""
        parts = [
            _count(self.lines, "line"),
            _count(self.entries, "entry", "entries"),
            _count(self.fallback_lines, "fallback"),
            f"{self.dropped_entries} dropped",
        ]
        if self.lines_without_entries:
            parts.append(f"{self.lines_without_entries} without entries")
        if self.blank_lines:
            parts.append(f"{self.blank_lines} blank")
        if self.truncated_lines:
            parts.append(f"{self.truncated_lines} cut (too long)")
        if self.parser_errors:
            parts.append(_count(self.parser_errors, "parser error"))
        if self.redactions:
            kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(self.redactions.items()))
            parts.append(f"{_count(sum(self.redactions.values()), 'secret')} redacted ({kinds})")
        return f"{self.adapter_type}: " + ", ".join(parts)

    def to_json(self) -> dict[str, Any]:
        """A JSON-compatible dict (camelCase keys)."""
        return {
            "adapterType": self.adapter_type,
            "fallbackReason": self.fallback_reason,
            "lines": self.lines,
            "blankLines": self.blank_lines,
            "linesWithEntries": self.lines_with_entries,
            "linesWithoutEntries": self.lines_without_entries,
            "entries": self.entries,
            "fallbackLines": self.fallback_lines,
            "parserErrors": self.parser_errors,
            "firstErrors": [error.to_json() for error in self.first_errors],
            "droppedEntries": self.dropped_entries,
            "dropReasons": dict(self.drop_reasons),
            "truncatedLines": self.truncated_lines,
            "truncatedChars": self.truncated_chars,
            "parserRestarts": self.parser_restarts,
            "stderrChunks": self.stderr_chunks,
            "systemMessages": self.system_messages,
            "redactions": dict(self.redactions),
            "accounted": self.accounted,
        }


def _count(number: int, singular: str, plural: str | None = None) -> str:
    return f"{number} {singular if number == 1 else plural or singular + 's'}"


def _message(error: BaseException) -> str:
    try:
        return str(error)[:500]
    except Exception as problem:
        return f"(message unavailable: {type(problem).__name__})"


def preview(line: str, limit: int = 200) -> str:
    """``line`` shortened to ``limit`` characters for a message."""
    return line if len(line) <= limit else line[:limit] + "…"
