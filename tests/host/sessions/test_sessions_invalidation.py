"""The facts cache at scale: a warm listing opens nothing unchanged, and every change is seen.

A session file that grew, shrank, was replaced or deleted is read again (or
dropped), a store file holding several sessions is opened for its keys only
when it changed, and store folders are walked as ``pathlib.Path.glob`` walks them.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from pathlib import Path

import pytest
from linewise import Registry
from linewise.sessions import find_sessions
from linewise_contracts.sessions import SessionStore
from session_fakes import install, jsonl, records, write_tiny, write_tinydb
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


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {"LINEWISE_CACHE_DIR": str(tmp_path / "cache")}


class Reads:
    """Counts the sessions read through their plugin (not taken from the cache)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import linewise.sessions._find

        self.paths: list[str] = []
        real = linewise.sessions._find.read_facts

        def counted(found, parser, registry):  # type: ignore[no-untyped-def]
            self.paths.append(found.path.name + (f"#{found.key}" if found.key else ""))
            return real(found, parser, registry)

        monkeypatch.setattr(linewise.sessions._find, "read_facts", counted)

    def take(self) -> list[str]:
        taken, self.paths = sorted(self.paths), []
        return taken


def _prompts(registry: Registry, env: dict[str, str], home: Path) -> dict[str, str | None]:
    return {
        info.id: info.first_prompt
        for info in find_sessions(registry=registry, environ=env, home=home)
    }


