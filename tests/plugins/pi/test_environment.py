"""Environment checks for the Pi coding agent, with a fake environment."""

from __future__ import annotations

from pathlib import Path

import pytest
from linewise_contracts import overall_status
from linewise_pi import check_environment
from support import fake_executable


def _fake_pi(tmp_path: Path) -> Path:
    return fake_executable(tmp_path / "bin", "pi").parent


def test_cli_installed_and_a_provider_key_set_passes(tmp_path: Path) -> None:
    folder = _fake_pi(tmp_path)
    checks = check_environment(
        {"PATH": str(folder), "OPENAI_API_KEY": "sk-secret", "XAI_API_KEY": "xai-secret"}
    )
    assert [(c.code, c.level) for c in checks] == [
        ("pi_command_found", "info"),
        ("pi_api_key_present", "info"),
    ]
    assert checks[0].detail == str(folder / "pi")
    assert checks[1].detail == "OPENAI_API_KEY, XAI_API_KEY"  # names, never values
    assert "secret" not in str([check.to_json() for check in checks])
    assert overall_status(checks) == "pass"


def test_no_provider_key_is_a_warning_because_a_login_works_too(tmp_path: Path) -> None:
    checks = check_environment({"PATH": str(_fake_pi(tmp_path)), "ANTHROPIC_API_KEY": ""})
    assert [(c.code, c.level) for c in checks][1] == ("pi_api_key_missing", "warn")
    assert "/login" in checks[1].message
    assert overall_status(checks) == "warn"


def test_a_missing_cli_is_an_error(tmp_path: Path) -> None:
    checks = check_environment({"PATH": str(tmp_path), "GEMINI_API_KEY": "g"})
    assert (checks[0].code, checks[0].level) == ("pi_command_missing", "error")
    assert checks[0].hint and "@mariozechner/pi-coding-agent" in checks[0].hint
    assert overall_status(checks) == "fail"


def test_the_process_environment_is_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(_fake_pi(tmp_path)))
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    assert [c.code for c in check_environment()] == ["pi_command_found", "pi_api_key_present"]
