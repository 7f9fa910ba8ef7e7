"""Where Kimi keeps sessions (Kimi Code and kimi-cli), and how one is read."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Final

from linewise_contracts.sessions import SessionStore, record_lines, store_root

__all__ = ["SESSION_RECORD", "session_id", "session_records", "session_stores"]

#: The record :func:`session_records` puts first: the session id its folder names.
SESSION_RECORD: Final = "kimi_session"


def session_stores(environ: Mapping[str, str], home: Path) -> list[SessionStore]:
    """Kimi Code's and kimi-cli's sessions.

    Kimi Code: ``~/.kimi-code/sessions/wd_<project>/session_<uuid>/agents/main/wire.jsonl``
    (the main agent; subagents keep their own ``agents/<id>/`` folders).
    kimi-cli: ``$KIMI_SHARE_DIR/sessions/<md5 of the work dir>/<uuid>/context.jsonl``
    (``~/.kimi`` by default).
    """
    share = environ.get("KIMI_SHARE_DIR") or None
    return [
        SessionStore(
            "kimi", store_root(None, home, ".kimi-code/sessions"), ("*/*/agents/main/wire.jsonl",)
        ),
        SessionStore("kimi", store_root(share, home, ".kimi") / "sessions", ("*/*/context.jsonl",)),
    ]


def session_id(path: Path) -> str:
    """The session's id from its folder: ``session_<uuid>`` (Kimi Code), ``<uuid>`` (kimi-cli)."""
    folder = path.parent.parent.parent if path.name == "wire.jsonl" else path.parent
    name = folder.name
    return name.removeprefix("session_")


def session_records(path: Path, key: str | None = None) -> Iterator[str]:
    """The session's lines after ``{"type": "kimi_session", "sessionId": ...}``.

    Neither CLI writes the session's id into its records; the folder names it.
    """
    del key  # one session per file
    yield json.dumps({"type": SESSION_RECORD, "sessionId": session_id(path)})
    yield from record_lines(path)  # each line bounded, as stdout lines are
