"""``render --follow`` of a stored session: each record once, in order, as its CLI writes it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from linewise.sessions.follow import follow_records

SCRIPT = Path(sys.executable).with_name("linewise")
SID = "0b6f7a52-5b7e-4c1e-9d43-6f2a9e1c8d11"
AGENT = "a81c"


def _record(
    kind: str, uuid: str, second: int, content: object, **extra: object
) -> dict[str, object]:
    record: dict[str, object] = {
        "type": kind,
        "uuid": uuid,
        "sessionId": SID,
        "cwd": "/work/app",
        "version": "2.1.3",
        "timestamp": f"2026-12-01T10:00:{second:02d}.000Z",
        "isSidechain": False,
        "message": {"role": kind, "content": content},
    }
    if kind == "assistant":
        record["message"] = {"role": "assistant", "model": "claude-opus-4-5", "content": content}
    record.update(extra)
    return record


def _sub(kind: str, uuid: str, second: int, content: object) -> dict[str, object]:
    return _record(kind, uuid, second, content, isSidechain=True, agentId=AGENT)


#: What the CLI writes, in order: (which file, the record). "main" is the session file,
#: "sub" the subagent's file, which appears midway.
WRITES: list[tuple[str, dict[str, object]]] = [
    ("main", _record("user", "u1", 1, "find the flaky test")),
    (
        "main",
        _record(
            "assistant",
            "a1",
            2,
            [
                {
                    "type": "tool_use",
                    "id": "toolu_task",
                    "name": "Task",
                    "input": {"prompt": "search tests", "subagent_type": "Explore"},
                }
            ],
        ),
    ),
    ("sub", _sub("user", "s1", 3, "search tests")),
    (
        "sub",
        _sub(
            "assistant",
            "s2",
            4,
            [
                {
                    "type": "tool_use",
                    "id": "toolu_grep",
                    "name": "Grep",
                    "input": {"pattern": "sleep"},
                }
            ],
        ),
    ),
    (
        "sub",
        _sub(
            "user",
            "s3",
            5,
            [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_grep",
                    "content": "tests/test_io.py:12",
                }
            ],
        ),
    ),
    ("sub", _sub("assistant", "s4", 6, [{"type": "text", "text": "test_io sleeps"}])),
    (
        "main",
        _record(
            "user",
            "u2",
            7,
            [{"type": "tool_result", "tool_use_id": "toolu_task", "content": "test_io sleeps"}],
            toolUseResult={"agentId": AGENT},
        ),
    ),
    ("main", _record("assistant", "a2", 8, [{"type": "text", "text": "It is test_io."}])),
]


def _session(tmp_path: Path) -> tuple[Path, Path]:
    project = tmp_path / "projects" / "-work-app"
    project.mkdir(parents=True)
    main = project / f"{SID}.jsonl"
    main.write_text("")
    return main, project / SID / "subagents" / f"agent-{AGENT}.jsonl"


def _write(main: Path, sub: Path, which: str, record: dict[str, object]) -> None:
    target = main if which == "main" else sub
    if which == "sub" and not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        meta = {"toolUseId": "toolu_task", "agentType": "Explore", "description": "search"}
        target.with_name(target.stem + ".meta.json").write_text(json.dumps(meta))
    with target.open("a") as stream:
        stream.write(json.dumps(record) + "\n")


def _listing(main: Path) -> Callable[[], list[str]]:
    from linewise import Registry
    from linewise.sessions.records import session_lines

    parser = Registry().load("claude_session")
    return lambda: list(session_lines(parser, main))


def test_a_followed_session_passes_each_record_on_once_in_the_order_written(
    tmp_path: Path,
) -> None:
    main, sub = _session(tmp_path)
    _write(main, sub, *WRITES[0])
    pending = list(WRITES[1:])

    def next_write(_: float) -> None:
        if pending:
            _write(main, sub, *pending.pop(0))

    lines: list[str] = []
    follower = follow_records(_listing(main), main, sleep=next_write)
    # Every write, then a few looks with nothing new: nothing is passed on twice.
    while pending or len(lines) < len(WRITES) + 2:
        lines.append(next(follower).decode().rstrip("\n"))
    follower.close()
    kinds = [json.loads(line)["type"] for line in lines]
    assert kinds[0] == "linewise-session"  # the header, made once, not again when the model came
    assert kinds.count("linewise-session") == 1
    assert kinds.count("linewise-subagent") == 1  # before the subagent file's first record
    uuids = [json.loads(line).get("uuid") for line in lines if json.loads(line).get("uuid")]
    assert uuids == [record["uuid"] for _, record in WRITES]


def test_a_record_half_written_is_passed_on_once_it_is_ended(tmp_path: Path) -> None:
    main, sub = _session(tmp_path)
    _write(main, sub, *WRITES[0])
    whole = json.dumps(WRITES[1][1]) + "\n"
    steps = [whole[:30], whole[30:]]

    def next_write(_: float) -> None:
        if steps:
            with main.open("a") as stream:
                stream.write(steps.pop(0))

    follower = follow_records(_listing(main), main, sleep=next_write)
    shown = [json.loads(next(follower)) for _ in range(3)]
    follower.close()
    assert [line.get("uuid") for line in shown[1:]] == ["u1", "a1"]


def test_a_rewritten_session_is_said_and_only_its_new_records_shown(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    main, sub = _session(tmp_path)
    for which, record in WRITES[:2]:
        _write(main, sub, which, record)
    steps = ["rewrite"]

    def next_write(_: float) -> None:
        if steps:
            steps.pop()
            # The file replaced by one holding its first record and a new one.
            replacement = main.with_name("new.jsonl")
            kept = json.dumps(WRITES[0][1]) + "\n" + json.dumps(WRITES[-1][1]) + "\n"
            replacement.write_text(kept)
            replacement.replace(main)

    follower = follow_records(_listing(main), main, sleep=next_write)
    shown = [json.loads(next(follower)) for _ in range(4)]
    follower.close()
    assert [line.get("uuid") for line in shown] == [None, "u1", "a1", "a2"]
    assert "was rewritten or replaced" in caplog.text


def _append_in_steps(main: Path, sub: Path, started: threading.Event) -> threading.Thread:
    def run() -> None:
        started.wait(20)
        for which, record in WRITES[1:]:
            time.sleep(0.3)
            _write(main, sub, which, record)

    thread = threading.Thread(target=run)
    thread.start()
    return thread


@pytest.mark.parametrize(("style", "by"), [("default", "file"), ("compact", "id")])
def test_render_follow_of_a_claude_session_shows_subagent_records_as_they_come_and_ctrl_c_exits_0(
    tmp_path: Path, style: str, by: str
) -> None:
    main, sub = _session(tmp_path)
    _write(main, sub, *WRITES[0])
    environ = {**os.environ, "HOME": str(tmp_path), "CLAUDE_CONFIG_DIR": str(tmp_path)}
    environ["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    reference = str(main) if by == "file" else SID[:8]
    process = subprocess.Popen(
        [str(SCRIPT), "render", reference, "--follow", "-s", style, "--color", "never"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environ,
    )
    output: list[bytes] = []
    started = threading.Event()

    def read() -> None:
        for line in iter(process.stdout.readline, b""):  # type: ignore[union-attr]
            output.append(line)
            started.set()

    reader = threading.Thread(target=read)
    reader.start()
    writer = _append_in_steps(main, sub, started)
    try:
        writer.join()
        deadline = time.monotonic() + 20
        while b"It is test_io." not in b"".join(output) and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=20)
        reader.join()
    shown = b"".join(output).decode()
    assert process.returncode == 0, err.decode()
    assert "Traceback" not in err.decode()
    # The compact style shows no prompts: the call that started the subagent stands first.
    if style == "default":
        first, grep, nested = "find the flaky test", "#2 Grep", "  │ tool_call   #2 Grep"
    else:
        first, grep, nested = "[Task: Explore]", "[Grep] sleep", "⤷ Explore · [Grep] sleep"
    for text in (first, grep, "tests/test_io.py:12", "It is test_io."):
        assert shown.count(text) == 1, text
    # In the order written: the prompt, the subagent's work (nested under its call), the answer.
    assert shown.index(first) < shown.index(grep) < shown.index("It is test_io.")
    assert nested in shown
    if style == "default":  # the main file's records after the subagent's are the main thread's
        assert "\nassistant   It is test_io." in shown
