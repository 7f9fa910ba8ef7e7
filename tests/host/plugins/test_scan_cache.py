"""The entry-point scan cache: used while the environment is unchanged, never a stale answer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from linewise import Registry
from linewise.plugins.discovery import scan
from linewise.plugins.scan_cache import CachedEntryPoint, cache_folder
from support import FakeSite

LINEWISE = str(Path(sys.executable).with_name("linewise"))
PARSE = (
    "def parse_stdout_line(line, ts):\n    return [{'kind': 'stdout', 'ts': ts, 'text': line}]\n"
)


def _settle(root: Path) -> None:
    """Date a site's files a minute back, as an install that happened a while ago."""
    past = time.time() - 60
    for folder, _, files in os.walk(root):
        for name in files:
            os.utime(os.path.join(folder, name), (past, past))
        os.utime(folder, (past, past))


def _cache_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("scan-*.json"))


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("LINEWISE_CACHE_DIR", str(folder))
    return folder


def _claims() -> dict[str, tuple[str | None, str | None, str]]:
    return {c.adapter_type: (c.distribution, c.summary, c.value) for c in scan().candidates}


def test_a_settled_environment_is_scanned_once_then_read_from_the_cache(
    fake_site: FakeSite, cache: Path
) -> None:
    fake_site.add("alpha", entry_points={"alpha": "alpha_mod"}, modules={"alpha_mod": PARSE})
    _settle(fake_site.root)
    first = scan()
    [file] = _cache_files(cache)
    second = scan()
    assert second.candidates == [
        type(c)(**{**_fields(c), "entry_point": second.candidates[i].entry_point})
        for i, c in enumerate(first.candidates)
    ]
    assert all(isinstance(c.entry_point, CachedEntryPoint) for c in second.candidates)
    # What the cache says is what is used (so this test would see a cache that is ignored).
    payload = json.loads(file.read_text())
    for item in payload["candidates"]:
        if item["adapter_type"] == "alpha":
            item["summary"] = "from the cache"
    file.write_text(json.dumps(payload))
    assert _claims()["alpha"][1] == "from the cache"


def _fields(candidate: object) -> dict[str, object]:
    return {name: getattr(candidate, name) for name in candidate.__slots__}  # type: ignore[attr-defined]


def test_installing_and_removing_a_distribution_is_seen_at_once(
    fake_site: FakeSite, cache: Path
) -> None:
    fake_site.add("alpha", entry_points={"alpha": "alpha_mod"}, modules={"alpha_mod": PARSE})
    _settle(fake_site.root)
    assert "alpha" in _claims() and _cache_files(cache)
    beta = fake_site.add("beta", entry_points={"beta": "beta_mod"}, modules={"beta_mod": PARSE})
    assert "beta" in _claims()
    _settle(fake_site.root)
    assert "beta" in _claims()  # cached again, beta included
    for path in sorted(beta.iterdir()):
        path.unlink()
    beta.rmdir()
    assert "beta" not in _claims()


