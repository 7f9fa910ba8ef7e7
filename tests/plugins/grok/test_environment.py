"""The Grok environment checks: the command on PATH and its credentials."""

from __future__ import annotations

from pathlib import Path

from linewise_contracts import overall_status
from linewise_grok import check_environment
from support import check_levels, fake_executable


def _fake_command(folder: Path, name: str = "grok") -> Path:
    return fake_executable(folder, name)


def test_everything_in_place_passes(tmp_path: Path) -> None:
    command = _fake_command(tmp_path / "bin")
    checks = check_environment({"PATH": str(tmp_path / "bin"), "XAI_API_KEY": "xai-123"})
    assert check_levels(checks) == {"grok_command_found": "info", "grok_api_key_present": "info"}
    assert str(command) in checks[0].message
    assert overall_status(checks) == "pass"


def test_a_missing_api_key_is_only_a_warning(tmp_path: Path) -> None:
    """Grok can still run with the account of `grok login`."""
    _fake_command(tmp_path / "bin")
    checks = check_environment({"PATH": str(tmp_path / "bin")})
    assert check_levels(checks) == {"grok_command_found": "info", "grok_api_key_missing": "warn"}
    assert overall_status(checks) == "warn"
    assert "grok login" in (checks[1].hint or "")


def test_a_missing_command_is_an_error(tmp_path: Path) -> None:
    checks = check_environment({"PATH": str(tmp_path), "XAI_API_KEY": "x"})
    assert check_levels(checks)["grok_command_missing"] == "error"
    assert overall_status(checks) == "fail"


def test_an_install_off_path_is_named_in_the_hint(tmp_path: Path) -> None:
    _fake_command(tmp_path / "home" / ".grok" / "bin")
    checks = check_environment({"PATH": "", "HOME": str(tmp_path / "home")})
    missing = next(check for check in checks if check.code == "grok_command_missing")
    assert missing.level == "error"
    assert str(tmp_path / "home" / ".grok" / "bin") in (missing.hint or "")


def test_a_blank_key_counts_as_missing_and_a_file_that_is_not_executable_is_not_the_command(
    tmp_path: Path,
) -> None:
    (tmp_path / "grok").write_text("not a program", encoding="utf-8")
    checks = check_environment({"PATH": str(tmp_path), "XAI_API_KEY": "  "})
    assert check_levels(checks) == {"grok_command_missing": "error", "grok_api_key_missing": "warn"}


def test_checks_are_json_ready() -> None:
    for check in check_environment({"PATH": ""}):
        data = check.to_json()
        assert set(data) == {"code", "level", "message", "detail", "hint"}
