"""Environment checks for Cursor Agent (local) and Cursor Cloud, with a fake environment."""

from __future__ import annotations

from pathlib import Path

import pytest
from linewise_contracts import overall_status
from linewise_cursor import check_environment
from linewise_cursor.cloud import check_environment as check_cloud_environment
from support import check_levels, fake_executable


def _fake_bin(tmp_path: Path, name: str) -> Path:
    return fake_executable(tmp_path / "bin", name).parent


def test_cli_installed_and_api_key_set_passes(tmp_path: Path) -> None:
    folder = _fake_bin(tmp_path, "cursor-agent")
    checks = check_environment({"PATH": str(folder), "CURSOR_API_KEY": "key_123"})
    assert check_levels(checks) == {
        "cursor_command_found": "info",
        "cursor_api_key_present": "info",
    }
    assert checks[0].detail == str(folder / "cursor-agent")
    assert overall_status(checks) == "pass"
    assert all("key_123" not in str(check.to_json()) for check in checks)


def test_the_shorter_agent_name_is_found_too(tmp_path: Path) -> None:
    checks = check_environment({"PATH": str(_fake_bin(tmp_path, "agent"))})
    assert checks[0].code == "cursor_command_found" and "`agent`" in checks[0].message


def test_no_api_key_is_a_warning_because_a_login_works_too(tmp_path: Path) -> None:
    checks = check_environment(
        {"PATH": str(_fake_bin(tmp_path, "cursor-agent")), "CURSOR_API_KEY": " "}
    )
    assert check_levels(checks)["cursor_api_key_missing"] == "warn"
    assert "login" in (checks[1].hint or "")
    assert overall_status(checks) == "warn"


def test_a_missing_cli_is_an_error(tmp_path: Path) -> None:
    checks = check_environment({"PATH": str(tmp_path), "CURSOR_API_KEY": "k"})
    assert check_levels(checks)["cursor_command_missing"] == "error"
    assert checks[0].hint and "cursor.com/install" in checks[0].hint
    assert overall_status(checks) == "fail"


def test_the_process_environment_is_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(_fake_bin(tmp_path, "cursor-agent")))
    monkeypatch.delenv("CURSOR_API_KEY", raising=False)
    assert check_levels(check_environment()) == {
        "cursor_command_found": "info",
        "cursor_api_key_missing": "warn",
    }


def test_cloud_needs_only_the_api_key(tmp_path: Path) -> None:
    present = check_cloud_environment({"PATH": str(tmp_path), "CURSOR_API_KEY": "k"})
    assert check_levels(present) == {"cursor_cloud_api_key_present": "info"}
    assert overall_status(present) == "pass"
    missing = check_cloud_environment({"PATH": str(_fake_bin(tmp_path, "cursor-agent"))})
    assert check_levels(missing) == {"cursor_cloud_api_key_missing": "error"}
    assert overall_status(missing) == "fail"
