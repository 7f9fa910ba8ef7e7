"""Where Codex keeps sessions: ``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from linewise_contracts.sessions import SessionStore, store_root

__all__ = ["session_stores"]


def session_stores(environ: Mapping[str, str], home: Path) -> list[SessionStore]:
    """``CODEX_HOME`` else ``~/.codex``: one rollout file per session, by date.

    Sessions the user archived (``codex`` moves them to ``archived_sessions/``,
    flat) are sessions too.
    """
    root = store_root(environ.get("CODEX_HOME"), home, ".codex")
    return [
        SessionStore(
            cli="codex",
            root=root,
            patterns=("sessions/*/*/*/rollout-*.jsonl", "archived_sessions/rollout-*.jsonl"),
        )
    ]
