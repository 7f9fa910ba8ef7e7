"""The host's side of an isolated parser: batches of lines out, results back, deaths survived."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Final

from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TOKEN_FIELDS, TokenUsage

from linewise.plugins.isolation._client import WorkerDied, WorkerProcess
from linewise.plugins.isolation._policy import IsolationPolicy

__all__ = ["IsolatedCall", "IsolatedParser", "WorkerError", "remote_error"]

_NAME_LIMIT: Final = 64
#: What ``finish`` may return counts as a line of this many characters (see _client).
_FINISH_SIZE: Final = 1 << 20
#: Workers replaced for one parser before the rest of its lines go to the generic parser:
#: a plugin that dies on every line would otherwise cost a new worker per line.
MAX_RESTARTS: Final = 5


class WorkerError(Exception):
    """An isolated parser's worker hung, crashed or broke the protocol on this line."""


class RemoteError(Exception):
    """An exception the plugin raised inside its worker (the subclass carries its name)."""


class _NotList:
    """Stands for a result that was not a list (the subclass carries its type's name)."""


_remote_types: dict[str, type[RemoteError]] = {}
_not_list_types: dict[str, type[_NotList]] = {}


def _safe_name(name: object) -> str:
    text = name if isinstance(name, str) else ""
    return text if text.isidentifier() and len(text) <= _NAME_LIMIT else "UnknownError"


def remote_error(name: object, message: object) -> RemoteError:
    """The plugin's exception as a host exception of the same class name."""
    safe = _safe_name(name)
    kind = _remote_types.get(safe)
    if kind is None:
        kind = _remote_types[safe] = type(safe, (RemoteError,), {})
    return kind(message if isinstance(message, str) else "")


def _not_list(name: object) -> _NotList:
    safe = _safe_name(name)
    kind = _not_list_types.get(safe)
    if kind is None:
        kind = _not_list_types[safe] = type(safe, (_NotList,), {})
    return kind()


def _line_result(item: object) -> Any:
    """One line's result as the safety net expects it: a list, an exception, or another value."""
    if type(item) is list:
        return item
    if type(item) is dict:
        if "error" in item:
            return remote_error(item.get("error"), item.get("message"))
        if "notList" in item:
            return _not_list(item.get("notList"))
    return _not_list("UnknownReply")


class IsolatedParser:
    """A parser running in a worker process, in the shape of a stateful parser.

    ``parse_batch(lines, ts)`` returns one item per line: the list the plugin
    returned, or the exception it raised (the worker has reset the parser
    already, as the safety net would). When the worker dies on a line, the
    lines before it in the batch are parsed again by a fresh worker, the line
    itself gets a :class:`WorkerError`, and the rest goes on: nothing is lost
    but the parser's state, which the error says. (The worker replies a few
    lines at a time; lines it parsed after its last reply are parsed again by
    the new worker, so the new parser has seen them.)
    """

    def __init__(self, value: str, policy: IsolationPolicy, *, raw_lines: bool) -> None:
        self._value = value
        self._policy = policy
        self._worker = WorkerProcess(value, policy)
        self.raw_lines = raw_lines
        self._broken: str | None = None
        #: How many times a worker was replaced (its parser's state lost).
        self.restarts = 0
        self._reported = 0

    def parse_batch(self, lines: Sequence[str], ts: str) -> Iterator[Any]:
        """One result per line, as the worker delivers them (see the class docstring)."""
        rest = list(lines)
        while rest:
            if self._worker.dead:
                self._replace()
            if self._broken is not None:
                yield from (WorkerError(self._broken) for _ in rest)
                return
            first = self._worker.next_line
            done = 0
            try:
                for reply in self._worker.parse(rest, ts):
                    done += 1
                    yield _line_result(reply)
                return
            except WorkerDied as died:
                reason = died.reason
                culprit = min(max(died.line - first, done), len(rest) - 1)
            self._replace()
            # Lines parsed after the worker's last reply lost their results: parse them again.
            yield from self.parse_batch(rest[done:culprit], ts)
            yield WorkerError(self._lost(reason))
            rest = rest[culprit + 1 :]

    def parse_line(self, line: str, ts: str) -> Any:
        """One line: the plugin's list, or what it raised, raised here."""
        [result] = list(self.parse_batch([line], ts))
        if isinstance(result, BaseException):
            raise result
        return result

    def reset(self) -> None:
        """Reset the parser in its worker (a dead worker is replaced, which resets it too)."""
        if self._worker.dead:
            self._replace()
            return
        try:
            self._worker.request({"op": "reset"})
        except WorkerDied:
            self._replace()

    def finish(self, ts: str) -> Any:
        """What the parser still holds at the end of the stream."""
        if self._worker.dead:
            self._replace()
        try:
            reply = self._worker.request({"op": "finish", "ts": ts}, size=_FINISH_SIZE)
        except WorkerDied as died:
            self._replace()
            raise WorkerError(self._lost(died.reason)) from None
        if "value" in reply:
            return reply["value"]
        result = _line_result(reply)
        if isinstance(result, BaseException):
            raise result
        return result

    def take_restarts(self) -> int:
        """Worker replacements since the last call (the safety net counts them)."""
        count, self._reported = self.restarts - self._reported, self.restarts
        return count

    @property
    def worker(self) -> WorkerProcess:
        """The worker process serving this parser now."""
        return self._worker

    def close(self) -> None:
        """Stop the worker."""
        self._worker.close()

    def _lost(self, reason: str) -> str:
        return f"{reason}; the worker was replaced and the parser's state before this line lost"

    def _replace(self) -> None:
        self._worker.close()
        if self._broken is not None:
            return
        if self.restarts >= MAX_RESTARTS:
            self._broken = (
                f"its worker was replaced {MAX_RESTARTS} times already and is not started "
                "again: the rest of the lines go through the generic parser"
            )
            return
        self.restarts += 1
        if self._broken is None:
            try:
                self._worker = WorkerProcess(self._value, self._policy)
            except WorkerDied as died:
                self._broken = f"its worker could not be started again: {died.reason}"

    def __del__(self) -> None:
        worker = getattr(self, "_worker", None)
        if worker is not None:
            worker.close()


