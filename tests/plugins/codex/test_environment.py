"""Codex environment checks: the command on PATH and a way to authenticate, from a given environ."""

from __future__ import annotations

from pathlib import Path

import pytest
from linewise_codex import check_environment
from linewise_contracts import overall_status
from support import check_levels, fake_executable


@pytest.fixture
def bin_dir(tmp_path: Path) -> Path:
    """A PATH directory holding a fake, executable ``codex``."""
    return fake_executable(tmp_path / "bin", "codex").parent


def test_codex_on_path_with_an_api_key_passes(bin_dir: Path, tmp_path: Path) -> None:
    checks = check_environment(
        {"PATH": str(bin_dir), "HOME": str(tmp_path), "OPENAI_API_KEY": "sk-x"}
    )
    assert check_levels(checks) == {"codex_command_found": "info", "codex_api_key_present": "info"}
    assert checks[0].detail == str(bin_dir / "codex")
    assert overall_status(checks) == "pass"
    assert all("sk-x" not in str(check.to_json()) for check in checks), "never report the key"


def test_a_missing_command_is_an_error(tmp_path: Path) -> None:
    checks = check_environment({"PATH": str(tmp_path), "CODEX_API_KEY": "k"})
    assert check_levels(checks)["codex_command_missing"] == "error"
    assert "npm install -g @openai/codex" in (checks[0].hint or "")
    assert overall_status(checks) == "fail"
    assert check_levels(check_environment({}))["codex_command_missing"] == "error"


def test_a_file_that_is_not_executable_is_not_the_command(tmp_path: Path) -> None:
    (tmp_path / "codex").write_text("not a program", encoding="utf-8")
    assert "codex_command_missing" in check_levels(check_environment({"PATH": str(tmp_path)}))


def test_no_key_but_a_stored_login_passes(bin_dir: Path, tmp_path: Path) -> None:
    codex_home = tmp_path / "codex-home"
    codex_home.mkdir()
    (codex_home / "auth.json").write_text("{}", encoding="utf-8")
    checks = check_environment({"PATH": str(bin_dir), "CODEX_HOME": str(codex_home)})
    assert check_levels(checks)["codex_login_found"] == "info"
    assert overall_status(checks) == "pass"
    home = tmp_path / "home"
    (home / ".codex").mkdir(parents=True)
    (home / ".codex" / "auth.json").write_text("{}", encoding="utf-8")
    assert "codex_login_found" in check_levels(
        check_environment({"PATH": str(bin_dir), "HOME": str(home)})
    )


def test_no_credentials_at_all_is_a_warning_not_an_error(bin_dir: Path, tmp_path: Path) -> None:
    """Codex still starts and can be logged in later, so this must not block saving an agent."""
    checks = check_environment(
        {"PATH": str(bin_dir), "HOME": str(tmp_path), "OPENAI_API_KEY": "  "}
    )
    assert check_levels(checks) == {
        "codex_command_found": "info",
        "codex_credentials_missing": "warn",
    }
    assert "codex login" in (checks[1].hint or "")
    assert overall_status(checks) == "warn"


def test_the_process_environment_is_the_default(
    monkeypatch: pytest.MonkeyPatch, bin_dir: Path
) -> None:
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-y")
    assert check_levels(check_environment()) == {
        "codex_command_found": "info",
        "codex_api_key_present": "info",
    }
