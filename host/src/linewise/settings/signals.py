"""The command's signals: a real Ctrl-C or SIGTERM noted apart from what plugin code raises.

While :func:`handling` is in effect (the ``linewise`` command installs it), a
SIGINT is noted and then raises ``KeyboardInterrupt`` as Python's own handler
does, and a SIGTERM or SIGHUP is noted and raises :class:`Terminated`, so that
every ``finally`` and ``with`` on the way out cleans up (temporary files,
worker pools) before the command exits 128 + the signal's number. Because
each real signal is noted, the plugin guard can tell a user's Ctrl-C (stop the
command) from a plugin that raises ``KeyboardInterrupt`` itself (that
plugin's failure): :func:`arrived`.

Inside :func:`held` a real signal is noted at once but its exception waits
until the code inside is done. The command's native modules that cannot
survive an exception in their initialisation (orjson) initialise so: the
signal's exception would otherwise surface inside Python code that their C
initialisation runs, which then uses a result it never checked (SIGSEGV).

:func:`time_budget` bounds a call into plugin code (a ``sniff``) with a timer
on the main thread: a plugin that loops gets :class:`OverBudget`, a failure
like any other it raises.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Iterator, Sequence
from types import FrameType, ModuleType
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec

__all__ = [
    "EXIT_TERMINATED_BASE",
    "OverBudget",
    "Terminated",
    "arrived",
    "handling",
    "held",
    "installed",
    "stop_behind",
    "time_budget",
]

#: A command stopped by signal N exits with this plus N (143 for SIGTERM), as shells report it.
EXIT_TERMINATED_BASE: Final = 128

_TERMINATING: Final = tuple(
    number
    for number in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None))
    if number is not None
)


class Terminated(BaseException):
    """SIGTERM or SIGHUP arrived: the command unwinds, cleaning up, and exits 128 + ``signum``."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(f"stopped by {signal.Signals(signum).name}")


class OverBudget(BaseException):
    """A call into plugin code ran past its time budget.

    Not an ``Exception``, so a plugin's ``except Exception`` does not swallow it.
    """


#: Native modules whose initialisation runs Python code and uses its results unchecked.
#: orjson's (3.13) imports uuid, enum, json, dataclasses and datetime: a KeyboardInterrupt
#: or Terminated raised in them by a signal handler leaves it a NULL module, which it reads
#: (``PyObject_GetAttrString(NULL, "UUID")``): the SIGSEGV of a render stopped at start-up.
_FRAGILE_NATIVE: Final = frozenset({"orjson.orjson"})


class _State:
    installed = False
    owner = 0  # the pid of the command's process: a forked child is not the command
    received: list[int] = []  # noqa: RUF012 - one list for the process, on purpose
    held = 0  # how many held() sections the main thread is in
    waiting: int | None = None  # a signal that arrived while held: raised when the hold ends


_state = _State()


def installed() -> bool:
    """True while :func:`handling` is in effect: real signals are noted."""
    return _state.installed


def arrived() -> bool:
    """True when a real SIGINT, SIGTERM or SIGHUP reached the command."""
    return bool(_state.received)


def _raise_for(signum: int) -> None:
    if signum in _TERMINATING:
        raise Terminated(signum)
    raise KeyboardInterrupt


def stop_behind(error: BaseException) -> KeyboardInterrupt | Terminated | None:
    """The ``KeyboardInterrupt`` or :class:`Terminated` of a real signal behind ``error``.

    ``error`` itself, or the exception it was raised from or while handling:
    Python 3.11 re-raises one that lands in a ``__set_name__`` (a dataclass
    being defined) as a ``RuntimeError``, and a library may wrap it in its own.
    None when no real signal arrived, or ``error`` does not come from one.
    """
    if not _state.received:
        return None
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, (KeyboardInterrupt, Terminated)):
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


