"""A plugin whose METADATA has no Summary is found even once importlib_metadata is imported.

The backport (pygal imports it, and so `linewise serve`) puts its finder on
sys.meta_path; its distributions raise KeyError for a field that is not there,
where the standard library's give None.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from support import FakeSite

PARSE = (
    "def parse_stdout_line(line, ts):\n    return [{'kind': 'assistant', 'ts': ts, 'text': line}]\n"
)


def test_a_plugin_without_a_summary_is_found_with_the_backport_imported(tmp_path: Path) -> None:
    # Looked for, not imported: imported here, its finder would stay on this process's
    # sys.meta_path and change how every later test's discovery finds distributions.
    if importlib.util.find_spec("importlib_metadata") is None:
        pytest.skip("the importlib_metadata backport is absent")
    site = FakeSite(tmp_path / "site")
    site.root.mkdir()
    site.add("plain", entry_points={"plain_local": "plain_mod"}, modules={"plain_mod": PARSE})
    code = (
        "import importlib_metadata, sys\n"
        f"sys.path.insert(0, {str(site.root)!r})\n"
        "from importlib.metadata import Distribution\n"
        "from linewise import Registry\n"
        f"points = [ep for d in Distribution.discover(path=[{str(site.root)!r}])"
        " for ep in d.entry_points if ep.group == 'linewise.parsers']\n"
        "info = Registry(entry_points=points).info('plain_local')\n"
        "print(info.distribution, info.status.value)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "plain available"
    assert "skipped" not in done.stderr
