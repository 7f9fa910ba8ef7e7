"""Discovery survives broken installed distributions: each is skipped with a reason, never a crash."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from linewise import Registry
from linewise.plugins.discovery import installed_entry_points
from support import FakeSite

LINEWISE = str(Path(sys.executable).with_name("linewise"))
PARSE = (
    "def parse_stdout_line(line, ts):\n    return [{'kind': 'assistant', 'ts': ts, 'text': line}]\n"
)

#: entry_points.txt texts importlib.metadata cannot read.
BROKEN_ENTRY_POINTS = {
    "no-equals": b"[linewise.parsers]\njust_a_name\n",
    "bad-utf8": b"[linewise.parsers]\nbad = \xff\xfe\n",
}


def _broken_site(site: FakeSite) -> None:
    site.add("good-plugin", entry_points={"good": "good_mod"}, modules={"good_mod": PARSE})
    for name, data in BROKEN_ENTRY_POINTS.items():
        dist_info = site.add(name, entry_points={})
        (dist_info / "entry_points.txt").write_bytes(data)
    # Invalid UTF-8 in METADATA, of a distribution that claims an adapter type...
    dist_info = site.add("bad-metadata", entry_points={"badmeta": "good_mod"})
    (dist_info / "METADATA").write_bytes(b"Metadata-Version: 2.1\nName: bad\xffmeta\nVersion: 1\n")
    # ... and of one that does not (its METADATA is never read).
    dist_info = site.add("other-tool", entry_points={})
    (dist_info / "METADATA").write_bytes(b"Metadata-Version: 2.1\nName: other\xfftool\n")


def test_unreadable_distributions_are_skipped_with_a_reason(fake_site: FakeSite) -> None:
    _broken_site(fake_site)
    points, skipped = installed_entry_points()
    assert "good" in {point.name for point in points}
    assert "badmeta" not in {point.name for point in points}
    text = "\n".join(skipped)
    assert "no_equals-1.0.0.dist-info: unreadable entry_points.txt (TypeError" in text
    assert "bad_utf8-1.0.0.dist-info: unreadable entry_points.txt (UnicodeDecodeError" in text
    assert "bad_metadata-1.0.0.dist-info: unreadable METADATA (UnicodeDecodeError" in text
    assert "other_tool" not in text
    registry = Registry()
    assert "good" in registry.adapter_types
    assert len(registry.skipped_distributions) == 3


def test_a_duplicate_distribution_later_on_sys_path_is_left_out(
    fake_site: FakeSite, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_site.add("twice", entry_points={"first": "good_mod"}, modules={"good_mod": PARSE})
    later = FakeSite(tmp_path / "later")
    later.add("twice", entry_points={"second": "good_mod"})
    monkeypatch.setattr(sys, "path", [*sys.path, str(later.root)])
    names = {point.name for point in installed_entry_points()[0]}
    assert "first" in names and "second" not in names


@pytest.fixture(scope="module")
def broken_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    site = FakeSite(tmp_path_factory.mktemp("broken") / "site")
    site.root.mkdir()
    _broken_site(site)
    (site.root / "run.log").write_text("hello\n", encoding="utf-8")
    return {**os.environ, "PYTHONPATH": str(site.root), "RUN_LOG": str(site.root / "run.log")}


def test_version_reports_the_hot_path_past_a_broken_installed_distribution(
    broken_env: dict[str, str],
) -> None:
    done = subprocess.run(
        [LINEWISE, "--version"], capture_output=True, text=True, env=broken_env, check=False
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert "  linewise " in done.stdout and "  linewise-contracts " in done.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["list"],
        ["list", "--load", "--json"],
        ["render", "-", "-a", "good", "--ts", "2026-01-01T00:00:00Z"],
        ["render", "-", "--ts", "2026-01-01T00:00:00Z"],
        ["summarize", "RUN_LOG"],
        ["doctor"],
        ["check", "good-plugin", "--examples", "0"],
        ["check", "good", "--examples", "0"],
    ],
    ids=" ".join,
)
def test_no_command_crashes_on_a_broken_installed_distribution(
    broken_env: dict[str, str], args: list[str]
) -> None:
    done = subprocess.run(
        [LINEWISE, *(broken_env.get(arg, arg) for arg in args)],
        input="hello\n",
        capture_output=True,
        text=True,
        env=broken_env,
        timeout=300,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (0, 1), done.stderr
    if args[0] != "check":
        assert "skipped an installed distribution" in done.stderr
    if args[:2] == ["list", "--load"]:
        payload = json.loads(done.stdout)
        assert {p["adapterType"] for p in payload["parsers"]} >= {"good", "process"}
        assert len(payload["skipped"]) == 3
