"""Gemini CLI environment checks, with a fake PATH, home and environment."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from linewise_contracts import overall_status
from linewise_gemini import check_environment
from support import check_levels, fake_executable


@pytest.fixture
def bin_dir(tmp_path: Path) -> Path:
    """A PATH directory holding an executable ``gemini``."""
    return fake_executable(tmp_path / "bin", "gemini").parent


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


def test_cli_and_api_key_pass(bin_dir: Path, home: Path) -> None:
    environ = {"PATH": str(bin_dir), "HOME": str(home), "GEMINI_API_KEY": "AIza-secret"}
    checks = check_environment(environ)
    assert check_levels(checks) == {"gemini_command_found": "info", "gemini_api_key_set": "info"}
    assert checks[0].detail == str(bin_dir / "gemini")
    assert overall_status(checks) == "pass"
    # A key's value never appears in what the checks report.
    assert "AIza-secret" not in repr([check.to_json() for check in checks])


def test_missing_cli_is_an_error_with_an_install_hint(tmp_path: Path, home: Path) -> None:
    checks = check_environment({"PATH": str(tmp_path), "HOME": str(home), "GEMINI_API_KEY": "k"})
    (missing,) = [check for check in checks if check.level == "error"]
    assert missing.code == "gemini_command_missing"
    assert missing.hint is not None and "@google/gemini-cli" in missing.hint
    assert overall_status(checks) == "fail"


def test_no_path_at_all_is_a_missing_cli(home: Path) -> None:
    assert check_levels(check_environment({"HOME": str(home)}))["gemini_command_missing"] == "error"


def test_no_credentials_is_only_a_warning(bin_dir: Path, home: Path) -> None:
    """Gemini can still sign in interactively (or use a keychain login): not an error."""
    checks = check_environment({"PATH": str(bin_dir), "HOME": str(home)})
    assert check_levels(checks) == {
        "gemini_command_found": "info",
        "gemini_credentials_missing": "warn",
    }
    assert overall_status(checks) == "warn"


def test_a_cached_google_login_counts(bin_dir: Path, home: Path, tmp_path: Path) -> None:
    (home / ".gemini").mkdir()
    (home / ".gemini" / "oauth_creds.json").write_text("{}", encoding="utf-8")
    checks = check_environment({"PATH": str(bin_dir), "HOME": str(home)})
    assert check_levels(checks) == {"gemini_command_found": "info", "gemini_login_found": "info"}
    # GEMINI_CLI_HOME replaces the home directory Gemini looks in.
    other = tmp_path / "profile"
    other.mkdir()
    moved = check_environment(
        {"PATH": str(bin_dir), "HOME": str(home), "GEMINI_CLI_HOME": str(other)}
    )
    assert "gemini_credentials_missing" in check_levels(moved)


@pytest.mark.parametrize(
    ("extra", "code", "level"),
    [
        (
            {"GOOGLE_CLOUD_PROJECT": "p", "GOOGLE_CLOUD_LOCATION": "us-central1"},
            "gemini_vertex_configured",
            "info",
        ),
        ({"GOOGLE_API_KEY": "k"}, "gemini_vertex_configured", "info"),
        ({"GOOGLE_CLOUD_PROJECT": "p"}, "gemini_vertex_incomplete", "warn"),
    ],
)
def test_vertex_ai_settings(
    bin_dir: Path, home: Path, extra: dict[str, str], code: str, level: str
) -> None:
    environ = {
        "PATH": str(bin_dir),
        "HOME": str(home),
        "GOOGLE_GENAI_USE_VERTEXAI": "true",
        **extra,
    }
    codes = check_levels(check_environment(environ))
    assert codes[code] == level
    assert "gemini_credentials_missing" not in codes


def test_defaults_to_the_process_environment(
    bin_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(bin_dir) + os.pathsep + os.environ.get("PATH", ""))
    monkeypatch.setenv("GEMINI_API_KEY", "k")
    assert check_levels(check_environment())["gemini_command_found"] == "info"
