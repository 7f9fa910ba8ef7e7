"""Of a declared format, one field alone: its ``sniff`` for detection, its ``session_stores``
for the session search, the rest left for later.

Auto-detection asks every installed format for its ``sniff``, and reading a
log no sniffer is sure of asks every format for its ``session_stores`` (is the
file in a store?). Of a declared format (contract 1.5) only the field asked for
is imported here, after the same gate a load passes
(:meth:`.loading.PluginLoader._gated`): with light plugin packages (contract
1.8, ``linewise_contracts.lazy``) that imports no parser. The format a caller
then uses is loaded whole; a failure here is recorded as that load's would be,
and not retried.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from linewise_contracts.protocols import SESSION_STORES, SNIFF

from linewise.plugins.guard import GuardedCall, GuardedSniff
from linewise.plugins.loaded import LoadedParser
from linewise.plugins.loading import _DECLARED_MODULE, _import, _optional, declared_problem

if TYPE_CHECKING:
    from linewise.plugins.candidate import Candidate
    from linewise.plugins.loading import PluginLoader

__all__ = ["FIELDS", "FieldLoader"]

#: The fields asked of every installed format, and the guard around each.
FIELDS: Final[dict[str, type[GuardedCall] | type[GuardedSniff]]] = {
    SNIFF: GuardedSniff,
    SESSION_STORES: GuardedCall,
}


class FieldLoader:
    """Imports one field of one adapter type's winning claim for a registry's loader;
    the registry holds the lock while :meth:`field_locked` runs."""

    def __init__(self, loader: PluginLoader) -> None:
        self._loader = loader

    def field_locked(self, adapter_type: str, field: str) -> Any:
        """``adapter_type``'s guarded ``field`` (one of :data:`FIELDS`), importing no more
        of its plugin than that.

        A declared format (contract 1.5) is checked and only its ``field`` reference is
        imported. The rest is imported when the format is loaded
        (:meth:`.PluginLoader.load_locked`). A 1.x module, an isolated or a JavaScript
        parser is loaded whole, as before. None when the format has no such field or
        cannot be used (the failure is recorded as a load's).
        """
        registry = self._loader._registry
        loaded = registry._loaded.get(adapter_type)
        if loaded is not None:
            return _field_of(loaded, field)
        known = registry._fields.get(adapter_type)
        if known is not None and field in known:
            return known[field]
        winner = self._loader._gated(adapter_type, quiet=known is not None)
        if isinstance(winner, LoadedParser):
            return _field_of(winner, field)
        if winner.kind != "python" or registry.isolation.covers(adapter_type, winner.distribution):
            return _field_of(self._loader._load_winner(winner), field)
        target, error = _import(winner.entry_point.load)
        if error is not None:
            return _field_of(self._loader._import_failed(winner, error), field)
        if type(target).__module__ != _DECLARED_MODULE:
            return _field_of(self._loader._load_winner(winner), field)  # 1.x: imported whole
        value, failed = self._declared(winner, target, field)
        if failed is not None:
            return _field_of(failed, field)
        registry._fields.setdefault(adapter_type, {})[field] = value
        return value

    def _declared(
        self, winner: Candidate, target: object, field: str
    ) -> tuple[Any, LoadedParser | None]:
        """A declared format's guarded ``field`` (its reference imported, nothing else), or
        the fallback a failed check or import leaves."""
        refused = declared_problem(target, winner.adapter_type, field=field)
        if refused is not None:
            stage, reason, hint, error = refused
            return None, self._loader._fail(winner, stage, reason, hint, error)
        # Imported by the check: a read of the field now runs no plugin code.
        value = getattr(target, field)
        if value is None:
            return None, None
        record = self._loader._registry.call_failures
        return _optional(lambda _: value, field, winner.adapter_type, record, FIELDS[field]), None


def _field_of(loaded: LoadedParser, field: str) -> Any:
    return None if loaded.is_fallback else getattr(loaded, field)
