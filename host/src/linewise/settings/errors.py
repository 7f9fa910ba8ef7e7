"""Exceptions the host raises where a caller made a mistake or asked for strictness."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from linewise.plugins.failed_load import FailedLoad

__all__ = [
    "AgentStartError",
    "AmbiguousSessionError",
    "JavaScriptLoadError",
    "LinewiseError",
    "ParserLineError",
    "PluginLoadError",
    "SessionNotFoundError",
    "UnknownAdapterError",
]


class LinewiseError(Exception):
    """Base class of every linewise exception."""


class UnknownAdapterError(LinewiseError, LookupError):
    """No installed parser plugin, and no built-in parser, has this adapter type.

    The host raises it with ``message`` from :func:`linewise.plugins.suggest.unknown_adapter`,
    which suggests a close installed name ("did you mean"), or, for a first-party
    adapter type that is not installed, the distribution to install; without
    ``message`` it names the adapter type and the installed ones.
    """

    def __init__(self, adapter_type: str, known: list[str], message: str | None = None) -> None:
        self.adapter_type = adapter_type
        self.known = known
        if message is None:
            listing = ", ".join(known) if known else "none"
            message = f"unknown adapter type {adapter_type!r}; installed: {listing}."
        super().__init__(message)


class PluginLoadError(LinewiseError):
    """A plugin failed to load while ``LINEWISE_STRICT=1`` asked for exceptions."""

    def __init__(self, failure: FailedLoad) -> None:
        self.failure = failure
        super().__init__(failure.describe())


class ParserLineError(LinewiseError):
    """A parser raised on a line while ``LINEWISE_STRICT=1`` asked for exceptions."""

    def __init__(
        self, adapter_type: str, line_number: int, line: str, error: BaseException
    ) -> None:
        self.adapter_type = adapter_type
        self.line_number = line_number
        self.line = line
        self.error = error
        preview = line if len(line) <= 120 else line[:120] + "…"
        super().__init__(
            f"{adapter_type} parser raised {type(error).__name__}: {error} "
            f"on line {line_number}: {preview!r}"
        )


class JavaScriptLoadError(LinewiseError):
    """A registered JavaScript parser cannot load (its copies changed, it imports, it throws...).

    The registry records it as a failed load at ``stage`` with ``reason`` and ``hint``.
    """

    def __init__(self, stage: Literal["import", "exports"], reason: str, hint: str) -> None:
        self.stage: Literal["import", "exports"] = stage
        self.reason = reason
        self.hint = hint
        super().__init__(f"{reason}. {hint}")


class AgentStartError(LinewiseError):
    """The agent CLI could not be started; ``exit_code`` is what a shell would return."""

    def __init__(self, command: str, reason: str, exit_code: int) -> None:
        self.command = command
        self.reason = reason
        self.exit_code = exit_code
        super().__init__(f"{reason}: {command}")


class SessionNotFoundError(LinewiseError, LookupError):
    """No session on this machine has this id (or id prefix), and no file has this path."""

    def __init__(self, reference: str, searched: int) -> None:
        self.reference = reference
        self.searched = searched
        where = f"among the {searched} sessions found" if searched else "(no sessions found)"
        super().__init__(
            f"no file and no session {reference!r} {where}; "
            "`linewise sessions` lists them, with their ids"
        )


class AmbiguousSessionError(LinewiseError, LookupError):
    """An id prefix matches several sessions; ``candidates`` lists them (session ids and paths)."""

    #: How many candidates the message names.
    SHOWN = 10

    def __init__(self, reference: str, candidates: list[tuple[str, str]]) -> None:
        self.reference = reference
        self.candidates = candidates
        shown = "; ".join(f"{sid} ({path})" for sid, path in candidates[: self.SHOWN])
        more = len(candidates) - self.SHOWN
        tail = f"; and {more} more" if more > 0 else ""
        super().__init__(
            f"{reference!r} matches {len(candidates)} sessions: {shown}{tail}; "
            "give more of the id, or the file's path"
        )
