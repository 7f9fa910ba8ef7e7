"""Environment checks: an ACP agent on PATH is info, none is "not installed" (doctor)."""

from __future__ import annotations

from pathlib import Path

from linewise.plugins.doctor import not_installed
from linewise_acp import check_environment
from support import check_levels, fake_executable


def test_an_agent_on_path_is_named(tmp_path: Path) -> None:
    fake_executable(tmp_path, "codex-acp")
    checks = check_environment({"PATH": str(tmp_path)})
    assert check_levels(checks) == {"acp_agents_found": "info"}
    assert "codex-acp" in checks[0].message


def test_no_agent_is_the_missing_cli_error_doctor_calls_not_installed(tmp_path: Path) -> None:
    assert check_levels(check_environment({"PATH": str(tmp_path)})) == {
        "acp_agents_missing": "error"
    }
    assert check_levels(check_environment({})) == {"acp_agents_missing": "error"}
    assert not_installed(check_environment({"PATH": str(tmp_path)}))
