"""Fake homes for linewise serve's tests: Claude sessions written here, or the corpus's laid out."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from support import corpus_path


def _record(kind: str, sid: str, cwd: str, ts: str, message: dict[str, Any]) -> str:
    return json.dumps(
        {
            "type": kind,
            "sessionId": sid,
            "cwd": cwd,
            "timestamp": ts,
            "uuid": f"{kind}-{ts}",
            "message": message,
        }
    )


def claude_lines(
    sid: str,
    *,
    cwd: str = "/home/ada/alpha",
    day: str = "2026-03-01",
    prompt: str = "list the files please",
    tool_output: str = "notes.txt",
    answer: str = "Done.",
    model: str = "claude-sonnet-4-5",
    start: int = 0,
) -> list[str]:
    """A short Claude Code session: a prompt, a Bash call and its result, an answer."""

    def ts(second: int) -> str:
        return f"{day}T10:{(start + second) // 60:02d}:{(start + second) % 60:02d}.000Z"

    usage = {"input_tokens": 10, "output_tokens": 5}
    tool = f"toolu_{sid[:8]}_{start}"
    return [
        _record("user", sid, cwd, ts(0), {"role": "user", "content": prompt}),
        _record(
            "assistant",
            sid,
            cwd,
            ts(1),
            {
                "id": f"msg_{start}a",
                "role": "assistant",
                "model": model,
                "content": [
                    {"type": "tool_use", "id": tool, "name": "Bash", "input": {"command": "ls"}}
                ],
                "usage": usage,
            },
        ),
        _record(
            "user",
            sid,
            cwd,
            ts(2),
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": tool, "content": tool_output}],
            },
        ),
        _record(
            "assistant",
            sid,
            cwd,
            ts(3),
            {
                "id": f"msg_{start}b",
                "role": "assistant",
                "model": model,
                "content": [{"type": "text", "text": answer}],
                "usage": usage,
            },
        ),
    ]


def write_claude(home: Path, sid: str, **options: Any) -> Path:
    """Write a Claude session into ``home``'s store; returns its file."""
    cwd = options.get("cwd", "/home/ada/alpha")
    folder = home / ".claude" / "projects" / cwd.replace("/", "-")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{sid}.jsonl"
    path.write_text("\n".join(claude_lines(sid, **options)) + "\n", encoding="utf-8")
    return path


def _copy_tree(source: Path, target: Path) -> None:
    for file in sorted(source.rglob("*")):
        if file.is_file():
            where = target / file.relative_to(source)
            where.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(file, where)


def corpus_home(home: Path) -> None:
    """The corpus's real sessions laid out as each CLI keeps them (skips without the corpus)."""
    real = corpus_path("real-sessions")
    _copy_tree(real / "claude", home / ".claude" / "projects" / "-home-ada-project")
    day = home / ".codex" / "sessions" / "2025" / "09" / "25"
    day.mkdir(parents=True)
    for file in sorted((real / "codex").glob("*.jsonl")):
        name = file.name[file.name.index("rollout-") :] if "rollout-" in file.name else file.name
        shutil.copyfile(file, day / (name if name.startswith("rollout-") else f"rollout-{name}"))
    for number, file in enumerate(sorted((real / "gemini").glob("*.json"))):
        chats = home / ".gemini" / "tmp" / f"{number:064x}" / "chats"
        chats.mkdir(parents=True)
        shutil.copyfile(file, chats / f"session-{file.stem}.json")
    for number, file in enumerate(sorted((real / "copilot").glob("*.events.jsonl"))):
        folder = home / ".copilot" / "session-state" / f"session-{number}"
        folder.mkdir(parents=True)
        shutil.copyfile(file, folder / "events.jsonl")
    chats = home / ".qwen" / "projects" / "-home-ada-project" / "chats"
    chats.mkdir(parents=True)
    for file in sorted((real / "qwen").glob("*.jsonl")):
        if file.stem.count("-") >= 6:
            shutil.copyfile(file, chats / file.name[file.name.index("0.21.6-") + 7 :])
    data = home / ".local" / "share" / "opencode"
    data.mkdir(parents=True)
    shutil.copyfile(next((real / "opencode").glob("*.db")), data / "opencode.db")
