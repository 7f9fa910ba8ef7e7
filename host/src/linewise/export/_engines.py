"""Engines: run the per-file work over many inputs, results in input order, memory bounded."""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from typing import Any, Final, TypeAlias

from linewise.export._extras import require
from linewise.export._work import ExportFailure, FileExport, Redaction, export_or_fail
from linewise.settings.workers import worker_pool

__all__ = [
    "ENGINES",
    "Result",
    "dask_results",
    "default_workers",
    "local_cluster",
    "process_results",
    "warm_up",
]

Result: TypeAlias = list[FileExport] | ExportFailure
ENGINES: Final = ("process", "dask")
#: Tasks submitted ahead of the one being written, per worker.
_AHEAD: Final = 4


def default_workers() -> int:
    """One worker per core this process may use."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def _in_order(paths: Sequence[str], submit: Callable[[str], Any], window: int) -> Iterator[Any]:
    """Submit ``window`` tasks ahead and yield their futures' results in input order.

    Holding results to write them in input order is what makes the output
    deterministic; the window bounds how many are held.
    """
    pending: deque[Any] = deque()
    upcoming = iter(paths)
    for path in upcoming:
        pending.append(submit(path))
        if len(pending) >= window:
            break
    while pending:
        yield pending.popleft().result()
        for path in upcoming:
            pending.append(submit(path))
            break


def warm_up() -> None:
    """Import every parser plugin and its sniffer now, not on a worker's first input."""
    from linewise.plugins.registry import get_registry
    from linewise.stream.detect import detect_adapter

    registry = get_registry()
    for adapter_type in registry.adapter_types:
        registry.load(adapter_type)
    detect_adapter(["{}"], registry=registry)


def process_results(
    paths: Sequence[str], workers: int, redaction: Redaction | None = None
) -> Iterator[Result]:
    """The per-file work on a pool of ``workers`` processes (1: in this process)."""
    if workers <= 1 or len(paths) <= 1:
        yield from (export_or_fail(path, redaction) for path in paths)
        return
    # Forked workers inherit the plugins loaded here: warming up once, not per worker,
    # saves about a second per worker. Elsewhere each worker warms up on its own.
    context = None
    if "fork" in multiprocessing.get_all_start_methods():
        warm_up()
        context = multiprocessing.get_context("fork")
    # Workers die with this process (a kill of the export leaves none running).
    with worker_pool(workers, context=context, initializer=warm_up) as pool:

        def submit(path: str) -> Future[Result]:
            return pool.submit(export_or_fail, path, redaction)

        yield from _in_order(paths, submit, workers * _AHEAD)


def local_cluster(workers: int) -> tuple[Any, Any]:
    """A Dask cluster for one export that no other local process can use, and its credentials.

    A cluster on plain TCP runs any code a client sends it, and every local
    user can connect. So: TLS on the loopback with certificates made for this
    export only (kept in memory, needing the ``cryptography`` package), each
    side checking the other's; without ``cryptography``, workers in this
    process over in-process comms (no port at all, one core's worth of
    parsing). Never a dashboard.
    """
    distributed = require("dask", "distributed")
    dask_config = require("dask", "dask.config")
    # The scheduler's and workers' HTTP servers still listen (Dask always starts them):
    # with no routes they answer nothing, not even who the workers are.
    quiet: dict[str, list[str]] = {
        "distributed.scheduler.http.routes": [],
        "distributed.worker.http.routes": [],
    }
    options: dict[str, Any] = {
        "n_workers": workers,
        "threads_per_worker": 1,
        "dashboard_address": None,
    }
    try:
        security = distributed.security.Security.temporary()
    except ImportError:  # no cryptography: nothing to make certificates with
        with dask_config.set(quiet):
            cluster = distributed.LocalCluster(processes=False, protocol="inproc://", **options)
        return cluster, None
    with dask_config.set(quiet):
        cluster = distributed.LocalCluster(
            processes=True, protocol="tls://", host="127.0.0.1", security=security, **options
        )
    return cluster, security


def dask_results(
    paths: Sequence[str],
    *,
    workers: int,
    scheduler: str | None = None,
    redaction: Redaction | None = None,
) -> Iterator[Result]:
    """The per-file work on Dask distributed.

    ``scheduler`` is a running scheduler's address (``tcp://host:8786``); without
    it, Dask's own configuration (``DASK_SCHEDULER_ADDRESS``) is used when set,
    else a private local cluster of ``workers`` single-threaded workers is
    started for this export (:func:`local_cluster`). Workers read the inputs
    by path: on a real cluster every worker must see them at the same path (a
    shared file system).
    ``redaction`` is sent with each task (the secret values it masks included).
    """
    distributed = require("dask", "distributed")
    cluster = None
    dask_config = require("dask", "dask.config")
    address = scheduler or dask_config.get("scheduler-address", None)
    if address:
        client = distributed.Client(address)
    else:
        cluster, security = local_cluster(workers)
        client = distributed.Client(cluster, security=security)
    try:
        # Loading plugins from two threads at once is not safe (the sniffer registry
        # races): warm this process up (in-process workers share it), then each worker.
        warm_up()
        client.run(warm_up)
        slots = sum(client.nthreads().values()) or workers

        def submit(path: str) -> Any:
            return client.submit(export_or_fail, path, redaction, pure=False)

        yield from _in_order(paths, submit, slots * _AHEAD)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