def raise_swallowed() -> None:
    """Raise again the stop a real signal asked for, when something on the way swallowed it.

    A SIGTERM inside a plugin's run summary, say, is caught there as the plugin's
    failure; the command must still stop (and write no output it could not finish).
    """
    if _state.received:
        _raise_for(_state.received[-1])


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Let a real signal's exception wait until the code inside is done.

    The signal is noted when it arrives (:func:`arrived`); its
    ``KeyboardInterrupt`` or :class:`Terminated` is raised as the outermost
    hold ends, even when the code inside raised something else. For short
    code only: a Ctrl-C cannot stop what runs inside. On another thread it
    holds nothing: the handlers run, and raise, on the main thread alone.
    """
    if not _on_main_thread():
        yield
        return
    _state.held += 1
    try:
        yield
    finally:
        _state.held -= 1
        if not _state.held and _state.waiting is not None:
            signum, _state.waiting = _state.waiting, None
            _raise_for(signum)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    if os.getpid() != _state.owner:
        return  # a pool worker forked a moment ago: Ctrl-C is its parent's to handle
    _state.received.append(signum)
    if _state.held:
        _state.waiting = signum
        return
    raise KeyboardInterrupt


def _terminate(signum: int, frame: FrameType | None) -> None:
    if os.getpid() != _state.owner:
        os._exit(EXIT_TERMINATED_BASE + signum)  # a worker not yet set up: end it as SIGTERM would
    _state.received.append(signum)
    if _state.held:
        _state.waiting = signum
        return
    raise Terminated(signum)


class _HeldInitialisation:
    """A meta path finder: the fragile native modules are initialised :func:`held`.

    It answers for those few names only; every other import goes on to the
    usual finders, at the cost of one set look-up.
    """

    @staticmethod
    def find_spec(
        name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name not in _FRAGILE_NATIVE:
            return None
        # Imported here: importlib.machinery is needed only when such a module is.
        from importlib.machinery import ExtensionFileLoader, PathFinder

        spec = PathFinder.find_spec(name, path, target)
        if spec is None or type(spec.loader) is not ExtensionFileLoader:
            return None  # not the native module expected: the usual finders import it

        class HeldLoader(ExtensionFileLoader):
            def create_module(self, spec: ModuleSpec) -> ModuleType:
                with held():
                    return super().create_module(spec)

            def exec_module(self, module: ModuleType) -> None:
                with held():
                    super().exec_module(module)

        spec.loader = HeldLoader(spec.loader.name, spec.loader.path)
        return spec


_finder: Final = _HeldInitialisation()


def _on_main_thread() -> bool:
    # threading is not imported for it: a process that never imported it has one thread.
    threading = sys.modules.get("threading")
    return threading is None or threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def handling(*, exiting: bool = False) -> Iterator[None]:
    """Note real signals and turn them into exceptions for the time inside (main thread only).

    ``exiting``: the process exits right after, so the signals are then ignored
    instead of given back to their earlier handlers (there is nothing left to stop).
    """
    if not _on_main_thread() or _state.installed:
        yield
        return
    previous: dict[int, Any] = {signal.SIGINT: signal.signal(signal.SIGINT, _interrupt)}
    for number in _TERMINATING:
        previous[number] = signal.signal(number, _terminate)
    _state.installed = True
    _state.owner = os.getpid()
    sys.meta_path.insert(0, _finder)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, signal.SIG_IGN if exiting else handler)
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(_finder)
        _state.installed = False
        _state.received.clear()
        _state.waiting = None


@contextlib.contextmanager
def time_budget(seconds: float, what: str) -> Iterator[None]:
    """Raise :class:`OverBudget` in the code inside if it runs longer than ``seconds``.

    A timer (SIGALRM) on the main thread, where the command runs plugins; on
    other threads, or where there is no such timer, the code runs unbounded.
    """
    usable = _state.installed and hasattr(signal, "setitimer") and _on_main_thread()
    if not usable:
        yield
        return

    running = [True]

    def expire(signum: int, frame: FrameType | None) -> None:
        # Held: the timer's next tick, a tenth of a second on, raises it.
        if running[0] and not _state.held:
            raise OverBudget(f"{what} took longer than {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    # The timer fires again every tenth of a second: code that swallows the first one
    # (a bare except) is stopped by a later one.
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.1)
    try:
        yield
    finally:
        running[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