class IsolatedCall:
    """One of a plugin's optional exports (``sniff``, ``summarize_run``, ``format_entries``)
    run in a worker.

    The worker is started on first use and replaced when it dies; a death or
    what the plugin raised comes back as an exception (the guard records it).
    """

    def __init__(self, name: str, service: Callable[[], WorkerProcess]) -> None:
        self._name = name
        self._service = service

    def __call__(self, *args: Any) -> Any:
        arguments = [
            list(arg) if isinstance(arg, Iterable) and not isinstance(arg, str) else arg
            for arg in args
        ]
        try:
            reply = self._service().request(
                {"op": "call", "name": self._name, "args": arguments},
                size=sum(_size(arg) for arg in arguments),
            )
        except WorkerDied as died:
            raise WorkerError(died.reason) from None
        if "error" in reply:
            raise remote_error(reply.get("error"), reply.get("message"))
        value = reply.get("value")
        return summary_from_json(value) if self._name == "summarize_run" else value


def summary_from_json(value: object) -> RunSummary:
    """A RunSummary from its JSON form (``RunSummary.to_json``); ValueError when it is not one."""
    if not isinstance(value, dict):
        raise ValueError("summarize_run did not return a summary")
    usage = value.get("usage") if isinstance(value.get("usage"), dict) else {}
    assert isinstance(usage, dict)
    # Numbers as the plugin gave them (a "12" stays a string, a NaN a NaN): the host's one
    # check of a summary (linewise.stream.stats) then refuses what it refuses in-process.
    errors = value.get("errors")
    details = value.get("details")
    return RunSummary(
        session_id=_text(value.get("sessionId")),
        model=_text(value.get("model")),
        usage=Usage(
            input_tokens=usage.get("inputTokens", 0),
            output_tokens=usage.get("outputTokens", 0),
            cached_tokens=usage.get("cachedTokens", 0),
        ),
        cost_usd=value.get("costUsd"),
        final_text=_text(value.get("finalText")),
        outcome=_text(value.get("outcome")),
        is_error=value.get("isError") is True,
        errors=tuple(e for e in errors if isinstance(e, str)) if isinstance(errors, list) else (),
        unknown_session=value.get("unknownSession") is True,
        turns=value.get("turns"),
        complete=value.get("complete") is True,
        details=details if isinstance(details, dict) else {},
        token_usage=_token_usage(value.get("tokenUsage")),
        model_usage=_model_usage(value.get("modelUsage")),
        cost_source=_text(value.get("costSource")),
    )


def _token_usage(value: object) -> TokenUsage:
    """The vocabulary's counts as the plugin gave them: TokenUsage refuses what is not a count
    (ValueError, as a summary that is not one), as in-process."""
    if value is None:
        return TokenUsage()
    if not isinstance(value, dict):
        raise ValueError("tokenUsage is not an object")
    try:
        return TokenUsage(**{name: value.get(key) for name, key in TOKEN_FIELDS})
    except TypeError as error:
        raise ValueError(str(error)) from None


def _model_usage(value: object) -> dict[str, TokenUsage]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError("modelUsage is not an object")
    return {str(model): _token_usage(usage) for model, usage in value.items()}


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _size(value: object) -> int:
    """Characters in an argument (a line, a list of lines, or of entries: their texts)."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, list):
        return sum(map(_item_size, value))
    return 0


def _item_size(item: object) -> int:
    """Characters in one item of a list argument: a line, or an entry's texts."""
    if isinstance(item, str):
        return len(item)
    if isinstance(item, dict):
        return sum(len(text) for text in item.values() if isinstance(text, str))
    return 0
