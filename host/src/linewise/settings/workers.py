"""Pools of worker processes that never outlive linewise (export, ``render -j``).

A worker is tied to its parent as it starts (:func:`tie_to_parent`): on Linux
the kernel kills it when the parent dies (``PR_SET_PDEATHSIG``), elsewhere a
watchdog thread sees the parent gone within half a second and exits. Ctrl-C
is the parent's to handle: a worker ignores it, and the parent stops the pool.
:func:`worker_pool` kills the pool's workers at once when the parent leaves it
by an exception (Ctrl-C, SIGTERM, a failure), instead of waiting for their work.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Final

from linewise.settings.signals import held

__all__ = ["WATCHDOG_INTERVAL", "tie_to_parent", "worker_pool"]

#: Seconds between a watchdog's looks at its parent.
WATCHDOG_INTERVAL: Final = 0.5
_PR_SET_PDEATHSIG: Final = 1


def _parent_death_signal() -> bool:
    """Ask Linux to SIGKILL this process when its parent dies; True when it agreed."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    while True:
        if os.getppid() != parent:
            os._exit(1)
        time.sleep(WATCHDOG_INTERVAL)


def tie_to_parent(parent: int) -> None:
    """In a new worker: die with ``parent`` (its pid), leave Ctrl-C to it, SIGTERM ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A forked worker inherits the parent's handlers (SIGTERM raising an exception).
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None:
            signal.signal(number, signal.SIG_DFL)
    _parent_death_signal()
    # The parent may have died before the kernel was asked; and where the kernel does
    # not offer it, or the forking thread ends before the parent, the watchdog stands in.
    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), name="linewise-watchdog", daemon=True).start()


def _start(
    parent: int, initializer: Callable[..., None] | None, arguments: tuple[Any, ...]
) -> None:
    tie_to_parent(parent)
    if initializer is not None:
        initializer(*arguments)


class _Pool(ProcessPoolExecutor):
    """A ProcessPoolExecutor whose submissions (which fork the workers) hold signals.

    A Ctrl-C that lands while ``os.fork`` runs its after-fork callbacks (logging's
    lock release, say) would raise inside one of them, where Python can only print
    "Exception ignored" and a traceback, and the stop would be lost. Held, it is
    raised once the submission is done, as the command's own stop.
    """

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        with held():
            return super().submit(fn, *args, **kwargs)


@contextlib.contextmanager
def worker_pool(
    workers: int,
    *,
    context: Any = None,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
) -> Iterator[ProcessPoolExecutor]:
    """A process pool whose workers die with this process, killed at once on an error."""
    pool = _Pool(
        max_workers=workers,
        mp_context=context,
        initializer=_start,
        initargs=(os.getpid(), initializer, initargs),
    )
    try:
        yield pool
    except BaseException:
        _kill(pool)
        raise
    else:
        pool.shutdown(wait=True)


def _kill(pool: ProcessPoolExecutor) -> None:
    """Kill the pool's workers now and let its threads end (the executor offers no such call).

    Five private attributes, each looked up defensively: the work not done,
    its queued ids and then its items, forgotten first (the pool's thread would
    otherwise fail each future, and raise for one already cancelled, a
    traceback on Python 3.11); the workers; the call
    queue, whose feeder thread would print a traceback for the pipe closing
    under it; and this process's copy of the result pipe's write end, closed so
    that the pool's thread, perhaps waiting for the rest of a result a killed
    worker was writing, reads the end of the pipe and stops (else the
    interpreter's exit would wait for it for ever).
    """
    processes = list((getattr(pool, "_processes", None) or {}).values())
    # The ids of the work not yet handed to a worker go first: the pool's thread takes an id
    # and then looks its item up, so an item forgotten while its id is still queued made it
    # raise a KeyError (a traceback on stderr after the stop, seen once under SIGTERM).
    work_ids = getattr(pool, "_work_ids", None)
    with contextlib.suppress(Exception):  # queue.Empty ends it
        while True:
            work_ids.get_nowait()  # type: ignore[union-attr]
    with contextlib.suppress(Exception):
        pool._pending_work_items.clear()
    calls = getattr(pool, "_call_queue", None)
    if calls is not None:
        calls._on_queue_feeder_error = lambda error, item: None
    for process in processes:
        with contextlib.suppress(Exception):
            process.kill()
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(1.0)
    results = getattr(pool, "_result_queue", None)
    with contextlib.suppress(Exception):
        results._writer.close()  # type: ignore[union-attr]
    with contextlib.suppress(Exception):
        pool.shutdown(wait=False, cancel_futures=True)
