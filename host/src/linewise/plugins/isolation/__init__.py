"""Isolation mode: untrusted parsers run in worker processes the host can replace.

A parser chosen for isolation (``LINEWISE_ISOLATE``, ``--isolate``,
``Registry(isolate=...)``) is never imported into the host: a worker process
imports it, parses lines in batches and sends entries back as JSON; the host
validates them as it validates every parser's entries. A line that hangs past
the time limit, exhausts the worker's memory, crashes the worker or makes it
exit goes through the generic parser; the worker is replaced (the parser's
state is lost, and the diagnostics say so) and every other line is still
parsed by the plugin.

Modules: :mod:`._wire` (framing), :mod:`._pipe` (reading and writing the
pipes), :mod:`._policy` (which types, which limits), :mod:`._worker` (the
worker's side), :mod:`._sandbox` (the worker's limits and audit hook), :mod:`._seccomp`
(the worker's kernel filter),
:mod:`._client` (one worker process, seen from the host), :mod:`._parser`
(the parser and exports the host's session uses).
"""

from __future__ import annotations

from linewise.plugins.isolation._policy import IsolationPolicy

__all__ = ["IsolationPolicy"]
