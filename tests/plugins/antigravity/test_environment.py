"""Environment checks for the Antigravity CLI, with a fake PATH."""

from __future__ import annotations

from pathlib import Path

from linewise_antigravity import check_environment
from linewise_contracts import overall_status
from support import fake_executable


def test_the_cli_on_path_passes(tmp_path: Path) -> None:
    folder = fake_executable(tmp_path / "bin", "agy").parent
    checks = check_environment({"PATH": str(folder)})
    assert [(check.code, check.level) for check in checks] == [("agy_command_found", "info")]
    assert checks[0].detail == str(folder / "agy")
    assert overall_status(checks) == "pass"


def test_a_missing_cli_is_an_error(tmp_path: Path) -> None:
    checks = check_environment({"PATH": str(tmp_path)})
    assert (checks[0].code, checks[0].level) == ("agy_command_missing", "error")
    assert overall_status(checks) == "fail"
