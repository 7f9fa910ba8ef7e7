"""Where Pi keeps its sessions (``~/.pi/agent/sessions``)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from linewise_contracts.sessions import SessionStore, store_root

__all__ = ["session_stores"]


def session_stores(environ: Mapping[str, str], home: Path) -> list[SessionStore]:
    """Pi's sessions: ``$PI_CODING_AGENT_DIR/sessions/--<cwd>--/<time>_<uuid>.jsonl``.

    ``PI_CODING_AGENT_DIR`` defaults to ``~/.pi/agent`` (Pi's ``config.ts``); a
    session file is one JSON line per record, read as it is.
    """
    agent = store_root(environ.get("PI_CODING_AGENT_DIR"), home, ".pi/agent")
    return [SessionStore("pi", agent / "sessions", ("*/*.jsonl",))]
