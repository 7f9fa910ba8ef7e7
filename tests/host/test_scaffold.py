"""linewise new: a scaffolded plugin passes linewise check and its own tests, installs, and lists."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from linewise.cli.scaffold import scaffold

LINEWISE = str(Path(sys.executable).with_name("linewise"))


def _run(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, capture_output=True, text=True, cwd=cwd, env=env, timeout=600, check=False
    )


def test_a_new_plugin_works_out_of_the_box(tmp_path: Path) -> None:
    done = _run(LINEWISE, "new", "acme-agent", "--dir", str(tmp_path))
    assert done.returncode == 0, done.stderr
    root = tmp_path / "linewise-acme-agent"
    assert f"created {root}" in done.stdout
    assert (root / "src" / "linewise_acme_agent" / "samples" / "sample.jsonl").is_file()
    assert (root / "src" / "linewise_acme_agent" / "py.typed").is_file()
    assert 'acme_agent_local = "linewise_acme_agent"' in (root / "pyproject.toml").read_text()

    check = _run(LINEWISE, "check", str(root), "--json", "--examples", "100")
    report = json.loads(check.stdout)
    assert check.returncode == 0, check.stdout
    assert report["counts"]["fail"] == 0 and report["counts"]["warn"] == 0

    own = _run(
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "--linewise-examples",
        "50",
        cwd=root,
    )
    assert own.returncode == 0, own.stdout[-3000:]
    assert "19 passed, 4 skipped" in own.stdout  # skipped: optional exports it has not

    target = tmp_path / "installed"
    pip = _run(
        sys.executable,
        "-m",
        "pip",
        "install",
        "--no-deps",
        "--no-build-isolation",
        "--no-index",
        "--quiet",
        "--target",
        str(target),
        str(root),
    )
    assert pip.returncode == 0, pip.stderr
    listing = _run(LINEWISE, "list", "--json", env={**os.environ, "PYTHONPATH": str(target)})
    acme = next(
        p for p in json.loads(listing.stdout)["parsers"] if p["adapterType"] == "acme_agent_local"
    )
    assert acme["distribution"] == "linewise-acme-agent"
    assert acme["status"] == "available"
    assert acme["contract"] == ">=1.0,<2"


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("Bad Name", {}, "is not a valid name"),
        ("fine", {"adapter_type": "Not-Snake"}, "is not snake_case"),
    ],
)
def test_bad_names_are_refused(
    tmp_path: Path, name: str, options: dict[str, str], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        scaffold(name, tmp_path, **options)


def test_an_existing_folder_is_not_overwritten(tmp_path: Path) -> None:
    scaffold("twice", tmp_path)
    with pytest.raises(FileExistsError):
        scaffold("twice", tmp_path)
    done = _run(LINEWISE, "new", "twice", "--dir", str(tmp_path))
    assert done.returncode == 1
    assert "already exists" in done.stderr
