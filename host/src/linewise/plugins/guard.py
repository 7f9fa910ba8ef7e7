"""The plugin guard: every call into plugin code, anything but a real Ctrl-C recorded as a failure.

The registry imports plugins, looks up their exports and metadata, and hands
out the optional exports (``sniff``, ``summarize_run``, ``check_environment``,
``format_stdout_line``, ``format_entries``) and the parser factory only through this module, so a
plugin that raises ``SystemExit``, ``GeneratorExit``, an ``ImportError`` from a
module ``__getattr__`` or anything else never reaches the host's callers.

Which exceptions are the plugin's failure is one rule, :func:`is_plugin_failure`:
everything except a plain ``KeyboardInterrupt``, which is taken to be the user's
Ctrl-C and propagates. At import (:func:`is_import_failure`) a
``KeyboardInterrupt`` is a failure too: the import of a plugin is where a
plugin raising it on purpose would take the host down for every log, and a
real Ctrl-C cannot be told apart there; if the user did press Ctrl-C during
the (short) import, the failure's message says to run again. The per-line
parse path does not go through :func:`guarded` (a call per line would cost
too much); the session applies the same rule in its own net.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from typing import Any, Final, NoReturn, TypeVar

from linewise_contracts.protocols import COMPACT_ROLES, CompactLine

from linewise.settings.logs import logger
from linewise.settings.signals import OverBudget, Terminated, stop_behind, time_budget
from linewise.settings.signals import arrived as signals_arrived
from linewise.settings.signals import installed as signals_installed

__all__ = [
    "GuardedCall",
    "GuardedEntryFormatter",
    "GuardedFactory",
    "GuardedFormatter",
    "GuardedParser",
    "GuardedSniff",
    "PluginCallError",
    "PluginCallFailure",
    "PluginCallRecord",
    "compact_lines",
    "describe",
    "guarded",
    "is_import_failure",
    "is_plugin_failure",
    "lookup",
    "safe_repr",
    "sniff_score",
]


T = TypeVar("T")

#: How much of an exception's message a failure keeps.
MESSAGE_LIMIT: Final = 500
#: Seconds one ``sniff`` call may take: a looping sniffer must not hang every detection.
SNIFF_SECONDS: Final = 2.0
#: How many call failures a record keeps (the count goes on).
KEPT_FAILURES: Final = 100


def _real_signal(error: BaseException) -> bool:
    """True when ``error`` is what a real SIGINT or SIGTERM raised
    (:mod:`linewise.settings.signals`), or was raised from it (Python or the plugin
    re-raising it as another exception)."""
    kind = type(error)
    if (kind is KeyboardInterrupt or kind is Terminated) and signals_arrived():
        return True
    behind = stop_behind(error)
    return behind is not None and behind is not error


def is_plugin_failure(error: BaseException) -> bool:
    """Whether ``error``, raised by plugin code, is the plugin's failure (True) or a real
    Ctrl-C or SIGTERM that must propagate (False).

    Under the ``linewise`` command real signals are noted, so a plugin that
    raises ``KeyboardInterrupt`` itself is told apart: its failure. Without
    that (linewise used as a library), exactly ``KeyboardInterrupt`` (not a
    subclass) is taken to be the user's and propagates.
    """
    if type(error) is KeyboardInterrupt and not signals_installed():
        return False
    return not _real_signal(error)


def is_import_failure(error: BaseException) -> bool:
    """Whether ``error``, raised while importing a plugin, is the plugin's failure.

    Always, except a real Ctrl-C or SIGTERM noted by the command (which stops
    it): a ``KeyboardInterrupt`` a plugin raises at import must not stop every
    command, and without noted signals the two cannot be told apart.
    """
    return not _real_signal(error)


def describe(error: BaseException) -> str:
    """``Type: message`` (just ``Type`` when the message is empty), safe for any exception.

    An exception whose ``str()`` raises is described by its type alone; the
    message is cut to :data:`MESSAGE_LIMIT` characters.
    """
    name = type(error).__name__
    try:
        text = str(error)
    except BaseException as inner:  # a hostile __str__ is the plugin's failure
        if not is_plugin_failure(inner):
            raise
        text = "<message could not be shown>"
    if not isinstance(text, str):  # pragma: no cover - str() always returns a str
        text = ""
    if len(text) > MESSAGE_LIMIT:
        text = text[:MESSAGE_LIMIT] + "…"
    if isinstance(error, KeyboardInterrupt):
        text = (text + " " if text else "") + "(if you pressed Ctrl-C, run the command again)"
    return f"{name}: {text}" if text else name


def safe_repr(value: object) -> str:
    """``repr(value)`` cut to 80 characters; ``…`` when the repr raises."""
    try:
        text = repr(value)
    except BaseException as inner:  # a hostile __repr__ is the plugin's failure
        if not is_plugin_failure(inner):
            raise
        return "…"
    return text if len(text) <= 80 else text[:80] + "…"


class PluginCallFailure:
    """One call into a plugin that failed: which adapter type, which call, and why.

    Immutable, compared and hashed by its fields; a plain class with slots, as a
    frozen dataclass cost 3.5M instructions to build at every start-up.
    """

    __slots__ = ("adapter_type", "call", "reason")

    adapter_type: str
    call: str
    reason: str

    def __init__(self, adapter_type: str, call: str, reason: str) -> None:
        object.__setattr__(self, "adapter_type", adapter_type)
        object.__setattr__(self, "call", call)
        object.__setattr__(self, "reason", reason)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a PluginCallFailure is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a PluginCallFailure is immutable")

    def _values(self) -> tuple[str, str, str]:
        return (self.adapter_type, self.call, self.reason)

    def __eq__(self, other: object) -> bool:
        if type(other) is not PluginCallFailure:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        who, call, reason = self._values()
        return f"PluginCallFailure(adapter_type={who!r}, call={call!r}, reason={reason!r})"

    def __reduce__(self) -> tuple[type[PluginCallFailure], tuple[str, str, str]]:
        return (PluginCallFailure, self._values())  # pickled across the listing's processes

    def describe(self) -> str:
        """One line naming the plugin, the call and what went wrong."""
        return f"{self.adapter_type}: {self.call} {self.reason}"


class PluginCallError(Exception):
    """What a guarded call raises in place of a plugin's ``SystemExit``, ``GeneratorExit``
    or other non-``Exception``, so a caller's ``except Exception`` catches it.

    Its message is the original's ``Type: message``; ``error`` is the original.
    """

    def __init__(self, failure: PluginCallFailure, error: BaseException | None = None) -> None:
        self.failure = failure
        self.error = error
        super().__init__(describe(error) if error is not None else failure.reason)


def _reraise(adapter_type: str, call: str, error: BaseException) -> NoReturn:
    """Raise ``error`` if it is an ``Exception`` (every caller's net catches those), else a
    :class:`PluginCallError` standing in for it."""
    if isinstance(error, Exception):
        raise error
    failure = PluginCallFailure(adapter_type, call, f"raised {describe(error)}")
    raise PluginCallError(failure, error) from error


class PluginCallRecord:
    """The call failures of one registry's plugins: kept (bounded), logged once per call.

    ``on_failure`` (the hook relay) is told about each failure.
    """

    def __init__(self, on_failure: Callable[[PluginCallFailure], None] | None = None) -> None:
        self._lock = threading.Lock()
        self._kept: list[PluginCallFailure] = []
        self._logged: set[tuple[str, str]] = set()
        self._on_failure = on_failure
        self.count = 0

    def add(self, failure: PluginCallFailure) -> None:
        """Record ``failure``; the first of each (adapter type, call) is logged as a warning."""
        with self._lock:
            self.count += 1
            if len(self._kept) < KEPT_FAILURES:
                self._kept.append(failure)
            key = (failure.adapter_type, failure.call)
            first = key not in self._logged
            self._logged.add(key)
        if first:
            logger.warning("%s", failure.describe())
        if self._on_failure is not None:
            self._on_failure(failure)

    def of(self, adapter_type: str) -> list[PluginCallFailure]:
        """The kept failures of one adapter type, oldest first."""
        with self._lock:
            return [failure for failure in self._kept if failure.adapter_type == adapter_type]

    def forget(self, adapter_type: str | None = None) -> None:
        """Drop the failures of one adapter type, or all (when a plugin is reloaded)."""
        with self._lock:
            if adapter_type is None:
                self._kept.clear()
                self._logged.clear()
                return
            self._kept = [f for f in self._kept if f.adapter_type != adapter_type]
            self._logged = {key for key in self._logged if key[0] != adapter_type}


def guarded(function: Callable[..., T], *args: Any) -> tuple[T | None, BaseException | None]:
    """``function(*args)``: ``(result, None)``, or ``(None, error)`` when it failed.

    A real Ctrl-C (see :func:`is_plugin_failure`) propagates.
    """
    try:
        return function(*args), None
    except BaseException as error:  # the guard's whole purpose
        if not is_plugin_failure(error):
            raise
        return None, error


def lookup(target: object, name: str) -> tuple[object, str | None]:
    """``getattr(target, name)``: the value (None when absent) and what went wrong, if anything.

    An ``AttributeError`` means absent. Anything else (an ``ImportError`` from a
    module ``__getattr__`` that lazily imports, say) also counts as absent, with
    a reason: such a ``__getattr__`` must raise ``AttributeError`` for names it lacks.
    """
    try:
        return getattr(target, name), None
    except AttributeError:
        return None, None
    except BaseException as error:  # plugin code behind getattr
        if not is_plugin_failure(error):
            raise
        return None, f"looking up {name!r} raised {describe(error)}"


def sniff_score(value: object) -> tuple[float, str | None]:
    """A sniffer's result as a score from 0 to 1, and what was wrong with it (or None).

    A finite number is clamped to 0..1; anything else (NaN, an infinity, an
    integer too large for a float, a bool, a string) scores 0 and is a failure.
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0.0, f"returned a {type(value).__name__}, not a number from 0 to 1"
    score, error = guarded(float, value)
    if score is None:
        assert error is not None
        return 0.0, f"returned a number that is not a float ({describe(error)})"
    if not math.isfinite(score):
        return 0.0, f"returned {score!r}, not a number from 0 to 1"
    return min(max(score, 0.0), 1.0), None


def compact_lines(value: object) -> tuple[list[CompactLine] | None, str | None]:
    """A formatter's result checked: a list of ``(role, text)``, or None and what is wrong."""
    if type(value) is not list:
        return None, f"returned a {type(value).__name__}, not a list"
    lines: list[CompactLine] = []
    for index, item in enumerate(value):
        if not (
            type(item) in (tuple, list)
            and len(item) == 2
            and type(item[0]) is str
            and item[0] in COMPACT_ROLES
            and type(item[1]) is str
        ):
            return None, f"returned an invalid compact line at index {index}, not (role, text)"
        lines.append((item[0], item[1]))
    return lines, None


class _Guarded:
    """A plugin callable behind the guard; what a failure becomes is up to the subclass."""

    __slots__ = ("_call", "_function", "_record", "adapter_type")

    def __init__(
        self, adapter_type: str, call: str, function: Callable[..., Any], record: PluginCallRecord
    ) -> None:
        self.adapter_type = adapter_type
        self._call = call
        self._function = function
        self._record = record

    def _failure(self, reason: str) -> PluginCallFailure:
        failure = PluginCallFailure(self.adapter_type, self._call, reason)
        self._record.add(failure)
        return failure

    def __repr__(self) -> str:
        return f"<guarded {self._call} of {self.adapter_type}>"


class GuardedSniff(_Guarded):
    """A plugin's ``sniff``: never raises; a score from 0 to 1, or None when it failed.

    A finite number is clamped to 0..1. A failure (it raised, or returned NaN,
    an infinity, ``10**400``, a string...) is recorded and gives None: no
    score, so the plugin takes no part in that detection. The plugin gets its
    own copy of the lines, so one that mutates them blinds no other detector.
    Under the ``linewise`` command a call may take :data:`SNIFF_SECONDS`: one
    that loops is stopped and recorded as a failure.
    """

    __slots__ = ()

    def __call__(self, lines: Sequence[str]) -> float | None:
        try:
            with time_budget(SNIFF_SECONDS, self._call):
                result, error = guarded(self._function, list(lines))
        except OverBudget as late:  # it ran out as the call returned
            result, error = None, late
        if error is not None:
            self._failure(f"raised {describe(error)}")
            return None
        score, problem = sniff_score(result)
        if problem is not None:
            self._failure(problem)
            return None
        return score


class GuardedCall(_Guarded):
    """A plugin callable whose failure the caller reports: it raises only exceptions
    (what the plugin raised, or a :class:`PluginCallError` standing in for the rest)."""

    __slots__ = ()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return self._function(*args, **kwargs)
        except BaseException as error:  # the guard's whole purpose
            if not is_plugin_failure(error):
                raise
            _reraise(self.adapter_type, self._call, error)


class GuardedFormatter(_Guarded):
    """A plugin's ``format_stdout_line``: never raises; a failure or an invalid result shows
    the line as ``[("plain", line)]``, the contract's answer for a line it cannot read."""

    __slots__ = ()

    def __call__(self, line: str) -> list[CompactLine]:
        result, error = guarded(self._function, line)
        if error is not None:
            self._failure(f"raised {describe(error)}")
            return [("plain", line)]
        lines, problem = compact_lines(result)
        if lines is None:
            self._failure(problem or "returned an invalid result")
            return [("plain", line)]
        return lines


def _copied(value: Any) -> Any:
    """A copy of a validated entry or of a value in it (plain JSON: dicts, lists, scalars)."""
    kind = type(value)
    if kind is dict:
        return {key: _copied(item) for key, item in value.items()}
    if kind is list:
        return [_copied(item) for item in value]
    return value


class GuardedEntryFormatter(_Guarded):
    """A format's ``format_entries`` (contract 1.7): never raises; the compact lines it made
    of one line's entries, or None when it failed (recorded), so that the caller draws
    those entries itself.

    The plugin gets its own copies of the entries: one that changes them changes
    nothing the host draws, nor what it draws instead when the call fails.
    """

    __slots__ = ()

    def __call__(self, entries: Sequence[Any]) -> list[CompactLine] | None:
        result, error = guarded(self._function, [_copied(entry) for entry in entries])
        if error is not None:
            self._failure(f"raised {describe(error)}")
            return None
        lines, problem = compact_lines(result)
        if lines is None:
            self._failure(problem or "returned an invalid result")
        return lines


class GuardedParser:
    """A plugin's parser with its members looked up once, behind the guard.

    ``parse_line`` is the plugin's own method, called directly: the per-line
    path stays fast and the session's net (the same rule,
    :func:`is_plugin_failure`) catches what it raises. ``reset`` and ``finish``
    raise :class:`PluginCallError` for whatever the plugin raised.
    """

    __slots__ = ("finish", "parse_line", "parser", "raw_lines", "reset")

    def __init__(
        self,
        parser: object,
        parse_line: Callable[[str, str], Any],
        reset: Callable[[], None],
        finish: Callable[[str], Any] | None,
        raw_lines: bool,
    ) -> None:
        self.parser = parser
        self.parse_line = parse_line
        self.reset = reset
        self.finish = finish
        self.raw_lines = raw_lines


class GuardedFactory(_Guarded):
    """A parser factory: a fresh :class:`GuardedParser` per call.

    It raises only exceptions: what the factory raised, or a
    :class:`PluginCallError` (for a ``SystemExit``, say, or a parser whose
    members cannot be looked up). The caller reports them.
    """

    __slots__ = ()

    def create(self) -> object:
        """The plugin's own parser object (for shape checks)."""
        parser, error = guarded(self._function)
        if error is not None:
            _reraise(self.adapter_type, self._call, error)
        return parser

    def _refuse(self, reason: str) -> NoReturn:
        raise PluginCallError(PluginCallFailure(self.adapter_type, self._call, reason))

    def __call__(self) -> GuardedParser:
        parser = self.create()
        members: dict[str, object] = {}
        for name in ("parse_line", "reset", "finish", "raw_lines"):
            value, problem = lookup(parser, name)
            if problem is not None:
                self._refuse(f"gave a parser whose {problem}")
            members[name] = value
        parse_line, reset, finish = members["parse_line"], members["reset"], members["finish"]
        if not callable(parse_line) or not callable(reset):
            self._refuse("gave a parser without callable parse_line(line, ts) and reset()")
        who = self.adapter_type
        return GuardedParser(
            parser,
            parse_line,
            GuardedCall(who, "parser.reset()", reset, self._record),
            GuardedCall(who, "parser.finish()", finish, self._record) if callable(finish) else None,
            members["raw_lines"] is True,
        )