def test_editing_a_claiming_distribution_in_place_is_seen(fake_site: FakeSite, cache: Path) -> None:
    dist_info = fake_site.add(
        "alpha", entry_points={"alpha": "alpha_mod"}, modules={"alpha_mod": PARSE}
    )
    _settle(fake_site.root)
    assert _claims()["alpha"][2] == "alpha_mod"
    assert _cache_files(cache)
    before = fake_site.root.stat()
    (dist_info / "entry_points.txt").write_text("[linewise.parsers]\nalpha = other_mod\n")
    # The site folder itself looks unchanged: only the file tells.
    os.utime(fake_site.root, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert _claims()["alpha"][2] == "other_mod"


def test_a_fresh_change_is_not_cached(fake_site: FakeSite, cache: Path) -> None:
    # Written within the file system's clock resolution, a later change could keep its time.
    fake_site.add("alpha", entry_points={"alpha": "alpha_mod"}, modules={"alpha_mod": PARSE})
    assert "alpha" in _claims()
    assert _cache_files(cache) == []


@pytest.mark.parametrize(
    "content",
    [b"", b"{not json", b"[]", b'{"format": 1}', b"\xff\xfe", None],
    ids=["empty", "truncated", "a-list", "incomplete", "binary", "wrong-types"],
)
def test_a_corrupt_cache_is_ignored_and_rewritten(
    fake_site: FakeSite, cache: Path, content: bytes | None
) -> None:
    fake_site.add("alpha", entry_points={"alpha": "alpha_mod"}, modules={"alpha_mod": PARSE})
    _settle(fake_site.root)
    expected = _claims()
    [file] = _cache_files(cache)
    if content is None:
        payload = json.loads(file.read_text())
        payload["candidates"][0]["path_rank"] = "first"
        payload["candidates"][0]["requires"] = [1, 2]
        content = json.dumps(payload).encode()
    file.write_bytes(content)
    assert _claims() == expected
    assert json.loads(file.read_text())["format"] == 1


def test_an_unwritable_cache_folder_only_costs_the_cache(
    fake_site: FakeSite, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("LINEWISE_CACHE_DIR", str(blocker / "cache"))
    fake_site.add("alpha", entry_points={"alpha": "alpha_mod"}, modules={"alpha_mod": PARSE})
    _settle(fake_site.root)
    assert "alpha" in _claims()
    assert "alpha" in Registry().adapter_types


def test_an_empty_cache_dir_setting_turns_the_cache_off(
    fake_site: FakeSite, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("LINEWISE_CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_folder() is None
    fake_site.add("alpha", entry_points={"alpha": "alpha_mod"}, modules={"alpha_mod": PARSE})
    _settle(fake_site.root)
    assert "alpha" in _claims()
    assert not (tmp_path / "xdg").exists()


def test_without_the_setting_the_cache_is_in_the_user_cache_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("LINEWISE_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    if sys.platform.startswith("linux"):
        assert cache_folder() == str(tmp_path / "linewise")
    else:
        assert cache_folder()


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="needs root to chown")
def test_a_cache_file_owned_by_someone_else_is_not_trusted(
    fake_site: FakeSite, cache: Path
) -> None:
    fake_site.add("alpha", entry_points={"alpha": "alpha_mod"}, modules={"alpha_mod": PARSE})
    _settle(fake_site.root)
    expected = _claims()
    [file] = _cache_files(cache)
    payload = json.loads(file.read_text())
    payload["candidates"][0]["value"] = "evil_module"
    file.write_text(json.dumps(payload))
    os.chown(file, 54321, -1)
    assert _claims() == expected


def test_the_cached_entry_point_loads_like_importlibs(fake_site: FakeSite) -> None:
    fake_site.add(
        "alpha",
        entry_points={},
        modules={"alpha_pkg/__init__.py".removesuffix(".py"): "", "alpha_pkg.impl": PARSE},
    )
    point = CachedEntryPoint("alpha", "alpha_pkg.impl : parse_stdout_line [extra]")
    assert point.load().__name__ == "parse_stdout_line"
    assert CachedEntryPoint("alpha", "alpha_pkg.impl").load().__name__ == "alpha_pkg.impl"
    with pytest.raises(AttributeError):
        CachedEntryPoint("alpha", "alpha_pkg.impl:missing").load()


def test_linewise_list_sees_an_install_and_an_uninstall(
    fake_site: FakeSite, tmp_path: Path
) -> None:
    env = {**os.environ, "PYTHONPATH": str(fake_site.root), "LINEWISE_CACHE_DIR": str(tmp_path)}

    def listed() -> set[str]:
        done = subprocess.run(
            [LINEWISE, "list", "--json"], env=env, capture_output=True, timeout=60, check=True
        )
        return {parser["adapterType"] for parser in json.loads(done.stdout)["parsers"]}

    fake_site.add("alpha", entry_points={"alpha": "alpha_mod"}, modules={"alpha_mod": PARSE})
    _settle(fake_site.root)
    assert "alpha" in listed()
    assert _cache_files(tmp_path)
    assert "alpha" in listed()  # from the cache
    beta = fake_site.add("beta", entry_points={"beta": "beta_mod"}, modules={"beta_mod": PARSE})
    assert {"alpha", "beta"} <= listed()
    _settle(fake_site.root)
    assert {"alpha", "beta"} <= listed()
    for path in sorted(beta.iterdir()):
        path.unlink()
    beta.rmdir()
    assert "beta" not in listed()


def test_a_cached_entry_point_loads_what_importlib_loads(fake_site: FakeSite) -> None:
    from importlib.metadata import EntryPoint

    fake_site.add("loads", modules={"cached_mod": "class A:\n    b = 1\n"})
    for value in ("cached_mod", "cached_mod:A.b", "cached_mod [extra]", "cached_mod:A [x]"):
        expected = EntryPoint(name="n", value=value, group="g").load()
        assert CachedEntryPoint("n", value).load() is expected, value
