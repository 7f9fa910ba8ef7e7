"""The sessions on this machine: the stores the CLIs keep on disk, found through the plugins.

A plugin whose adapter type reads a CLI's session files declares where they
live (``session_stores``) and, when they are not one JSON line per record, how
to read one (``session_records``, ``session_keys``): see
:mod:`linewise_contracts.sessions`. The host finds the files, reads each
through the ordinary pipeline (the same parser, safety net and validation as
stdout), keeps what each came to in a private cache, and lists, searches and
renders them. Nothing leaves the machine.

The names below live in :mod:`.catalogue`, imported on first use: ``render FILE``
imports :mod:`.inputs` (is this input a stored session?) without the catalogue.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from linewise.sessions.catalogue import (
        NOT_READ_YET,
        FactsMemo,
        SessionInfo,
        SessionQuery,
        SessionSource,
        all_facts,
        cache_folder,
        file_session,
        find_sessions,
        known_stores,
        resolve_session,
        session_summary,
        store_type,
        transcribe_session,
    )

__all__ = [
    "NOT_READ_YET",
    "FactsMemo",
    "SessionInfo",
    "SessionQuery",
    "SessionSource",
    "all_facts",
    "cache_folder",
    "file_session",
    "find_sessions",
    "known_stores",
    "resolve_session",
    "session_summary",
    "store_type",
    "transcribe_session",
]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'linewise.sessions' has no attribute {name!r}")
    value = getattr(import_module("linewise.sessions.catalogue"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
