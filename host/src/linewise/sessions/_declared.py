"""The session stores each plugin declares, remembered so that a warm listing imports no plugin.

Learning where a plugin's CLI keeps its sessions means importing the plugin
and calling its ``session_stores(environ, home)``: every installed plugin, on
every listing, most of a warm listing's start. The contract makes that call
pure apart from ``environ`` and ``home``, so its answer is kept in the facts
cache (table ``stores``) with what it depended on: linewise's version, the
plugin's distribution, version and entry point, the home, and the variables
of ``environ`` the plugin read (their names, and a digest of their values:
no value is saved, a secret's least of all). While all of that is the same,
the stores are taken from there and the plugin is imported only when a
session of it is read.

Nothing uncertain is kept: a plugin that failed to load, runs isolated, or
whose declaration failed or looked at every variable is asked every time.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from linewise_contracts.sessions import SessionStore

from linewise.plugins.generic import GENERIC_ADAPTER_TYPE
from linewise.plugins.registry import Registry
from linewise.sessions._stores import StoreOf, not_searched, stores_of
from linewise.settings.version import __version__

__all__ = ["Declared", "Row", "declared_stores"]

#: How a row of ``stores`` says the plugin declares none (it reads no session files).
_NONE: Final = "none"


@dataclass(frozen=True, slots=True)
class Declared:
    """The stores one adapter type's plugin declares, and whether it has ``session_keys``."""

    adapter_type: str
    stores: tuple[StoreOf, ...]
    keyed: bool


class _Reads(Mapping[str, str]):
    """``environ`` as a plugin sees it, noting each variable it reads (all, when it iterates)."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        self._environ = environ
        self.read: dict[str, str | None] = {}
        self.everything = False

    def __getitem__(self, name: str) -> str:
        value = self._environ.get(name) if isinstance(name, str) else None
        if isinstance(name, str):
            self.read[name] = value
        if value is None:
            raise KeyError(name)
        return value

    def __iter__(self) -> Iterator[str]:
        self.everything = True
        return iter(self._environ)

    def __len__(self) -> int:
        self.everything = True
        return len(self._environ)


def _digest(environ: Mapping[str, str], names: list[str]) -> str:
    values = [environ.get(name) for name in names]
    return hashlib.sha256(json.dumps(values).encode("utf-8", "surrogatepass")).hexdigest()


def _identity(registry: Registry, adapter_type: str, home: Path) -> str | None:
    """What the plugin's answer depends on besides ``environ``; None: do not remember it."""
    if registry.isolation.active:
        return None
    info = registry.info(adapter_type)
    if info.distribution is None or info.version is None or info.entry_point is None:
        return None
    parts = (__version__, adapter_type, info.distribution, info.version, info.entry_point, home)
    return "|".join(map(str, parts))


def _stores_json(declared: Declared) -> str:
    return json.dumps(
        [
            [one.store.cli, str(one.store.root), list(one.store.patterns), list(one.store.exclude)]
            for one in declared.stores
        ]
    )


def _from_row(adapter_type: str, stores: str, keyed: int) -> Declared | None:
    """A kept declaration, or None when the row is not one (then the plugin is asked)."""
    if stores == _NONE:
        return Declared(adapter_type, (), keyed=False)
    try:
        items = json.loads(stores)
        found = tuple(
            StoreOf(adapter_type, SessionStore(cli, Path(root), tuple(patterns), tuple(exclude)))
            for cli, root, patterns, exclude in items
        )
    except (ValueError, TypeError):
        return None
    for one in found:
        store = one.store
        texts = (store.cli, *store.patterns, *store.exclude)
        if not all(type(text) is str for text in texts):
            return None
    return Declared(adapter_type, found, keyed=bool(keyed))


#: A row of ``stores``: adapter type, identity, variable names (JSON), their digest, the
#: stores (JSON, or ``none``), keyed (1: the plugin has ``session_keys``).
Row = tuple[str, str, str, str, str, int]


def declared_stores(
    registry: Registry,
    environ: Mapping[str, str],
    home: Path,
    kept: Mapping[str, Row],
) -> tuple[list[Declared], list[Row]]:
    """Every adapter type's declared stores, in the registry's order, and the rows to keep.

    ``kept`` is what the cache holds, by adapter type (see :data:`Row`). A plugin
    whose kept row still holds is not imported.
    """
    found: list[Declared] = []
    rows: list[Row] = []
    for adapter_type in registry.adapter_types:
        if adapter_type == GENERIC_ADAPTER_TYPE:
            continue
        identity = _identity(registry, adapter_type, home)
        row = kept.get(adapter_type)
        if identity is not None and row is not None and row[1] == identity:
            declared = _still_true(adapter_type, row, environ)
            if declared is not None:
                found.append(declared)
                continue
        declared, asked = _ask(registry, adapter_type, environ, home)
        if declared is None:
            continue
        found.append(declared)
        if identity is not None and asked is not None:
            names = sorted(asked)
            stores = _stores_json(declared) if declared.stores or declared.keyed else _NONE
            digest = _digest(environ, names)
            rows.append(
                (adapter_type, identity, json.dumps(names), digest, stores, int(declared.keyed))
            )
    return found, rows


def _still_true(adapter_type: str, row: Row, environ: Mapping[str, str]) -> Declared | None:
    _, _, names_json, digest, stores, keyed = row
    try:
        names = json.loads(names_json)
    except ValueError:
        return None
    if type(names) is not list or not all(type(name) is str for name in names):
        return None
    if _digest(environ, names) != digest:
        return None  # a variable it read changed (CLAUDE_CONFIG_DIR, say): ask again
    return _from_row(adapter_type, stores, keyed)


def _ask(
    registry: Registry, adapter_type: str, environ: Mapping[str, str], home: Path
) -> tuple[Declared | None, dict[str, Any] | None]:
    """Load the plugin and ask it: its declaration (None: it reads no store) and the
    variables it read (None: not to be kept)."""
    loaded = registry.load(adapter_type)
    if loaded.is_fallback:
        return None, None
    if loaded.session_stores is None:
        if loaded.isolated and "session_stores" in loaded.unserved:
            not_searched(registry, adapter_type)
            return None, None
        return Declared(adapter_type, (), keyed=False), {}
    reads = _Reads(environ)
    failures = registry.call_failures.count
    stores = tuple(stores_of(loaded, reads, home, registry))
    declared = Declared(adapter_type, stores, keyed=loaded.session_keys is not None)
    if reads.everything or registry.call_failures.count != failures or loaded.isolated:
        return declared, None
    return declared, dict(reads.read)
