"""`linewise sessions` on fake homes laid out like each CLI's real one, with the corpus's files.

Each test runs once the plugin declaring that CLI's session store is installed
(the session adapter types are written apart from the host) and skips until
then, or when the corpus is absent.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from linewise import Registry
from linewise.sessions import find_sessions
from support import corpus_path


def _claude(source: Path, home: Path) -> int:
    project = home / ".claude" / "projects" / "-home-ada-project"
    count = 0
    for file in sorted(source.rglob("*")):
        if not file.is_file():
            continue
        target = project / file.relative_to(source)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(file, target)
        # Subagents' files (<session>/subagents/agent-*.jsonl) are not sessions of their own,
        # unless their session's file is missing (the corpus's phoenix capture has none).
        count += file.parent == source and file.suffix == ".jsonl"
        if file.parent.name == "subagents" and file.suffix == ".jsonl":
            count += not (source / f"{file.parent.parent.name}.jsonl").is_file()
    return count


def _codex(source: Path, home: Path) -> int:
    day = home / ".codex" / "sessions" / "2025" / "09" / "25"
    day.mkdir(parents=True)
    files = sorted(source.glob("*.jsonl"))
    for file in files:
        name = file.name[file.name.index("rollout-") :] if "rollout-" in file.name else file.name
        shutil.copyfile(file, day / (name if name.startswith("rollout-") else f"rollout-{name}"))
    return len(files)


def _gemini(source: Path, home: Path) -> int:
    files = sorted(source.glob("*.json"))
    for number, file in enumerate(files):
        chats = home / ".gemini" / "tmp" / f"{number:064x}" / "chats"
        chats.mkdir(parents=True)
        shutil.copyfile(file, chats / f"session-{file.stem}.json")
    return len(files)


def _copilot(source: Path, home: Path) -> int:
    files = sorted(source.glob("*.events.jsonl"))
    for number, file in enumerate(files):
        folder = home / ".copilot" / "session-state" / f"session-{number}"
        folder.mkdir(parents=True)
        shutil.copyfile(file, folder / "events.jsonl")
    return len(files)


def _qwen(source: Path, home: Path) -> int:
    chats = home / ".qwen" / "projects" / "-home-ada-project" / "chats"
    chats.mkdir(parents=True)
    # The chats named by session id (the corpus's usage record and meta files are not chats).
    files = [file for file in sorted(source.glob("*.jsonl")) if file.stem.count("-") >= 6]
    for file in files:
        shutil.copyfile(file, chats / file.name[file.name.index("0.21.6-") + 7 :])
    return len(files)


def _opencode(source: Path, home: Path) -> int:
    data = home / ".local" / "share" / "opencode"
    data.mkdir(parents=True)
    shutil.copyfile(next(source.glob("*.db")), data / "opencode.db")
    return 1  # at least one session in it


LAYOUTS: dict[str, Callable[[Path, Path], int]] = {
    "claude": _claude,
    "codex": _codex,
    "gemini": _gemini,
    "copilot": _copilot,
    "qwen": _qwen,
    "opencode": _opencode,
}


@pytest.mark.parametrize("cli", sorted(LAYOUTS))
def test_every_session_of_a_real_layout_is_found(cli: str, tmp_path: Path) -> None:
    source = corpus_path("real-sessions", cli)
    registry = Registry()
    home = tmp_path / "home"
    environ = {"LINEWISE_CACHE_DIR": str(tmp_path / "cache")}
    from linewise.sessions import known_stores

    if not any(
        store.cli == cli for _, store in known_stores(registry=registry, environ=environ, home=home)
    ):
        pytest.skip(f"no installed parser declares a session store for {cli} yet")
    expected = LAYOUTS[cli](source, home)
    found = find_sessions(cli=cli, registry=registry, environ=environ, home=home)
    if cli == "opencode":
        assert len(found) >= expected
    else:
        assert len(found) == expected, [info.path for info in found]
    for info in found:
        assert info.problem is None, (info.path, info.problem)
        assert info.id and info.cli == cli, info.path
    # Read through the parser: messages counted (a metadata-only file may have none).
    assert any(info.messages > 0 for info in found)
