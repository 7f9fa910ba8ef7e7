"""Where GitHub Copilot CLI keeps its sessions: ``~/.copilot/session-state/<id>/events.jsonl``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from linewise_contracts.sessions import SessionStore, store_root

__all__ = ["session_stores"]


def session_stores(environ: Mapping[str, str], home: Path) -> list[SessionStore]:
    """Copilot CLI's sessions: one ``events.jsonl`` per session folder.

    ``COPILOT_HOME`` moves the ``~/.copilot`` directory when set (empty counts as unset).
    """
    root = store_root(environ.get("COPILOT_HOME"), home, ".copilot")
    return [SessionStore("copilot", root, ("session-state/*/events.jsonl",))]
