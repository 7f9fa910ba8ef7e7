"""``linewise sessions``, and ``render`` / ``summarize`` of stored sessions, through fake plugins."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from linewise import Registry
from linewise.cli import main
from session_fakes import install, jsonl, records, write_tiny, write_tinydb
from support import FakeSite


@pytest.fixture
def home(fake_site: FakeSite, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake home with the fake session plugins as the process's registry."""
    import linewise.plugins.registry

    install(fake_site)
    monkeypatch.setattr(
        linewise.plugins.registry, "_default", Registry(entry_points=fake_site.entry_points())
    )
    found = tmp_path / "home"
    found.mkdir()
    monkeypatch.setenv("HOME", str(found))
    monkeypatch.setenv("LINEWISE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TINY_HOME", raising=False)
    return found


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_table_lists_sessions_newest_first_with_unknowns(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_tiny(home, "p", "s-old", end="2026-01-01T00:00:00Z", cwd="/home/ada/old-project")
    write_tiny(home, "p", "s-new", end="2026-02-01T00:00:00Z", usage=None, prompt="what now?")
    code, out, err = _run(capsys, "sessions")
    assert (code, err) == (0, "")
    header, newest, oldest, legend = out.splitlines()
    assert header.split()[:4] == ["LAST-ACTIVE", "CLI", "ID", "PROJECT"]
    assert newest.startswith("2026-02-01 00:00  tiny  s-new")
    assert "unknown  unknown" in newest and newest.endswith("what now?")  # tokens, cost
    assert "120  $0.5000  success" in oldest and "old-project" in oldest
    assert "linewise render ID" in legend


def test_json_filters_and_privacy(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SERVICE_TOKEN", "tok-0123456789abcdef")
    write_tiny(home, "p", "s-1", cwd="/Users/dotta/app", prompt="use tok-0123456789abcdef")
    write_tinydb(home, {"k": records("db", cli="tinydb", reply="the needle is here")})
    code, out, _ = _run(capsys, "sessions", "--json", "--cli", "tiny", "--censor-usernames")
    assert code == 0
    (row,) = json.loads(out)["sessions"]
    assert (row["id"], row["cli"], row["adapterType"]) == ("s-1", "tiny", "tiny_session")
    assert row["project"] == "/Users/d****/app"
    assert "tok-0123456789abcdef" not in out and "***" in row["firstPrompt"]
    code, out, _ = _run(capsys, "sessions", "--json", "--search", "NEEDLE")
    assert [r["id"] for r in json.loads(out)["sessions"]] == ["db"]
    code, _, err = _run(capsys, "sessions", "--since", "someday")
    assert code == 2 and "not a date" in err


def test_no_sessions_says_where_it_looked(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "sessions")
    assert (code, out) == (0, "")
    assert err.splitlines() == [
        "linewise: no sessions found; looked in:",
        f"linewise:   {home}/.tiny/sessions (*/*.jsonl, */*/*.jsonl; tiny_session)",
        f"linewise:   {home}/.tinydb (store.json; tinydb_session)",
    ]
    code, out, err = _run(capsys, "sessions", "--cli", "copilot")
    assert code == 0 and "no installed parser declares a session store for copilot" in err


def test_render_and_summarize_by_id_prefix(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_tiny(home, "p", "abc-111", prompt="hello there")
    write_tiny(home, "p", "abc-222")
    code, out, _ = _run(capsys, "render", "abc-1", "-f", "jsonl", "-q")
    assert code == 0
    entries = [json.loads(line) for line in out.splitlines()]
    assert entries[0] == {
        "kind": "init",
        "ts": "2026-03-01T10:05:00Z",
        "model": "tiny-1",
        "sessionId": "abc-111",
        "cwd": "/home/ada/project",
    }
    assert entries[1]["text"] == "hello there"
    code, _, err = _run(capsys, "render", "abc-2")
    assert (
        code == 0
        and f"linewise: session abc-222 of tiny: {home}/.tiny/sessions/p/abc-222.jsonl" in err
    )
    code, _, err = _run(capsys, "render", "abc")
    assert code == 1 and "matches 2 sessions" in err and "abc-222" in err
    code, _, err = _run(capsys, "render", "nothing-like-it")
    assert code == 1 and "no file and no session 'nothing-like-it'" in err
    code, out, _ = _run(capsys, "summarize", "abc-2", "--json")
    (run,) = json.loads(out)["runs"]
    assert (run["adapterType"], run["status"], run["toolCalls"]) == ("tiny_session", "complete", 1)
    assert run["summary"]["sessionId"] == "abc-222"


def test_render_a_store_file_through_its_session_records(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = write_tinydb(home, {"k": records("db-1", cli="tinydb", prompt="from the store")})
    # Not lines the parser reads: the sniffers do not know it, its store's layout does.
    code, out, err = _run(capsys, "render", str(store), "-f", "jsonl")
    assert code == 0, err
    assert "detected tinydb_session: the file is in its session store" in err
    assert [json.loads(line)["kind"] for line in out.splitlines()][:2] == ["init", "user"]
    code, out, _ = _run(capsys, "render", str(store), "-a", "tinydb_session", "-f", "jsonl", "-q")
    assert json.loads(out.splitlines()[1])["text"] == "from the store"


def test_follow_of_a_store_file_renders_it_and_ctrl_c_exits_0(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    store = write_tinydb(home, {"k": records("db-1", cli="tinydb", prompt="from the store")})

    def ctrl_c(_: float) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("linewise.sessions.follow.time.sleep", ctrl_c)
    code, out, err = _run(capsys, "render", str(store), "--follow", "-f", "jsonl", "-q")
    assert code == 0, err
    assert [json.loads(line)["kind"] for line in out.splitlines()][:2] == ["init", "user"]


def test_render_a_copied_session_file_is_detected(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / "copied.jsonl"
    copy.write_text(jsonl(records("s-9")))
    code, out, err = _run(capsys, "render", str(copy), "-f", "jsonl")
    assert code == 0 and "detected tiny_session" in err
    assert [json.loads(line)["kind"] for line in out.splitlines()] == [
        "init",
        "user",
        "tool_call",
        "tool_result",
        "assistant",
        "result",
    ]


def test_render_with_a_type_reads_no_session_store_code(tmp_path: Path) -> None:
    """Only ``sessions.inputs`` (is this input a stored session?) and the package's lazy
    names are imported: nothing that finds, caches or reads session stores."""
    log = tmp_path / "run.log"
    log.write_text("hello\n")
    code = (
        "import sys; from linewise.cli import main\n"
        f"main(['render', {str(log)!r}, '-a', 'process', '-q'])\n"
        "print(sorted(m for m in sys.modules if m.startswith('linewise.sessions')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "['linewise.sessions', 'linewise.sessions.inputs']"


def test_summarize_an_unknown_id_is_reported_like_a_missing_file(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_tiny(home, "p", "s-1")
    code, out, err = _run(capsys, "summarize", "no-such-session", "s-1")
    assert code == 1
    assert "cannot read no-such-session" in err
    assert out.splitlines()[1].split()[:2] == ["s-1", "tiny_session"]


def test_the_table_shows_each_id_by_its_shortest_unique_prefix() -> None:
    from linewise.cli.commands.sessions import unique_prefixes

    ids = ["rollout-2025-09-25-aaa", "rollout-2025-09-25-abb", "4cda4f2a-53e7", "4cda", "x" * 40]
    assert unique_prefixes(ids) == {
        "rollout-2025-09-25-aaa": "rollout-2025-09-25-aa",
        "rollout-2025-09-25-abb": "rollout-2025-09-25-ab",
        "4cda4f2a-53e7": "4cda4f2a",
        "4cda": "4cda",
        "x" * 40: "x" * 8,
    }


def test_live_lists_only_the_sessions_being_written_now(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import os
    import time

    write_tiny(home, "p", "s-writing", end="2026-02-01T00:00:00Z")
    done = write_tiny(home, "p", "s-done", end="2026-02-02T00:00:00Z")
    hour_ago = time.time() - 3600
    os.utime(done, (hour_ago, hour_ago))
    code, out, err = _run(capsys, "sessions", "--live")
    assert (code, err) == (0, "")
    rows = out.splitlines()[1:-1]
    assert len(rows) == 1 and rows[0].startswith("2026-02-01 00:00  tiny  s-w")
    os.utime(home / ".tiny" / "sessions" / "p" / "s-writing.jsonl", (hour_ago, hour_ago))
    code, out, err = _run(capsys, "sessions", "--live")
    assert (code, out) == (0, "")
    assert "no session is being written now" in err
