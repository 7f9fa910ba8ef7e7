"""Session stores, host side: finding, facts, the cache, search and lookup, through fake plugins."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from linewise import Registry
from linewise.sessions import find_sessions, resolve_session, transcribe_session
from linewise.settings.errors import AmbiguousSessionError, SessionNotFoundError
from session_fakes import install, records, write_tiny, write_tinydb
from support import FakeSite


@pytest.fixture
def registry(fake_site: FakeSite) -> Registry:
    install(fake_site)
    return Registry(entry_points=fake_site.entry_points())


@pytest.fixture
def home(tmp_path: Path) -> Path:
    found = tmp_path / "home"
    found.mkdir()
    return found


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return {"LINEWISE_CACHE_DIR": str(tmp_path / "cache"), **extra}


def test_every_session_of_every_store_is_found_newest_first(
    registry: Registry, home: Path, tmp_path: Path
) -> None:
    write_tiny(home, "p1", "s-old", start="2026-01-01T10:00:00Z", end="2026-01-01T11:00:00Z")
    write_tiny(home, "p2", "s-new", start="2026-02-01T10:00:00Z", end="2026-02-01T11:00:00Z")
    # A subagent's file beside a session is not a session of its own.
    sub = home / ".tiny" / "sessions" / "p2" / "s-new" / "sub-1.jsonl"
    sub.parent.mkdir()
    sub.write_text("{}\n")
    write_tinydb(
        home,
        {
            "k1": records("db-1", cli="tinydb", end="2026-01-15T00:00:00Z"),
            "k2": records("db-2", cli="tinydb", end="2026-03-01T00:00:00Z", usage=None),
        },
    )
    found = find_sessions(registry=registry, environ=_env(tmp_path), home=home)
    assert [info.id for info in found] == ["db-2", "s-new", "db-1", "s-old"]
    newest = found[1]
    assert (newest.cli, newest.adapter_type, newest.project, newest.model) == (
        "tiny",
        "tiny_session",
        "/home/ada/project",
        "tiny-1",
    )
    assert (newest.started, newest.ended) == (
        "2026-02-01T10:00:00.000Z",
        "2026-02-01T11:00:00.000Z",
    )
    assert (newest.messages, newest.tool_calls, newest.first_prompt) == (2, 1, "fix the tests")
    assert (newest.input_tokens, newest.output_tokens, newest.cost_usd) == (100, 20, 0.5)
    assert newest.status == "complete"
    # No result record: tokens and cost are unknown, not zero.
    unknown = found[0]
    assert (unknown.key, unknown.input_tokens, unknown.cost_usd, unknown.status) == (
        "k2",
        None,
        None,
        "cut off",
    )


def test_the_clis_own_variable_moves_its_store(
    registry: Registry, home: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    write_tiny(elsewhere.parent / "fake", "p", "moved")  # not the store
    path = elsewhere / "sessions" / "p" / "there.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records("there")))
    write_tiny(home, "p", "default-place")
    found = find_sessions(
        registry=registry, environ=_env(tmp_path, TINY_HOME=str(elsewhere)), home=home
    )
    assert [info.id for info in found] == ["there"]


def test_filters_cli_project_since_search_and_limit(
    registry: Registry, home: Path, tmp_path: Path
) -> None:
    write_tiny(
        home, "a", "s-a", cwd="/work/alpha", end="2026-01-01T00:00:00Z", reply="Banana split"
    )
    write_tiny(home, "b", "s-b", cwd="/work/beta", end="2026-02-01T00:00:00Z", prompt="apple pie")
    write_tinydb(home, {"k": records("db", cli="tinydb", end="2026-03-01T00:00:00Z")})
    env = _env(tmp_path)

    def ids(**query: object) -> list[str]:
        found = find_sessions(registry=registry, environ=env, home=home, **query)  # type: ignore[arg-type]
        return [info.id for info in found]

    assert ids(cli="tiny") == ["s-b", "s-a"]
    assert ids(cli="TinyDB") == ["db"]
    assert ids(project="ALPHA") == ["s-a"]
    assert ids(since="2026-01-15") == ["db", "s-b"]
    assert ids(search="banana") == ["s-a"]  # assistant text
    assert ids(search="APPLE PIE") == ["s-b"]  # user text
    assert ids(search="nowhere") == []
    assert ids(limit=1) == ["db"]
    with pytest.raises(ValueError, match="not a date"):
        ids(since="last tuesday")


def test_the_cache_is_private_reused_and_invalidated_by_a_change(
    registry: Registry, home: Path, tmp_path: Path
) -> None:
    path = write_tiny(home, "p", "s-1", prompt="first version")
    env = _env(tmp_path)
    assert find_sessions(registry=registry, environ=env, home=home)[0].first_prompt == (
        "first version"
    )
    cache = tmp_path / "cache" / "sessions.sqlite3"
    assert stat.S_IMODE(cache.stat().st_mode) == 0o600
    # Same size and mtime: the cached facts are used (the file is not read again).
    original = path.stat()
    path.write_text(path.read_text().replace("first version", "other version"))
    os.utime(path, ns=(original.st_atime_ns, original.st_mtime_ns))
    assert find_sessions(registry=registry, environ=env, home=home)[0].first_prompt == (
        "first version"
    )
    # A newer mtime: read again.
    os.utime(path, ns=(original.st_atime_ns, original.st_mtime_ns + 10**9))
    assert find_sessions(registry=registry, environ=env, home=home)[0].first_prompt == (
        "other version"
    )
    # Searching uses the cached text, and sees the new one.
    assert find_sessions(registry=registry, environ=env, home=home, search="other")


def test_a_corrupt_or_unwritable_cache_costs_speed_not_results(
    registry: Registry, home: Path, tmp_path: Path
) -> None:
    write_tiny(home, "p", "s-1")
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    (cache_dir / "sessions.sqlite3").write_bytes(b"not a database at all" * 100)
    assert [i.id for i in find_sessions(registry=registry, environ=_env(tmp_path), home=home)] == [
        "s-1"
    ]
    blocked = tmp_path / "file-not-dir"
    blocked.write_text("")
    env = {"LINEWISE_CACHE_DIR": str(blocked / "cache")}
    assert [i.id for i in find_sessions(registry=registry, environ=env, home=home)] == ["s-1"]


def test_a_plugin_failing_part_way_is_reported_not_hidden(
    registry: Registry, home: Path, tmp_path: Path
) -> None:
    write_tinydb(home, {"bad": 5, "good": records("db", cli="tinydb")})  # type: ignore[dict-item]
    found = find_sessions(registry=registry, environ=_env(tmp_path), home=home)
    by_key = {info.key: info for info in found}
    assert by_key["good"].problem is None and by_key["good"].messages == 2
    problem = by_key["bad"].problem or ""
    assert "session_records raised TypeError" in problem and "after 0 lines" in problem
    # Not cached: read again next time (the plugin may be fixed without a new version).
    failures = registry.call_failures.count
    find_sessions(registry=registry, environ=_env(tmp_path), home=home)
    assert registry.call_failures.count == failures + 1


def test_a_broken_store_declaration_is_recorded_and_others_still_listed(
    fake_site: FakeSite, home: Path, tmp_path: Path
) -> None:
    install(fake_site)
    fake_site.add(
        "broken-stores",
        entry_points={"broken_session": "broken_mod"},
        modules={
            "broken_mod": """
            def parse_stdout_line(line, ts):
                return []
            def session_stores(environ, home):
                raise RuntimeError("no stores today")
            """
        },
    )
    registry = Registry(entry_points=fake_site.entry_points())
    write_tiny(home, "p", "s-1")
    found = find_sessions(registry=registry, environ=_env(tmp_path), home=home)
    assert [info.id for info in found] == ["s-1"]
    problems = registry.info("broken_session").problems
    assert any("no stores today" in problem for problem in problems)


def test_lookup_by_id_prefix_and_clear_errors(
    registry: Registry, home: Path, tmp_path: Path
) -> None:
    write_tiny(home, "p", "abc-111")
    write_tiny(home, "p", "abc-222")
    env = _env(tmp_path)
    source = resolve_session("abc-1", registry=registry, environ=env, home=home)
    assert (source.adapter_type, source.path.name) == ("tiny_session", "abc-111.jsonl")
    with pytest.raises(AmbiguousSessionError) as ambiguous:
        resolve_session("abc", registry=registry, environ=env, home=home)
    assert "abc-111" in str(ambiguous.value) and "abc-222" in str(ambiguous.value)
    with pytest.raises(SessionNotFoundError, match="linewise sessions"):
        resolve_session("zzz", registry=registry, environ=env, home=home)


def test_transcribe_session_by_id_key_and_path(
    registry: Registry, home: Path, tmp_path: Path
) -> None:
    path = write_tiny(home, "p", "s-1", prompt="key sk-live-0123456789 here")
    write_tinydb(home, {"k9": records("db-9", cli="tinydb")})
    env = _env(tmp_path, MY_API_KEY="sk-live-0123456789")
    by_id = transcribe_session("s-1", registry=registry, environ=env, home=home)
    assert [e["kind"] for e in by_id.entries] == [
        "init",
        "user",
        "tool_call",
        "tool_result",
        "assistant",
        "result",
    ]
    assert by_id.entries[0]["ts"] == "2026-03-01T10:05:00Z"  # the record's own time
    assert "sk-live" not in by_id.entries[1]["text"]  # type: ignore[typeddict-item]
    by_path = transcribe_session(path, registry=registry, environ=env, home=home)
    assert by_path.adapter_type == "tiny_session"
    by_key = transcribe_session("k9", registry=registry, environ=env, home=home)
    assert by_key.entries[0]["sessionId"] == "db-9"  # type: ignore[typeddict-item]
    assert by_key.diagnostics.accounted


@pytest.mark.parametrize(
    ("relative", "pattern", "matches"),
    [
        ("p/s/sub-1.jsonl", "*/*/sub-*.jsonl", True),
        ("p/s.jsonl", "*/*/sub-*.jsonl", False),
        ("p/s/subagents/agent-1.jsonl", "**/subagents/*.jsonl", True),
        ("subagents/agent-1.jsonl", "**/subagents/*.jsonl", True),  # ** spans no folder too
        ("a/b/c/d.jsonl", "a/**/d.jsonl", True),
        ("a/d.jsonl", "a/**/d.jsonl", True),
        ("a/b/x.jsonl", "a/**/d.jsonl", False),
        ("p/s.jsonl", "*.jsonl", False),  # * stays within one folder
    ],
)
def test_exclude_patterns_match_like_glob(relative: str, pattern: str, matches: bool) -> None:
    from linewise.sessions._stores import excluded

    assert excluded(relative, (pattern,)) is matches


def test_exports_that_are_not_callable_or_fail_at_once_are_recorded(
    fake_site: FakeSite, home: Path, tmp_path: Path
) -> None:
    fake_site.add(
        "odd-sessions",
        entry_points={"odd_session": "odd_mod"},
        modules={
            "odd_mod": """
            from linewise_contracts.sessions import SessionStore
            def parse_stdout_line(line, ts):
                return [{"kind": "user", "ts": ts, "text": line}]
            session_keys = 5
            def session_stores(environ, home):
                return [SessionStore("odd", home / ".odd", ("*.log",)), "not a store",
                        SessionStore("odd", home, ("../*.log",))]
            def session_records(path, key=None):
                raise OSError("locked database")
            """
        },
    )
    registry = Registry(entry_points=fake_site.entry_points())
    loaded = registry.load("odd_session")
    assert loaded.session_keys is None and loaded.session_records is not None
    (home / ".odd").mkdir()
    (home / ".odd" / "a.log").write_text("hello\n")
    (found,) = find_sessions(registry=registry, environ=_env(tmp_path), home=home)
    assert found.problem is not None and "locked database" in found.problem
    problems = "\n".join(registry.info("odd_session").problems)
    assert "session_keys is a int, not callable" in problems
    assert "not a SessionStore" in problems and "leaves its root" in problems


def test_a_file_two_stores_claim_is_listed_once(
    fake_site: FakeSite, home: Path, tmp_path: Path
) -> None:
    from session_fakes import TINY

    install(fake_site)
    fake_site.add(
        "tiny-again",
        entry_points={"tiny_again": "tiny_again_mod"},
        modules={"tiny_again_mod": TINY},
    )
    registry = Registry(entry_points=fake_site.entry_points())
    write_tiny(home, "p", "s-1")
    found = find_sessions(registry=registry, environ=_env(tmp_path), home=home)
    assert [(info.id, info.adapter_type) for info in found] == [("s-1", "tiny_again")]


def test_sessions_read_before_a_ctrl_c_are_cached(
    registry: Registry, home: Path, tmp_path: Path
) -> None:
    for number in range(3):
        write_tiny(home, "p", f"s-{number}")
    env = _env(tmp_path)

    def interrupt(done: int, total: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        find_sessions(registry=registry, environ=env, home=home, progress=interrupt)
    read: list[int] = []
    found = find_sessions(
        registry=registry, environ=env, home=home, progress=lambda done, total: read.append(done)
    )
    assert len(found) == 3 and len(read) == 2  # the first one came from the cache


def _untimed(path: Path, *, keep: int = 0) -> None:
    """Drop the time of every record of ``path`` except the first ``keep``."""
    items = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for item in items[keep:]:
        item.pop("ts", None)
    path.write_text("".join(json.dumps(item) + "\n" for item in items), encoding="utf-8")


def test_a_session_whose_records_carry_no_time_is_dated_by_its_file_and_says_so(
    registry: Registry, home: Path, tmp_path: Path
) -> None:
    path = write_tiny(home, "p1", "s-untimed")
    _untimed(path)
    os.utime(path, ns=(1_767_225_600_000_000_000,) * 2)  # 2026-01-01T00:00:00Z
    (info,) = find_sessions(registry=registry, environ=_env(tmp_path), home=home)
    assert (info.started, info.ended) == ("2026-01-01T00:00:00.000Z",) * 2
    assert info.times_from == "file" and info.to_json()["timesFrom"] == "file"


def test_records_with_times_are_never_dated_later_by_the_files_modification_time(
    registry: Registry, home: Path, tmp_path: Path
) -> None:
    """Timed records then untimed ones: the span is the records' own, not the file's time."""
    path = write_tiny(home, "p1", "s-mixed", start="2026-02-01T10:00:00Z")
    _untimed(path, keep=2)
    os.utime(path, ns=(1_798_761_600_000_000_000,) * 2)  # 2027-01-01, long after
    (info,) = find_sessions(registry=registry, environ=_env(tmp_path), home=home)
    assert (info.started, info.ended) == ("2026-02-01T10:00:00.000Z",) * 2
    assert info.times_from == "records"
