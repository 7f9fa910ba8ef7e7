"""The quick site scan finds the same linewise.parsers entry points as importlib.metadata."""

from __future__ import annotations

import sys
import zipfile
from importlib.metadata import distributions
from pathlib import Path

import pytest
from linewise._discovery import installed_entry_points
from support import FakeSite


def _everything(fake_site: FakeSite, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = fake_site
    site.add("plain", entry_points={"plain": "plain_mod"})
    site.add("two-types", entry_points={"one": "m:one", "two": "m:two [extra]"})
    site.add("scripts-only", raw_entry_points="[console_scripts]\nx = x:main\n")
    site.add(
        "mixed", raw_entry_points="[console_scripts]\nx = x:main\n[linewise.parsers]\nmix = m\n"
    )
    site.add("no-entry-points", entry_points={}).joinpath("entry_points.txt").unlink()
    site.add("spaced", raw_entry_points="[ linewise.parsers ]\nspaced = m\n")
    site.add("broken", raw_entry_points="[linewise.parsers]\njust_a_name\n")
    site.add("Upper.Case", entry_points={"upper": "m"})
    egg = site.root / "old_style.egg-info"
    egg.mkdir()
    egg.joinpath("PKG-INFO").write_text("Metadata-Version: 1.1\nName: old-style\nVersion: 0.1\n")
    egg.joinpath("entry_points.txt").write_text("[linewise.parsers]\nold = old_mod\n")
    site.root.joinpath("file_style.egg-info").write_text("Metadata-Version: 1.1\nName: f\n")
    # The same name again later on sys.path: the first one wins, either way.
    later = FakeSite(tmp_path / "later")
    later.root.mkdir()
    later.add("plain", version="9.0", entry_points={"plain": "later_mod"})
    monkeypatch.setattr("sys.path", [*sys.path, str(later.root)])
    # A zip file on sys.path, which importlib reads.
    archive = tmp_path / "zipped.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("zipped-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: zipped\n")
        zipped.writestr("zipped-1.0.dist-info/entry_points.txt", "[linewise.parsers]\nzip = z\n")
    monkeypatch.setattr("sys.path", [*sys.path, str(archive)])


def _by_importlib(monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple[str, str]], list[str]]:
    with monkeypatch.context() as patched:
        patched.setattr(
            "linewise._site_scan.candidate_distributions", lambda group: distributions()
        )
        points, skipped = installed_entry_points()
    return sorted((p.name, p.value) for p in points), sorted(skipped)


def test_the_same_entry_points_and_the_same_skipped_distributions(
    fake_site: FakeSite, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _everything(fake_site, tmp_path, monkeypatch)
    points, skipped = installed_entry_points()
    found = sorted((p.name, p.value) for p in points)
    assert (found, sorted(skipped)) == _by_importlib(monkeypatch)
    names = {name for name, _ in found}
    assert {"plain", "one", "two", "mix", "upper", "old", "zip"} <= names
    assert ("plain", "plain_mod") in found and ("plain", "later_mod") not in found
    assert any("broken-1.0.0.dist-info: unreadable entry_points.txt" in r for r in skipped)


def test_an_unrelated_distribution_with_broken_entry_points_is_not_read(
    fake_site: FakeSite,
) -> None:
    # It cannot be a plugin (its entry_points.txt never names the group): no warning about it.
    dist_info = fake_site.add("unrelated", entry_points={})
    dist_info.joinpath("entry_points.txt").write_bytes(b"[console_scripts]\nno_equals\n")
    _, skipped = installed_entry_points()
    assert not any("unrelated" in reason for reason in skipped)
