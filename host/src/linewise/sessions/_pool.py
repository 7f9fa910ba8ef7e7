"""Reading many sessions' facts at once: a pool of worker processes, one per core.

The first ``linewise sessions`` on a machine reads every session through its
parser: thousands of files, each independent of the others. Here they are
read in chunks by worker processes (:func:`linewise.settings.workers.worker_pool`:
they never outlive linewise), a few chunks ahead at most, so memory stays
flat however many sessions there are. Results come back in the order the
sessions were given, with what the worker's plugins recorded (call failures)
and logged (warnings), which this process records and logs as if it had read
them itself.

A worker that dies (a plugin crashing the interpreter, the kernel killing it
for memory) takes its chunk with it, and every chunk then in flight: those
sessions are read again one at a time, each in a worker of its own, and the
one that kills its worker again is listed with that as its problem, unread;
every other session is listed as ever.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import sys
from collections import deque
from collections.abc import Generator, Iterator, Sequence
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from linewise.sessions._cache import pack_text
from linewise.sessions._facts import SessionInfo, read_facts, unread_info
from linewise.sessions._stores import SessionFile

if TYPE_CHECKING:
    from linewise.plugins.guard import PluginCallFailure
    from linewise.plugins.registry import Registry

__all__ = ["CHUNK_BYTES", "CHUNK_SESSIONS", "Outcome", "Task", "default_workers", "read_in_pool"]

logger = logging.getLogger("linewise")

#: A chunk (one task for a worker) holds at most this many sessions, or this many bytes
#: of them (one larger session is a chunk of its own): few enough round trips that
#: sending them costs little, small enough that the cores share the work evenly.
CHUNK_SESSIONS: Final = 32
CHUNK_BYTES: Final = 1024 * 1024
#: Chunks sent ahead per worker: each always has the next one at hand, and no more is
#: held (the texts of the sessions read wait in memory only that long).
_AHEAD: Final = 2


@dataclass(frozen=True, slots=True)
class Task:
    """One session to read: what a worker needs to find it and its plugin."""

    adapter_type: str
    cli: str
    path: str
    key: str | None
    size: int
    mtime_ns: int

    def session_file(self) -> SessionFile:
        """The :class:`SessionFile` to read."""
        return SessionFile(
            self.adapter_type, self.cli, Path(self.path), self.key, self.size, self.mtime_ns
        )


@dataclass(frozen=True, slots=True)
class Outcome:
    """What reading one session came to: its facts, its packed message text (empty when
    the facts are incomplete, so not cached), and the failures and warnings on the way."""

    info: SessionInfo
    text: bytes
    failures: tuple[PluginCallFailure, ...] = ()
    warnings: tuple[tuple[int, str], ...] = ()


def default_workers() -> int:
    """One worker per core this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def read_in_pool(
    tasks: Sequence[Task], workers: int, registry: Registry, *, chunks: int = CHUNK_SESSIONS
) -> Iterator[tuple[Task, Outcome]]:
    """Each task's outcome, in the order given, read by ``workers`` processes.

    The outcome's failures are already recorded in ``registry`` and its warnings
    logged when it is yielded. ``chunks`` is the most sessions per chunk.
    """
    pending = deque(_chunked(tasks, chunks))
    while pending:
        suspects = yield from _run(pending, workers, registry)
        yield from _one_by_one(suspects, registry)


def _chunked(tasks: Sequence[Task], most: int) -> Iterator[list[Task]]:
    chunk: list[Task] = []
    size = 0
    for task in tasks:
        if chunk and (len(chunk) >= most or size + task.size > CHUNK_BYTES):
            yield chunk
            chunk, size = [], 0
        chunk.append(task)
        size += task.size
    if chunk:
        yield chunk


