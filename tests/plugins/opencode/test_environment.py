"""OpenCode environment checks, with a fake PATH, data directory and environment."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from linewise_contracts import overall_status
from linewise_opencode import check_environment
from support import check_levels, fake_executable


@pytest.fixture
def bin_dir(tmp_path: Path) -> Path:
    """A PATH directory holding an executable ``opencode``."""
    return fake_executable(tmp_path / "bin", "opencode").parent


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


def test_cli_and_a_provider_key_pass(bin_dir: Path, home: Path) -> None:
    environ = {"PATH": str(bin_dir), "HOME": str(home), "ANTHROPIC_API_KEY": "sk-ant-secret"}
    checks = check_environment(environ)
    assert check_levels(checks) == {
        "opencode_command_found": "info",
        "opencode_provider_keys_found": "info",
    }
    assert checks[0].detail == str(bin_dir / "opencode")
    assert "ANTHROPIC_API_KEY" in checks[1].message
    assert "sk-ant-secret" not in repr([check.to_json() for check in checks])
    assert overall_status(checks) == "pass"


def test_missing_cli_is_an_error_with_an_install_hint(tmp_path: Path, home: Path) -> None:
    checks = check_environment({"PATH": str(tmp_path), "HOME": str(home), "OPENAI_API_KEY": "k"})
    assert check_levels(checks)["opencode_command_missing"] == "error"
    assert checks[0].hint is not None and "opencode-ai" in checks[0].hint
    assert overall_status(checks) == "fail"


def test_no_credentials_is_only_a_warning(bin_dir: Path, home: Path) -> None:
    """OpenCode's free models need no key, so missing credentials do not block a run."""
    checks = check_environment({"PATH": str(bin_dir), "HOME": str(home)})
    assert check_levels(checks) == {
        "opencode_command_found": "info",
        "opencode_credentials_missing": "warn",
    }
    assert overall_status(checks) == "warn"


def test_a_stored_login_counts(bin_dir: Path, home: Path, tmp_path: Path) -> None:
    auth = home / ".local" / "share" / "opencode"
    auth.mkdir(parents=True)
    (auth / "auth.json").write_text("{}", encoding="utf-8")
    assert check_levels(check_environment({"PATH": str(bin_dir), "HOME": str(home)})) == {
        "opencode_command_found": "info",
        "opencode_auth_found": "info",
    }
    # XDG_DATA_HOME moves OpenCode's data directory.
    moved = check_environment(
        {"PATH": str(bin_dir), "HOME": str(home), "XDG_DATA_HOME": str(tmp_path / "data")}
    )
    assert "opencode_credentials_missing" in check_levels(moved)


def test_a_config_path_that_does_not_exist_warns(bin_dir: Path, home: Path) -> None:
    environ = {
        "PATH": str(bin_dir),
        "HOME": str(home),
        "OPENAI_API_KEY": "k",
        "OPENCODE_CONFIG": str(home / "missing.json"),
    }
    checks = check_environment(environ)
    assert check_levels(checks)["opencode_config_missing"] == "warn"
    assert overall_status(checks) == "warn"


def test_defaults_to_the_process_environment(
    bin_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(bin_dir) + os.pathsep + os.environ.get("PATH", ""))
    assert check_levels(check_environment())["opencode_command_found"] == "info"
