"""A third-party parser installed with pip is found by the host without any host change."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

PYPROJECT = """
[project]
name = "acme-linewise-parser"
version = "0.3.0"
description = "Parser for the acme agent's [acme] line format"
requires-python = ">=3.11"
dependencies = ["linewise-contracts>=1.0,<2"]

[project.entry-points."linewise.parsers"]
acme_local = "acme_linewise_parser"

[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"
"""

MODULE = '''
"""Parser for acme's `[acme] kind: text` lines."""

label = "Acme agent (local)"


def parse_stdout_line(line, ts):
    if line.startswith("[acme] tool: "):
        return [{"kind": "tool_call", "ts": ts, "name": line[13:], "input": {}}]
    if line.startswith("[acme] "):
        return [{"kind": "system", "ts": ts, "text": line[7:]}]
    return [{"kind": "assistant", "ts": ts, "text": line}]
'''


def test_pip_installed_plugin_is_discovered_and_used(tmp_path: Path) -> None:
    project = tmp_path / "acme-linewise-parser"
    package = project / "acme_linewise_parser"
    package.mkdir(parents=True)
    (project / "pyproject.toml").write_text(textwrap.dedent(PYPROJECT), encoding="utf-8")
    (package / "__init__.py").write_text(textwrap.dedent(MODULE), encoding="utf-8")
    target = tmp_path / "installed"
    pip = subprocess.run(
        [
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
            str(project),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if pip.returncode != 0 and "No module named pip" in pip.stderr:
        pytest.skip("pip is not installed in this environment")
    assert pip.returncode == 0, pip.stderr
    env = {**os.environ, "PYTHONPATH": str(target)}
    linewise = str(Path(sys.executable).with_name("linewise"))

    listing = subprocess.run(
        [linewise, "list", "--json"], capture_output=True, env=env, timeout=60, check=True
    )
    acme = next(
        p for p in json.loads(listing.stdout)["parsers"] if p["adapterType"] == "acme_local"
    )
    assert acme["distribution"] == "acme-linewise-parser"
    assert acme["version"] == "0.3.0"
    assert acme["contract"] == ">=1.0,<2"
    assert acme["status"] == "available"

    rendered = subprocess.run(
        [
            linewise,
            "render",
            "-",
            "-a",
            "acme_local",
            "-f",
            "jsonl",
            "--ts",
            "2026-01-01T00:00:00Z",
        ],
        input=b"[acme] session started\n[acme] tool: grep\nAll done.\n",
        capture_output=True,
        env=env,
        timeout=60,
        check=True,
    )
    assert [json.loads(line) for line in rendered.stdout.splitlines()] == [
        {"kind": "system", "ts": "2026-01-01T00:00:00Z", "text": "session started"},
        {"kind": "tool_call", "ts": "2026-01-01T00:00:00Z", "name": "grep", "input": {}},
        {"kind": "assistant", "ts": "2026-01-01T00:00:00Z", "text": "All done."},
    ]
