"""The contract 1.2 session-store names and the shared store_root rule."""

from __future__ import annotations

from pathlib import Path

from linewise_contracts import sessions
from linewise_contracts.sessions import SessionStore, store_root


def test_export_names_are_the_documented_ones() -> None:
    assert sessions.SESSION_STORES == "session_stores"
    assert sessions.SESSION_RECORDS == "session_records"
    assert sessions.SESSION_KEYS == "session_keys"


def test_store_root_prefers_the_cli_variable_and_expands_tilde_against_home() -> None:
    home = Path("/home/me")
    assert store_root(None, home, ".codex") == home / ".codex"
    assert store_root("", home, ".codex") == home / ".codex"
    assert store_root("   ", home, ".codex") == home / ".codex"
    assert store_root("/opt/codex", home, ".codex") == Path("/opt/codex")
    assert store_root("~/alt", home, ".codex") == home / "alt"
    assert store_root("~", home, ".codex") == home


def test_a_session_store_is_a_frozen_value() -> None:
    store = SessionStore("claude", Path("/h/.claude/projects"), ("*/*.jsonl",))
    assert store.exclude == ()
    assert store == SessionStore("claude", Path("/h/.claude/projects"), ("*/*.jsonl",))
