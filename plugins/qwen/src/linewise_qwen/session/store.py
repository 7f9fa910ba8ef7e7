"""Where Qwen Code keeps its chats: ``~/.qwen/projects/<project>/chats/<session>.jsonl``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from linewise_contracts.sessions import SessionStore, store_root

__all__ = ["session_stores"]


def session_stores(environ: Mapping[str, str], home: Path) -> list[SessionStore]:
    """Qwen Code's chats, one JSON-lines file per session under ``~/.qwen/projects``.

    The project folders also hold a ``meta.json`` and ``~/.qwen`` a
    ``usage_record.jsonl``: neither is a session, and the pattern leaves them out.
    """
    del environ  # Qwen Code documents no variable moving its ~/.qwen directory
    return [SessionStore("qwen", store_root(None, home, ".qwen"), ("projects/*/chats/*.jsonl",))]
