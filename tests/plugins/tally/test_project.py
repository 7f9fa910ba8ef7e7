"""The example third-party plugin's own test suite passes, as its author runs it."""

from __future__ import annotations

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
    # 4 unit tests and the 14 compliance checks of tally_local.
    assert "23 passed, 1 skipped" in done.stdout
