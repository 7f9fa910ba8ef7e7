"""Loading an isolated plugin: a worker imports it and says what it exports; the host never does."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from linewise.plugins.guard import (
    GuardedCall,
    GuardedEntryFormatter,
    GuardedSniff,
    PluginCallRecord,
)
from linewise.plugins.isolation._client import WorkerDied, WorkerProcess
from linewise.plugins.isolation._parser import IsolatedCall, IsolatedParser
from linewise.plugins.isolation._policy import IsolationPolicy
from linewise.settings.logs import logger

if TYPE_CHECKING:
    from collections.abc import Callable

    from linewise.plugins.loaded import LoadedParser

__all__ = ["IsolatedLoad", "load_isolated"]

#: ``(stage, reason, hint)`` of a plugin its worker could not load.
IsolatedLoad = tuple[str, str, str]

#: The exports a worker may name as unserved (anything else it names is ignored).
_UNSERVED = ("session_stores", "session_records", "session_keys")
_HINT = "run `linewise check` on the plugin, or load it without isolation to see the traceback"


class _Service:
    """The worker that answers an isolated plugin's optional calls, replaced when it dies."""

    def __init__(self, value: str, policy: IsolationPolicy, worker: WorkerProcess) -> None:
        self._value = value
        self._policy = policy
        self._worker: WorkerProcess | None = worker

    def __call__(self) -> WorkerProcess:
        worker = self._worker
        if worker is None or worker.dead:
            worker = self._worker = WorkerProcess(self._value, self._policy)
        return worker


_unfiltered_said = False


def _say_unfiltered(problem: object) -> None:
    """Warn once per process when workers run without their kernel filter."""
    global _unfiltered_said
    if isinstance(problem, str) and not _unfiltered_said:
        _unfiltered_said = True
        logger.warning(
            "isolation: %s; only the audit hook limits what isolated parsers do", problem[:200]
        )


def load_isolated(
    adapter_type: str,
    value: str,
    policy: IsolationPolicy,
    record: PluginCallRecord,
    *,
    fallback_label: str | None,
) -> LoadedParser | IsolatedLoad:
    """The plugin behind entry point ``value`` served from workers, or why it cannot be."""
    from linewise.plugins.loaded import LoadedParser, metadata_models, metadata_str

    try:
        worker = WorkerProcess(value, policy)
    except WorkerDied as died:
        return ("import", f"its isolated worker did not start: {died.reason}", _HINT)
    hello: dict[str, Any] = worker.hello
    if hello.get("ok") is not True:
        worker.close()
        stage = "exports" if hello.get("stage") == "exports" else "import"
        reason = f"{hello.get('error', 'error')}: {hello.get('message', '')}"
        return (stage, f"in its isolated worker: {reason}"[:600], _HINT)
    _say_unfiltered(hello.get("filter"))
    raw = hello.get("raw") is True
    service = _Service(value, policy, worker)
    calls = hello.get("calls") if isinstance(hello.get("calls"), list) else []
    unserved = hello.get("unserved") if isinstance(hello.get("unserved"), list) else []
    assert isinstance(unserved, list)
    metadata = hello.get("metadata") if isinstance(hello.get("metadata"), dict) else {}
    assert isinstance(calls, list) and isinstance(metadata, dict)

    def new_parser() -> IsolatedParser:
        return IsolatedParser(value, policy, raw_lines=raw)

    def call(name: str) -> Callable[..., Any] | None:
        return IsolatedCall(name, service) if name in calls else None

    sniff = call("sniff")
    summarize = call("summarize_run")
    format_entries = call("format_entries")
    return LoadedParser(
        adapter_type=adapter_type,
        new_parser=new_parser,
        stateful=hello.get("stateful") is True,
        label=metadata_str(metadata.get("label")) or fallback_label,
        models=metadata_models(metadata.get("models")),
        agent_configuration_doc=metadata_str(metadata.get("agent_configuration_doc")),
        summarize_run=(
            GuardedCall(adapter_type, "summarize_run (isolated)", summarize, record)
            if summarize
            else None
        ),
        sniff=GuardedSniff(adapter_type, "sniff (isolated)", sniff, record) if sniff else None,
        isolated=True,
        unserved=tuple(name for name in unserved if name in _UNSERVED),
        format_entries=(
            GuardedEntryFormatter(adapter_type, "format_entries (isolated)", format_entries, record)
            if format_entries
            else None
        ),
    )