def _run(
    pending: deque[list[Task]], workers: int, registry: Registry
) -> Generator[tuple[Task, Outcome], None, list[Task]]:
    """Chunks from ``pending`` on one pool until it is done or broken; what was in flight
    when a worker died (to be read one by one) is returned."""
    from linewise.settings.workers import worker_pool

    in_flight: deque[tuple[list[Task], Future[list[Outcome]]]] = deque()
    with worker_pool(
        workers, context=_context(), initializer=_start, initargs=_given(registry)
    ) as pool:
        while pending or in_flight:
            while pending and len(in_flight) < workers * _AHEAD:
                chunk = pending.popleft()
                in_flight.append((chunk, pool.submit(_read_chunk, chunk)))
            chunk, future = in_flight[0]
            try:
                outcomes = future.result()
            except BrokenProcessPool:
                suspects = [task for chunk, _ in in_flight for task in chunk]
                break
            in_flight.popleft()
            for task, outcome in zip(chunk, outcomes, strict=True):
                yield task, _received(outcome, registry)
        else:
            return []
    # The pool is broken: leaving its block waits for nothing (no worker is left working).
    return suspects


def _one_by_one(suspects: list[Task], registry: Registry) -> Iterator[tuple[Task, Outcome]]:
    """Sessions read one at a time, each in a fresh worker after one died: the one whose
    reading kills its worker is the one that does."""
    from linewise.settings.workers import worker_pool

    left = deque(suspects)
    while left:
        with worker_pool(
            1, context=_context(), initializer=_start, initargs=_given(registry)
        ) as pool:
            while left:
                task = left[0]
                try:
                    (outcome,) = pool.submit(_read_chunk, [task]).result()
                except BrokenProcessPool as error:
                    left.popleft()
                    yield task, Outcome(unread_info(task.session_file(), _crashed(error)), b"")
                    break  # a new worker for the rest
                left.popleft()
                yield task, _received(outcome, registry)


def _crashed(error: BaseException) -> str:
    detail = str(error).strip().rstrip(".")
    return (
        "not read: reading it stopped the worker process"
        + (f" ({detail})" if detail else "")
        + "; the plugin may have crashed the interpreter or run out of memory"
    )


def _received(outcome: Outcome, registry: Registry) -> Outcome:
    """Record and log, in this process, what the worker's reading recorded and logged."""
    for failure in outcome.failures:
        registry.call_failures.add(failure)
    for warning in outcome.warnings:
        if warning not in _logged:  # each worker warns once of what this process would once
            _logged.add(warning)
            logger.log(warning[0], "%s", warning[1])
    return outcome


#: In this process: the warnings of workers logged already.
_logged: set[tuple[int, str]] = set()


def _context() -> multiprocessing.context.BaseContext | None:
    # fork starts a worker with the plugins already loaded here; elsewhere the default
    # (spawn), each worker loading them again from the installed ones.
    if sys.platform == "linux":
        return multiprocessing.get_context("fork")
    return None


def _given(registry: Registry) -> tuple[Registry | None]:
    # A forked worker has this very registry (nothing is pickled); a spawned one makes its own.
    return (registry if _context() is not None else None,)


#: In a worker: the registry to read with, what its plugins recorded and what was logged.
_registry: Registry | None = None
_failures: list[PluginCallFailure] = []
_warnings: list[tuple[int, str]] = []


class _Kept(logging.Handler):
    """Keeps a worker's log records, to be logged again by the parent in order."""

    def emit(self, record: logging.LogRecord) -> None:
        _warnings.append((record.levelno, record.getMessage()))


def _start(registry: Registry | None) -> None:
    """In a new worker: plugin output to stderr, never into the listing; records kept."""
    global _registry
    sys.stdout.flush()
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    if registry is None:
        from linewise.plugins.registry import get_registry

        registry = get_registry()
    _registry = registry
    # The guard records failures through this record's add (bound when a plugin loads).
    registry.call_failures.add = _failures.append  # type: ignore[method-assign, assignment]
    logger.handlers[:] = [_Kept()]
    logger.propagate = False


def _read_chunk(tasks: list[Task]) -> list[Outcome]:
    """In a worker: read each session of one chunk."""
    registry = _registry
    assert registry is not None, "not a worker started by read_in_pool"
    outcomes = []
    for task in tasks:
        _failures.clear()
        _warnings.clear()
        info, text = read_facts(task.session_file(), registry.load(task.adapter_type), registry)
        packed = pack_text(text) if info.problem is None else b""
        outcomes.append(Outcome(info, packed, tuple(_failures), tuple(_warnings)))
    return outcomes