def test_a_warm_listing_reads_no_session_again(
    registry: Registry, home: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for number in range(5):
        write_tiny(home, f"p{number % 2}", f"s-{number}")
    reads = Reads(monkeypatch)
    cold = find_sessions(registry=registry, environ=env, home=home)
    assert len(reads.take()) == 5
    warm = find_sessions(registry=registry, environ=env, home=home)
    assert reads.take() == []
    assert warm == cold


def test_a_file_that_grew_shrank_or_was_replaced_is_read_again(
    registry: Registry, home: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    grows = write_tiny(home, "p", "grows", prompt="short")
    shrinks = write_tiny(home, "p", "shrinks", prompt="a long first prompt, to be cut")
    replaced = write_tiny(home, "p", "replaced", prompt="before")
    write_tiny(home, "p", "stays", prompt="same")
    reads = Reads(monkeypatch)
    _prompts(registry, env, home)
    reads.take()

    with grows.open("a") as handle:  # an appended record (a live session)
        handle.write(json.dumps({"t": "say", "text": "more", "ts": "2026-03-01T10:06:00Z"}) + "\n")
    shrinks.write_text(jsonl(records("shrinks", prompt="cut")))
    # Replaced by a file of the same size: only the modification time tells.
    status = replaced.stat()
    replacement = replaced.with_suffix(".new")
    replacement.write_text(jsonl(records("replaced", prompt="after!")))
    os.utime(replacement, ns=(status.st_atime_ns, status.st_mtime_ns + 1))
    assert replacement.stat().st_size == status.st_size
    os.replace(replacement, replaced)

    prompts = _prompts(registry, env, home)
    assert reads.take() == ["grows.jsonl", "replaced.jsonl", "shrinks.jsonl"]
    assert prompts == {"grows": "short", "shrinks": "cut", "replaced": "after!", "stays": "same"}
    grown = next(
        info
        for info in find_sessions(registry=registry, environ=env, home=home)
        if info.id == "grows"
    )
    assert grown.size == grows.stat().st_size and grown.messages == 3
    assert reads.take() == []


def test_a_deleted_file_leaves_the_listing_and_the_cache(
    registry: Registry, home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    gone = write_tiny(home, "p", "gone")
    write_tiny(home, "p", "kept")
    assert set(_prompts(registry, env, home)) == {"gone", "kept"}
    gone.unlink()
    assert set(_prompts(registry, env, home)) == {"kept"}
    with sqlite3.connect(tmp_path / "cache" / "sessions.sqlite3") as db:
        for table in ("facts", "texts"):
            files = [row[0] for row in db.execute(f"SELECT file FROM {table}")]
            assert [Path(file).name for file in files] == ["kept.jsonl"], table


def test_a_store_file_holding_several_is_opened_for_its_keys_only_when_it_changed(
    registry: Registry, home: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    store = write_tinydb(
        home, {"k1": records("db-1", cli="tinydb"), "k2": records("db-2", cli="tinydb")}
    )
    import linewise.sessions._find

    opened: list[str] = []
    real = linewise.sessions._find.session_keys_of

    def counted(parser, path, registry):  # type: ignore[no-untyped-def]
        opened.append(path.name)
        return real(parser, path, registry)

    monkeypatch.setattr(linewise.sessions._find, "session_keys_of", counted)
    reads = Reads(monkeypatch)
    assert {"db-1", "db-2"} <= set(_prompts(registry, env, home))
    assert opened == ["store.json"] and reads.take() == ["store.json#k1", "store.json#k2"]

    assert {"db-1", "db-2"} <= set(_prompts(registry, env, home))
    assert opened == ["store.json"] and reads.take() == []  # neither keys nor sessions read

    write_tinydb(home, {"k1": records("db-1", cli="tinydb"), "k3": records("db-3", cli="tinydb")})
    status = store.stat()
    os.utime(store, ns=(status.st_atime_ns, status.st_mtime_ns + 10**9))
    ids = set(_prompts(registry, env, home))
    assert "db-2" not in ids and {"db-1", "db-3"} <= ids
    assert opened == ["store.json", "store.json"]
    assert reads.take() == ["store.json#k1", "store.json#k3"]


def test_a_damaged_row_of_store_keys_is_read_again_not_trusted(
    registry: Registry, home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    write_tinydb(home, {"k1": records("db-1", cli="tinydb")})
    assert "db-1" in _prompts(registry, env, home)
    with sqlite3.connect(tmp_path / "cache" / "sessions.sqlite3") as db:
        db.execute("UPDATE files SET keys = '{not json'")
    assert "db-1" in _prompts(registry, env, home)
    with sqlite3.connect(tmp_path / "cache" / "sessions.sqlite3") as db:
        assert [json.loads(row[0]) for row in db.execute("SELECT keys FROM files")] == [["k1"]]


def test_two_listings_at_once_both_list_everything_and_leave_a_sound_cache(
    registry: Registry, home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    for number in range(30):
        write_tiny(home, f"p{number % 3}", f"s-{number:02d}")
    results: list[list[str]] = []
    errors: list[BaseException] = []

    def listing() -> None:
        try:
            found = find_sessions(registry=registry, environ=env, home=home)
            results.append([info.id for info in found])
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=listing) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    expected = sorted(f"s-{number:02d}" for number in range(30))
    assert [sorted(ids) for ids in results] == [expected, expected]
    with sqlite3.connect(tmp_path / "cache" / "sessions.sqlite3") as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("SELECT count(*) FROM facts").fetchone()[0] == 30


def _tree(root: Path) -> None:
    """Folders and files that test the corners of a glob: hidden names, links, depth."""
    for relative in (
        "a/one.jsonl",
        "a/.hidden.jsonl",
        "a/b/two.jsonl",
        "a/b/c/three.jsonl",
        "a/b/c/sub-x.jsonl",
        "a-c/four.jsonl",
        "d/notes.txt",
        "d/one.jsonl",
        ".dot/five.jsonl",
        "exact/store.json",
        "Upper/six.JSONL",
    ):
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}\n")
    (root / "a" / "folder.jsonl").mkdir()  # a folder named like a session
    (root / "linked").symlink_to(root / "a", target_is_directory=True)
    (root / "a" / "loop").symlink_to(root, target_is_directory=True)
    (root / "a" / "broken.jsonl").symlink_to(root / "nowhere.jsonl")
    (root / "d" / "link.jsonl").symlink_to(root / "a" / "one.jsonl")


@pytest.mark.parametrize(
    "patterns",
    [
        ("*/*.jsonl",),
        ("*/*.jsonl", "*/*/*.jsonl"),
        ("**/*.jsonl",),
        ("a/**/*.jsonl",),
        ("**/c/*.jsonl", "a/**/three.jsonl"),
        ("exact/store.json", "exact/*.json"),
        ("*/*.JSONL", "*/six.jsonl"),
        ("?/one.*", "[ad]/*.jsonl"),
        ("missing/*.jsonl", "*/"),
    ],
)
def test_store_files_are_the_files_pathlib_glob_finds(
    tmp_path: Path, patterns: tuple[str, ...]
) -> None:
    from linewise.sessions._stores import excluded, store_files

    root = tmp_path / "store"
    _tree(root)
    exclude = ("**/sub-*.jsonl",)
    store = SessionStore("tiny", root, patterns, exclude=exclude)
    expected = []
    seen: set[Path] = set()
    for pattern in patterns:
        for path in sorted(root.glob(pattern)):
            if path in seen:
                continue
            seen.add(path)
            if excluded(path.relative_to(root).as_posix(), exclude) or not path.is_file():
                continue
            status = path.stat()
            expected.append((str(path), status.st_size, status.st_mtime_ns))
    assert store_files(store) == expected


def test_all_facts_lists_what_find_sessions_lists_and_a_memo_skips_the_cache(
    registry: Registry,
    home: Path,
    env: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from linewise.sessions import FactsMemo, all_facts
    from linewise.sessions._cache import FactsCache

    for number in range(6):
        write_tiny(home, f"p{number % 2}", f"s-{number}", end=f"2026-03-0{1 + number}T10:00:00Z")
    write_tinydb(home, {"k1": records("db-1", cli="tinydb")})
    listed = find_sessions(registry=registry, environ=env, home=home)
    memo = FactsMemo()
    assert all_facts(registry=registry, environ=env, home=home, memo=memo) == listed
    assert len(memo) == 7

    reads = Reads(monkeypatch)
    real_rows = FactsCache.rows
    queried: list[int] = []

    def rows(self: FactsCache) -> object:
        queried.append(1)
        return real_rows(self)

    monkeypatch.setattr(FactsCache, "rows", rows)
    assert all_facts(registry=registry, environ=env, home=home, memo=memo) == listed
    assert queried == [] and reads.take() == []  # every session from the memo

    changed = write_tiny(home, "p0", "s-0", prompt="changed", end="2026-03-01T10:00:00Z")
    os.utime(changed, ns=(changed.stat().st_atime_ns, changed.stat().st_mtime_ns + 10**9))
    (home / ".tiny" / "sessions" / "p1" / "s-1.jsonl").unlink()
    again = all_facts(registry=registry, environ=env, home=home, memo=memo)
    assert reads.take() == ["s-0.jsonl"] and queried == [1]
    assert [info.id for info in again] == [info.id for info in listed if info.id != "s-1"]
    assert next(info for info in again if info.id == "s-0").first_prompt == "changed"
    # What was deleted left the cache too: a listing without the memo agrees.
    assert find_sessions(registry=registry, environ=env, home=home) == again


def test_all_facts_without_reading_new_sessions_lists_them_unread(
    registry: Registry, home: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from linewise.sessions import NOT_READ_YET, all_facts

    write_tiny(home, "p", "old", end="2026-03-01T10:00:00Z")
    all_facts(registry=registry, environ=env, home=home)
    new = write_tiny(home, "p", "new", end="2026-03-02T10:00:00Z")
    reads = Reads(monkeypatch)

    quick = all_facts(registry=registry, environ=env, home=home, read_new=False)

    assert reads.take() == []
    unread = next(info for info in quick if info.path == str(new))
    assert (unread.problem, unread.status, unread.outcome) == (NOT_READ_YET, "unknown", "unknown")
    assert [info.id for info in quick if info.problem is None] == ["old"]
    later = all_facts(registry=registry, environ=env, home=home)
    assert reads.take() == ["new.jsonl"]
    assert [info.id for info in later] == ["new", "old"]


def test_a_warm_listing_imports_no_plugin(
    registry: Registry, home: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_tiny(home, "p", "s-1")
    write_tinydb(home, {"k1": records("db-1", cli="tinydb")})
    cold = find_sessions(registry=registry, environ=env, home=home)
    loaded: list[str] = []
    real = Registry.load

    def load(self: Registry, adapter_type: str) -> object:
        loaded.append(adapter_type)
        return real(self, adapter_type)

    monkeypatch.setattr(Registry, "load", load)
    assert find_sessions(registry=registry, environ=env, home=home) == cold
    assert loaded == []
    # A new session: only its plugin is imported, to read it.
    write_tiny(home, "p", "s-2")
    assert len(find_sessions(registry=registry, environ=env, home=home)) == 3
    assert set(loaded) == {"tiny_session"}


def test_a_change_of_what_a_plugin_read_asks_it_again_and_no_value_is_kept(
    registry: Registry, home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    write_tiny(home, "p", "in-home")
    assert [info.id for info in find_sessions(registry=registry, environ=env, home=home)] == [
        "in-home"
    ]
    elsewhere = tmp_path / "tiny-moved-S3CR3T-looking-value"
    moved = elsewhere / "sessions" / "p" / "moved.jsonl"
    moved.parent.mkdir(parents=True)
    moved.write_text(jsonl(records("moved")))
    moved_env = {**env, "TINY_HOME": str(elsewhere)}
    assert [info.id for info in find_sessions(registry=registry, environ=moved_env, home=home)] == [
        "moved"
    ]
    assert [info.id for info in find_sessions(registry=registry, environ=env, home=home)] == [
        "in-home"
    ]
    with sqlite3.connect(tmp_path / "cache" / "sessions.sqlite3") as db:
        kept = "\n".join(str(row) for row in db.execute("SELECT * FROM stores"))
    assert "TINY_HOME" in kept  # the name of what it read, not its value
    assert "S3CR3T" not in kept.replace(str(tmp_path), "")


def test_a_new_version_of_a_plugin_is_asked_again(
    fake_site: FakeSite, home: Path, env: dict[str, str]
) -> None:
    from session_fakes import TINY

    install(fake_site)
    write_tiny(home, "p", "s-1")
    other = home / ".tiny2" / "sessions" / "p" / "s-2.jsonl"
    other.parent.mkdir(parents=True)
    other.write_text(jsonl(records("s-2")))
    first = Registry(entry_points=fake_site.entry_points())
    assert [info.id for info in find_sessions(registry=first, environ=env, home=home)] == ["s-1"]
    import shutil

    shutil.rmtree(fake_site.root / "tiny_sessions-1.0.0.dist-info")  # upgraded in place
    fake_site.add(
        "tiny-sessions",
        version="1.1.0",
        entry_points={"tiny_session": "tiny_session_v2"},
        modules={"tiny_session_v2": TINY.replace('".tiny")', '".tiny2")')},
    )
    upgraded = Registry(entry_points=fake_site.entry_points())
    assert upgraded.info("tiny_session").version == "1.1.0"
    assert [info.id for info in find_sessions(registry=upgraded, environ=env, home=home)] == ["s-2"]


def test_search_reads_the_cached_texts_and_reads_again_a_damaged_one(
    registry: Registry,
    home: Path,
    env: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for number in range(4):
        write_tiny(home, "p", f"s-{number}", prompt=f"needle {number}" if number % 2 else "hay")
    find_sessions(registry=registry, environ=env, home=home)
    reads = Reads(monkeypatch)

    def ids() -> list[str]:
        found = find_sessions(registry=registry, environ=env, home=home, search="NEEDLE")
        return [info.id for info in found]

    assert sorted(ids()) == ["s-1", "s-3"] and reads.take() == []
    with sqlite3.connect(tmp_path / "cache" / "sessions.sqlite3") as db:
        db.execute("UPDATE texts SET text = x'00ff' WHERE file LIKE '%s-3.jsonl'")
    assert sorted(ids()) == ["s-1", "s-3"] and reads.take() == ["s-3.jsonl"]
