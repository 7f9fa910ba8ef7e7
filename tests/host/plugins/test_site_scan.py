"""The quick site scan finds the same linewise.parsers entry points as importlib.metadata."""

from __future__ import annotations

import sys
import zipfile
from importlib.metadata import distributions
from pathlib import Path

import pytest
from linewise.plugins.discovery import installed_entry_points
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
            "linewise.plugins.site_scan.candidate_distributions", lambda group: distributions()
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


# METADATA and entry_points.txt bytes as tools write them, and as they should not.
_METADATA_VARIANTS: dict[str, bytes] = {
    "ordinary": b"Metadata-Version: 2.1\nName: ordinary\nVersion: 1.0\nSummary: plain\n"
    b"Requires-Dist: linewise-contracts<2,>=1.1\nRequires-Dist: other; extra == 'x'\n",
    "folded-summary": b"Name: folded-summary\nVersion: 1\nSummary: one\n  two\n",
    "folded-license": b"Name: folded-license\nLicense: MIT\n  and more\nVersion: 2\n",
    "crlf": b"Name: crlf\r\nVersion: 1\r\nSummary: windows\r\n",
    "bom": b"\xef\xbb\xbfName: bom\nVersion: 1\n",
    "envelope": b"From someone\nName: envelope\nVersion: 1\n",
    "empty": b"",
    "not-utf8": b"Name: not-utf8\nSummary: caf\xe9\n",
    "no-name": b"Version: 1\nSummary: nameless\n",
    "blank-name": b"Name:   \nVersion: 1\n",
    "body": b"Name: body\nVersion: 1\n\nName: not-a-field\nVersion: 9\n",
    "garbage-line": b"Name: garbage-line\nthis is not a field\nVersion: 9\n",
    "twice": b"Name: twice\nName: second\nVersion: 1\nVersion: 2\n",
    "cases": b"name: cases\nVERSION: 3\nsUmMaRy:\tTabbed and trailing  \n",
    "no-field-name": b"Name: no-field-name\n: value\nVersion: 1\n",
    "non-ascii-name": b"Name: non-ascii-name\nN\xc3\xa4me: x\nVersion: 1\n",
    "unicode-summary": "Name: unicode-summary\nSummary: café ☕ \x0c done\n".encode(),
    "first-continues": b" Name: first-continues\nName: first-continues\n",
    "no-newline-at-end": b"Name: no-newline-at-end\nVersion: 5",
}
_ENTRY_POINT_VARIANTS: dict[str, bytes] = {
    "ep-comments": b"# a comment\nloose = before_any_section\n[linewise.parsers]\n"
    b"  # indented comment\n\n ep_comments =  m:f  \n",
    "ep-crlf": b"[linewise.parsers]\r\nep_crlf = m\r\n",
    "ep-other-broken": b"[linewise.parsers]\nep_other_broken = m\n[console_scripts]\nno_equals\n",
    "ep-many-equals": b"[linewise.parsers]\nep_many_equals = m:a=b\n[[linewise.parsers]]\nx = y\n",
    "ep-brackets": b"[]\nnameless = m\n[linewise.parsers]\nep_brackets = m [extra]\n",
    "ep-not-utf8": b"[linewise.parsers]\nep_not_utf8 = m\n# caf\xe9\n",
}


def _claims(monkeypatch: pytest.MonkeyPatch, *, by_importlib: bool) -> tuple[list[object], ...]:
    from linewise.plugins.discovery import _scan_points

    with monkeypatch.context() as patched:
        if by_importlib:
            patched.setattr(
                "linewise.plugins.site_scan.candidate_distributions", lambda group: distributions()
            )
        found = _scan_points(*installed_entry_points())
    claims = sorted(
        (c.adapter_type, c.value, c.distribution, c.version, c.summary, c.requires, c.path_rank)
        for c in found.candidates
    )
    return claims, sorted(found.skipped), found.candidates


def test_metadata_read_from_bytes_is_what_importlib_reads(
    fake_site: FakeSite, monkeypatch: pytest.MonkeyPatch
) -> None:
    from linewise.plugins.dist_info import FolderEntryPoint

    for name, metadata in _METADATA_VARIANTS.items():
        dist_info = fake_site.add(name, entry_points={name.replace("-", "_"): "m"})
        dist_info.joinpath("METADATA").write_bytes(metadata)
    fake_site.add("pkg-info", entry_points={"pkg_info": "m"}).joinpath("METADATA").unlink()
    for name, text in _ENTRY_POINT_VARIANTS.items():
        fake_site.add(name).joinpath("entry_points.txt").write_bytes(text)

    fast, fast_skipped, candidates = _claims(monkeypatch, by_importlib=False)
    slow, slow_skipped, _ = _claims(monkeypatch, by_importlib=True)
    assert (fast, fast_skipped) == (slow, slow_skipped)
    # Both readers were used: the ordinary shapes from bytes, the others by importlib.
    from_bytes = {c.adapter_type for c in candidates if isinstance(c.entry_point, FolderEntryPoint)}
    assert {"ordinary", "folded_license", "body", "garbage_line", "twice", "cases"} <= from_bytes
    assert {"ep_comments", "ep_many_equals", "ep_brackets", "unicode_summary"} <= from_bytes
    assert not from_bytes & {"folded_summary", "crlf", "envelope", "pkg_info", "ep_crlf"}
    assert any("not_utf8-1.0.0.dist-info: unreadable METADATA" in r for r in fast_skipped)
    assert any("ep_other_broken-1.0.0.dist-info: unreadable entry" in r for r in fast_skipped)


def test_an_entry_point_read_from_bytes_loads_what_importlib_loads(
    fake_site: FakeSite,
) -> None:
    from importlib.metadata import EntryPoint

    from linewise.plugins.dist_info import load_entry_point

    fake_site.add("loads", modules={"pkg.mod": "class A:\n    b = 1\n"})
    for value in ("pkg.mod", "pkg.mod:A", "pkg.mod:A.b", "pkg.mod:A.b [extra]", "pkg.mod [x]"):
        expected = EntryPoint(name="n", value=value, group="g").load()
        assert load_entry_point(value) is expected, value
