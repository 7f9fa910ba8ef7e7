"""A damaged sessions facts cache costs one rebuild, never a crash or a slow run for ever."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from linewise import Registry
from linewise.cli import main
from session_fakes import install, write_tiny
from support import FakeSite


@pytest.fixture
def home(fake_site: FakeSite, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
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
    for index in range(40):
        write_tiny(found, f"p{index % 3}", f"session-{index:03d}", prompt="x" * 2000)
    return found


def _listing(capsys: pytest.CaptureFixture[str]) -> tuple[list[str], str]:
    code = main(["sessions", "--json", "--limit", "100"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return [row["id"] for row in json.loads(out)["sessions"]], err


def _cache(tmp_path: Path) -> Path:
    (path,) = (tmp_path / "cache").rglob("sessions.sqlite3")
    return path


def _rows(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("SELECT count(*) FROM facts").fetchone()[0])


def test_a_cache_damaged_past_its_header_is_rebuilt_once(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wanted, _ = _listing(capsys)
    cache = _cache(tmp_path)
    data = bytearray(cache.read_bytes())
    assert len(data) > 8192
    data[4096:] = b"\xa5" * (len(data) - 4096)  # the header page intact, the rest garbage
    cache.write_bytes(bytes(data))
    listed, err = _listing(capsys)
    assert listed == wanted
    assert "was damaged" in err and "rebuilding it" in err
    assert _rows(cache) == 40  # the fresh cache holds every session again
    listed, err = _listing(capsys)
    assert listed == wanted and "damaged" not in err


def test_a_row_with_a_field_of_the_wrong_type_is_read_again_not_a_crash(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wanted, _ = _listing(capsys)
    cache = _cache(tmp_path)
    with sqlite3.connect(cache) as db:
        db.execute("UPDATE facts SET info_messages = 'many', info_started = 12")
    listed, err = _listing(capsys)
    assert listed == wanted and "Traceback" not in err
    code = main(["sessions"])
    out, err = capsys.readouterr()
    assert code == 0 and "session-039" in out


def test_a_cache_that_is_not_a_database_is_rebuilt_with_a_warning(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wanted, _ = _listing(capsys)
    cache = _cache(tmp_path)
    for suffix in ("-wal", "-shm"):
        Path(f"{cache}{suffix}").unlink(missing_ok=True)
    cache.write_bytes(b"written over by something else " * 200)
    listed, err = _listing(capsys)
    assert listed == wanted
    assert "was damaged" in err and "rebuilding it" in err
    assert _rows(cache) == 40
    listed, err = _listing(capsys)
    assert listed == wanted and "damaged" not in err
