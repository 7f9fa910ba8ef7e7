"""Claude environment checks: the CLI on PATH, and which credentials it will use."""

from __future__ import annotations

from pathlib import Path

import pytest
from linewise_claude import check_environment
from linewise_contracts import overall_status
from support import fake_executable


def _path_with_claude(tmp_path: Path) -> str:
    return str(fake_executable(tmp_path, "claude").parent)


def test_cli_found_and_subscription_login_passes(tmp_path: Path) -> None:
    checks = check_environment({"PATH": _path_with_claude(tmp_path)})
    assert [c.code for c in checks] == ["claude_command_found", "claude_subscription_auth"]
    assert checks[0].detail == str(tmp_path / "claude")
    assert overall_status(checks) == "pass"


def test_an_api_key_is_a_warning_not_an_error(tmp_path: Path) -> None:
    checks = check_environment({"PATH": _path_with_claude(tmp_path), "ANTHROPIC_API_KEY": "sk-x"})
    warning = next(c for c in checks if c.level == "warn")
    assert warning.code == "claude_anthropic_api_key_overrides_subscription"
    assert "sk-x" not in warning.message  # never the secret itself
    assert overall_status(checks) == "warn"


def test_a_missing_cli_is_an_error_with_a_hint(tmp_path: Path) -> None:
    checks = check_environment({"PATH": str(tmp_path), "CLAUDE_CODE_USE_BEDROCK": "1"})
    assert checks[0].code == "claude_command_missing"
    assert checks[0].hint and "npm install" in checks[0].hint
    assert checks[-1].message == "Claude Code is configured for Bedrock."
    assert overall_status(checks) == "fail"


def test_the_process_environment_is_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", _path_with_claude(tmp_path))
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-live")
    assert [c.level for c in check_environment()] == ["info", "warn"]
