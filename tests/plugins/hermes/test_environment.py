"""The Hermes environment checks: the command on PATH and a model provider's key."""

from __future__ import annotations

from pathlib import Path

import pytest
from linewise_contracts import overall_status
from linewise_hermes import check_environment
from support import check_levels, fake_executable


def _fake_command(folder: Path, name: str = "hermes") -> Path:
    return fake_executable(folder, name)


def test_everything_in_place_passes(tmp_path: Path) -> None:
    command = _fake_command(tmp_path / "bin")
    checks = check_environment(
        {
            "PATH": str(tmp_path / "bin"),
            "OPENROUTER_API_KEY": "sk-or-1",
            "ANTHROPIC_API_KEY": "sk-ant",
        }
    )
    assert check_levels(checks) == {"hermes_command_found": "info", "hermes_api_keys_found": "info"}
    assert str(command) in checks[0].message
    assert checks[1].message == "API keys found for: OpenRouter, Anthropic"
    assert overall_status(checks) == "pass"


def test_no_key_in_the_environment_is_only_a_warning(tmp_path: Path) -> None:
    """Hermes reads its own ~/.hermes/.env, so it may well run."""
    _fake_command(tmp_path / "bin")
    checks = check_environment({"PATH": str(tmp_path / "bin"), "HERMES_HOME": "/srv/hermes"})
    assert check_levels(checks) == {"hermes_command_found": "info", "hermes_no_api_keys": "warn"}
    assert overall_status(checks) == "warn"
    assert "/srv/hermes/.env" in (checks[1].hint or "")


def test_a_missing_command_is_an_error(tmp_path: Path) -> None:
    _fake_command(tmp_path / "bin", name="hermes-agent")
    checks = check_environment({"PATH": str(tmp_path / "bin"), "OPENAI_API_KEY": "sk"})
    assert check_levels(checks) == {
        "hermes_command_missing": "error",
        "hermes_api_keys_found": "info",
    }
    assert overall_status(checks) == "fail"


def test_the_given_environment_is_the_only_one_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENROUTER_API_KEY", "from-the-process")
    checks = check_environment({"PATH": str(tmp_path)})
    assert check_levels(checks)["hermes_no_api_keys"] == "warn"
