"""Store records are bounded like stdout lines: one 200 MB record cannot take `sessions` or
`render ID` past a few hundred MB; the record is cut, shown with its marker, and the rest read.

The commands run in a child with its address space capped (the test's own limit), so a
record read whole fails with MemoryError or worse instead of taking the machine's memory.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from bounded import run_bounded
from support import FakeSite

SESSION = "0b5c3c2e-3f1a-4d6e-9a7b-1c2d3e4f5a6b"
# The commands need under 150 MiB here; a 200 MB record read whole needs several times that.
MEMORY_MIB = 512
RECORD_MIB = 200

_CLI = """
import sys
from linewise.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("home")
    project = home / ".claude" / "projects" / "-work-demo"
    project.mkdir(parents=True)
    first = {
        "type": "user",
        "sessionId": SESSION,
        "cwd": "/work/demo",
        "timestamp": "2026-01-01T00:00:00Z",
        "message": {"role": "user", "content": "hello"},
    }
    last = {**first, "timestamp": "2026-01-01T00:00:02Z"}
    last["message"] = {"role": "user", "content": "after the big one"}
    with (project / f"{SESSION}.jsonl").open("w", encoding="utf-8") as handle:
        handle.write(json.dumps(first) + "\n")
        handle.write('{"type":"assistant","message":{"role":"assistant","content":"')
        chunk = "a" * (1 << 20)
        for _ in range(RECORD_MIB):
            handle.write(chunk)
        handle.write('"}}\n' + json.dumps(last) + "\n")
    return home


def _linewise(home: Path, *args: str) -> tuple[int | None, str, str]:
    env = {**os.environ, "HOME": str(home), "LINEWISE_CACHE_DIR": str(home / "cache")}
    env.pop("CLAUDE_CONFIG_DIR", None)
    ended = run_bounded(_CLI, timeout=300, memory_mib=MEMORY_MIB, env=env, args=args)
    return ended.returncode, ended.stdout, ended.stderr


def test_sessions_lists_a_session_with_a_huge_record_in_bounded_memory(home: Path) -> None:
    code, out, err = _linewise(home, "sessions", "--json", "--no-cache")
    assert code == 0, err[-3000:]
    [info] = json.loads(out)["sessions"]
    assert info["id"] == SESSION
    assert info["problem"] is None
    assert info["messages"] == 2  # the one before it and the one after it


def test_render_of_a_session_with_a_huge_record_cuts_it_and_shows_the_rest(home: Path) -> None:
    code, out, err = _linewise(home, "render", SESSION, "-f", "text")
    assert code == 0, err[-3000:]
    assert "after the big one" in out
    assert "1 cut (too long)" in err


def test_what_a_plugin_yields_past_the_bound_reaches_the_parser_one_over_it(
    fake_site: FakeSite, tmp_path: Path
) -> None:
    from linewise import Registry
    from linewise.sessions.records import session_lines
    from linewise_contracts.sessions import MAX_RECORD_CHARS

    fake_site.add(
        "huge-yield",
        entry_points={"huge_yield": "huge_yield_mod"},
        requires=["linewise-contracts>=1.2,<2"],
        modules={
            "huge_yield_mod": "def parse_stdout_line(line, ts):\n"
            "    return [{'kind': 'assistant', 'ts': ts, 'text': line}]\n"
            "def session_stores(environ, home):\n"
            "    return []\n"
            "def session_records(path, key=None):\n"
            f"    yield 'x' * {MAX_RECORD_CHARS + 500}\n"
            "    yield 'after'\n"
        },
    )
    parser = Registry(entry_points=fake_site.entry_points()).load("huge_yield")
    lines = list(session_lines(parser, tmp_path / "any.jsonl"))
    assert [len(line) for line in lines] == [MAX_RECORD_CHARS + 1, 5]
