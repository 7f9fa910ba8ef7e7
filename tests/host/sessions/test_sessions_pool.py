"""The first listing reads sessions in a pool of processes: the same facts, and a crash is one session's.

A plugin whose parser kills its worker process (here: ``os._exit`` on a
``die`` record, as a segfault or the kernel's OOM killer would) costs that
session, listed unread with the reason; every other session is listed as the
in-process reading lists it, and nothing a plugin prints reaches the listing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from linewise import Registry
from linewise.sessions import find_sessions
from session_fakes import TINY, records, write_tiny, write_tinydb
from support import FakeSite

# The tiny plugin, and two more records: one kills the process reading it, one prints.
CRASHY = TINY.replace(
    '        if kind == "boom":',
    '        if kind == "die":\n'
    "            import os\n"
    "            os._exit(7)\n"
    '        if kind == "shout":\n'
    '            print("plugin noise on stdout")\n'
    '            return [{"kind": "assistant", "ts": ts, "text": "shouted"}]\n'
    '        if kind == "boom":',
)
assert CRASHY != TINY


@pytest.fixture
def registry(fake_site: FakeSite) -> Registry:
    fake_site.add(
        "crashy-sessions",
        entry_points={"tiny_session": "crashy_session_mod"},
        requires=["linewise-contracts>=1.2,<2"],
        modules={"crashy_session_mod": CRASHY},
    )
    from session_fakes import TINYDB

    fake_site.add(
        "tinydb-sessions",
        entry_points={"tinydb_session": "tinydb_session_mod"},
        requires=["linewise-contracts>=1.2,<2"],
        modules={"tinydb_session_mod": TINYDB},
    )
    return Registry(entry_points=fake_site.entry_points())


@pytest.fixture
def home(tmp_path: Path) -> Path:
    found = tmp_path / "home"
    found.mkdir()
    return found


def _sessions(home: Path, count: int) -> None:
    for number in range(count):
        write_tiny(
            home,
            f"p{number % 4}",
            f"s-{number:03d}",
            end=f"2026-02-{1 + number % 28:02d}T10:00:00Z",
            prompt=f"task {number}",
        )


def _die(home: Path, session_id: str) -> Path:
    path = home / ".tiny" / "sessions" / "p0" / f"{session_id}.jsonl"
    items = records(session_id)
    items.insert(2, {"t": "die"})
    path.write_text("".join(json.dumps(item) + "\n" for item in items))
    return path


def _listing(
    registry: Registry, home: Path, tmp_path: Path, workers: int, cache: str
) -> list[dict[str, object]]:
    found = find_sessions(
        registry=registry,
        environ={"LINEWISE_CACHE_DIR": str(tmp_path / cache)},
        home=home,
        workers=workers,
    )
    return [info.to_json() for info in found]


def test_a_pool_lists_the_same_facts_as_one_process(
    registry: Registry, home: Path, tmp_path: Path
) -> None:
    _sessions(home, 70)  # several chunks per worker
    write_tinydb(
        home,
        {
            "k1": records("db-1", cli="tinydb"),
            "bad": 5,  # type: ignore[dict-item]  # session_records fails on it
        },
    )
    alone = _listing(registry, home, tmp_path, 1, "one")
    failures = registry.call_failures.count
    pooled = _listing(registry, home, tmp_path, 2, "two")
    assert pooled == alone and len(pooled) == 72
    # The failure in a worker is recorded here, as reading it here records it.
    assert registry.call_failures.count == failures + 1
    assert any(row["problem"] for row in pooled)
    # And what the pool read is cached: listed again, nothing is read.
    assert _listing(registry, home, tmp_path, 2, "two") == alone


def test_a_session_that_kills_its_worker_is_reported_and_the_others_listed(
    registry: Registry, home: Path, tmp_path: Path
) -> None:
    _sessions(home, 40)
    crash = _die(home, "s-crash")
    found = find_sessions(
        registry=registry,
        environ={"LINEWISE_CACHE_DIR": str(tmp_path / "cache")},
        home=home,
        workers=2,
    )
    by_id = {info.id: info for info in found}
    assert len(found) == 41
    (crashed,) = [info for info in found if info.problem]
    assert crashed.path == str(crash) and crashed.status == "unknown"
    assert "stopped the worker process" in (crashed.problem or "")
    for number in range(40):
        info = by_id[f"s-{number:03d}"]
        assert (info.problem, info.first_prompt, info.messages) == (None, f"task {number}", 2)
    # Not cached as read: tried again (and reported again) next time; the others are cached.
    again = find_sessions(
        registry=registry,
        environ={"LINEWISE_CACHE_DIR": str(tmp_path / "cache")},
        home=home,
        workers=2,
    )
    assert [info.path for info in again if info.problem] == [str(crash)]


def test_the_cli_warns_of_the_crashed_session_and_lists_the_rest(
    registry: Registry,
    home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import linewise.plugins.registry
    import linewise.sessions._find
    from linewise.cli import main

    _sessions(home, 12)
    crash = _die(home, "s-crash")
    shouting = home / ".tiny" / "sessions" / "p1" / "s-shout.jsonl"
    items = records("s-shout")
    items.insert(2, {"t": "shout"})
    shouting.write_text("".join(json.dumps(item) + "\n" for item in items))
    monkeypatch.setattr(linewise.plugins.registry, "_default", registry)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("LINEWISE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TINY_HOME", raising=False)
    # A pool even for a handful of sessions (a real home has thousands).
    monkeypatch.setattr(linewise.sessions._find, "POOL_SESSIONS", 2)

    code = main(["sessions", "--json"])
    out, err = capsys.readouterr()

    assert code == 0
    rows = json.loads(out)["sessions"]  # the plugin's print went elsewhere, not into the JSON
    assert len(rows) == 14 and "plugin noise" not in out
    assert f"{crash}: not read: reading it stopped the worker process" in err
    assert sum(1 for row in rows if row["problem"]) == 1


@pytest.mark.usefixtures("registry")  # the tiny and tinydb plugins, in fake_site
def test_what_workers_warn_of_is_printed_once_as_one_process_prints_it(
    fake_site: FakeSite,
    home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import linewise.plugins.registry
    import linewise.sessions._find
    from linewise.cli import main
    from usage_fakes import install_meter, message, write_meter

    install_meter(fake_site)
    registry = Registry(entry_points=fake_site.entry_points())
    for number in range(12):  # tokens of a model no price table knows: each worker warns
        calls = [message("2026-02-01T10:00:00Z", "pool-model-nobody-prices", out=5, **{"in": 9})]
        write_meter(home, "p", f"m-{number:02d}", calls)
    write_tinydb(home, {"bad": 5})  # type: ignore[dict-item]  # a call failure, in a worker
    monkeypatch.setattr(linewise.plugins.registry, "_default", registry)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("LINEWISE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(linewise.sessions._find, "POOL_SESSIONS", 2)

    code = main(["sessions"])
    _, err = capsys.readouterr()

    assert code == 0
    assert err.count("cost unknown for pool-model-nobody-prices") == 1, err
    assert err.count("warning: tinydb_session: session_records raised TypeError") == 1, err
