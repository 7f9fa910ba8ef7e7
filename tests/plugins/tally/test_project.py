"""The example third-party plugin's own test suite passes, as its author runs it."""

from __future__ import annotations

import re
import subprocess
import sys

from support import REPO


def test_the_tally_project_passes_its_own_tests_and_the_compliance_checks() -> None:
    project = REPO / "plugins" / "tally"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--linewise-examples",
            "100",
        ],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    # 4 unit tests and every compliance check of tally_local (one skips: the
    # plugin exports no CLI formatter), none failed.
    passed = re.search(r"(\d+) passed", done.stdout)
    assert passed is not None and int(passed.group(1)) >= 18, done.stdout[-3000:]
    assert "failed" not in done.stdout
