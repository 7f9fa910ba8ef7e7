"""A loaded parser: what the registry hands out for an adapter type, every plugin call guarded.

Its own module, apart from :mod:`linewise.plugins.loading` (which makes them), so
that isolation, which makes them too, and everything that only holds one need
not import the loader.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from linewise.plugins.generic import GenericParser

if TYPE_CHECKING:
    from pathlib import Path

    from linewise_contracts.entries import TranscriptEntry
    from linewise_contracts.environment import EnvironmentCheck
    from linewise_contracts.protocols import CompactLine, StdoutParser
    from linewise_contracts.sessions import SessionStore
    from linewise_contracts.summary import RunSummary

__all__ = ["LoadedParser", "PluginExports", "generic_loaded", "metadata_models", "metadata_str"]


class PluginExports:
    """A loaded plugin's optional exports, each behind the guard; None when it has none.

    The attributes carry the contract's export names, so ``getattr(exports,
    SNIFF)`` works. ``sniff``, ``format_stdout_line`` and ``format_entries`` never
    raise (a failure is recorded and gives 0, the line shown plain, or None: the
    host draws the entries itself); ``summarize_run`` and
    ``check_environment`` raise :class:`~linewise.plugins.guard.PluginCallError`
    (an ``Exception``) for whatever the plugin raised. A plain class with
    slots: building a dataclass at import is a noticeable part of a short run.
    """

    __slots__ = (
        "check_environment",
        "format_entries",
        "format_stdout_line",
        "session_keys",
        "session_records",
        "session_stores",
        "sniff",
        "summarize_run",
    )

    def __init__(
        self,
        *,
        sniff: Callable[[Sequence[str]], float | None] | None = None,
        summarize_run: Callable[[Iterable[str]], RunSummary] | None = None,
        check_environment: Callable[..., list[EnvironmentCheck]] | None = None,
        format_stdout_line: Callable[[str], list[CompactLine]] | None = None,
        session_stores: Callable[..., list[SessionStore]] | None = None,
        session_records: Callable[..., Iterable[str]] | None = None,
        session_keys: Callable[[Path], list[str]] | None = None,
        format_entries: Callable[[Sequence[TranscriptEntry]], list[CompactLine] | None]
        | None = None,
    ) -> None:
        self.sniff = sniff
        self.summarize_run = summarize_run
        self.check_environment = check_environment
        self.format_stdout_line = format_stdout_line
        self.session_stores = session_stores
        self.session_records = session_records
        self.session_keys = session_keys
        self.format_entries = format_entries

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in _EXPORT_ORDER)

    def __eq__(self, other: object) -> bool:
        if type(other) is not PluginExports:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in _EXPORT_ORDER)
        return f"PluginExports({shown})"


_EXPORT_ORDER: Final = (
    "sniff",
    "summarize_run",
    "check_environment",
    "format_stdout_line",
    "session_stores",
    "session_records",
    "session_keys",
    "format_entries",
)


#: LoadedParser's fields, in the order its constructor takes them.
_LOADED_FIELDS: Final = (
    "adapter_type",
    "new_parser",
    "stateful",
    "label",
    "models",
    "agent_configuration_doc",
    "summarize_run",
    "fallback_reason",
    "target",
    "sniff",
    "check_environment",
    "format_stdout_line",
    "session_stores",
    "session_records",
    "session_keys",
    "isolated",
    "unserved",
    "agent",
    "format_entries",
)


class LoadedParser:
    """A parser ready to serve an adapter type: the plugin's, or the generic one standing in.

    ``new_parser()`` returns a fresh parser for one transcript (the plugin's
    stateful factory when it exports one, which wins over its static function);
    it raises :class:`~linewise.plugins.guard.PluginCallError` (an ``Exception``)
    whatever the plugin's factory raised. ``fallback_reason`` is set when the
    generic parser stands in for a plugin. Every plugin callable handed out
    here goes through the guard (see :mod:`linewise.plugins.guard`); ``target`` holds
    the same guarded optional exports as :class:`PluginExports`, never the
    plugin's own module.

    Immutable, compared and hashed by its fields (as the frozen dataclass it was). A
    plain class with slots: a frozen dataclass of these 20 fields cost 9.3M instructions
    to build at import, 3% of a one-line render.

    ``session_stores`` (contract 1.2) and the other session exports are guarded like
    ``summarize_run``: they raise only exceptions; what they return is checked by
    :mod:`linewise.sessions`. ``isolated``: the plugin runs in worker processes
    (isolation mode), never imported by the host. ``unserved``: exports an isolated
    plugin has that its workers do not serve (session stores: a worker may not read
    files), so that a command can say what it leaves out. ``agent``: the agent CLI's
    name when the plugin declares a contract 1.5 ``Agent`` ("claude"); None for a 1.x
    plugin's loose module exports (deprecated) and the generic parser.
    ``format_entries``: a declared format's contract 1.7 compact lines made from one
    line's entries (a :class:`~linewise.plugins.guard.GuardedEntryFormatter`: None
    when a call failed), which the compact style prefers to ``format_stdout_line``.
    """

    __slots__ = _LOADED_FIELDS

    adapter_type: str
    new_parser: Callable[[], StdoutParser]
    stateful: bool
    label: str | None
    models: tuple[Mapping[str, Any], ...]
    agent_configuration_doc: str | None
    summarize_run: Callable[[Iterable[str]], RunSummary] | None
    fallback_reason: str | None
    target: PluginExports | None
    sniff: Callable[[Sequence[str]], float | None] | None
    check_environment: Callable[..., list[EnvironmentCheck]] | None
    format_stdout_line: Callable[[str], list[CompactLine]] | None
    session_stores: Callable[..., list[SessionStore]] | None
    session_records: Callable[..., Iterable[str]] | None
    session_keys: Callable[[Path], list[str]] | None
    isolated: bool
    unserved: tuple[str, ...]
    agent: str | None
    format_entries: Callable[[Sequence[TranscriptEntry]], list[CompactLine] | None] | None

    def __init__(
        self,
        adapter_type: str,
        new_parser: Callable[[], StdoutParser],
        stateful: bool,
        *,
        label: str | None = None,
        models: tuple[Mapping[str, Any], ...] = (),
        agent_configuration_doc: str | None = None,
        summarize_run: Callable[[Iterable[str]], RunSummary] | None = None,
        fallback_reason: str | None = None,
        target: PluginExports | None = None,
        sniff: Callable[[Sequence[str]], float | None] | None = None,
        check_environment: Callable[..., list[EnvironmentCheck]] | None = None,
        format_stdout_line: Callable[[str], list[CompactLine]] | None = None,
        session_stores: Callable[..., list[SessionStore]] | None = None,
        session_records: Callable[..., Iterable[str]] | None = None,
        session_keys: Callable[[Path], list[str]] | None = None,
        isolated: bool = False,
        unserved: tuple[str, ...] = (),
        agent: str | None = None,
        format_entries: Callable[[Sequence[TranscriptEntry]], list[CompactLine] | None]
        | None = None,
    ) -> None:
        values = (
            adapter_type,
            new_parser,
            stateful,
            label,
            models,
            agent_configuration_doc,
            summarize_run,
            fallback_reason,
            target,
            sniff,
            check_environment,
            format_stdout_line,
            session_stores,
            session_records,
            session_keys,
            isolated,
            unserved,
            agent,
            format_entries,
        )
        for name, value in zip(_LOADED_FIELDS, values, strict=True):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a LoadedParser is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a LoadedParser is immutable")

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in _LOADED_FIELDS)

    def __eq__(self, other: object) -> bool:
        if type(other) is not LoadedParser:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in _LOADED_FIELDS)
        return f"LoadedParser({shown})"

    def __reduce__(self) -> tuple[Callable[..., LoadedParser], tuple[object, ...]]:
        return (_rebuilt, self._values())  # copy and pickle through the constructor

    @property
    def is_fallback(self) -> bool:
        """True when the generic parser serves this adapter type."""
        return self.fallback_reason is not None


def _rebuilt(adapter_type: str, new_parser: Any, stateful: bool, *rest: Any) -> LoadedParser:
    """A LoadedParser from its fields' values in order (what pickle and copy call)."""
    return LoadedParser(
        adapter_type, new_parser, stateful, **dict(zip(_LOADED_FIELDS[3:], rest, strict=True))
    )


def generic_loaded(adapter_type: str, reason: str | None) -> LoadedParser:
    """The built-in generic parser serving ``adapter_type`` (standing in when ``reason``)."""
    return LoadedParser(
        adapter_type=adapter_type,
        new_parser=GenericParser,
        stateful=False,
        label="Generic (raw stdout)" if reason is None else None,
        fallback_reason=reason,
    )


def metadata_str(value: object) -> str | None:
    """A metadata text a plugin exported, or None when it is not a non-blank string."""
    return value if type(value) is str and value.strip() else None


def metadata_models(value: object) -> tuple[Mapping[str, Any], ...]:
    """The model entries a plugin exported (dicts with a string id); the rest left out."""
    if type(value) not in (list, tuple):
        return ()
    return tuple(
        dict(item)
        for item in value  # type: ignore[attr-defined]
        if type(item) is dict and type(item.get("id")) is str
    )
