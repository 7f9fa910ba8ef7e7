"""The environment check helpers: a command on a given PATH, credential variables set or not."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

import pytest
from linewise_contracts import EnvironmentCheck, command_check, variable_check
from support import fake_executable


def _acme(environ: dict[str, str], *, path_as_detail: bool = True) -> EnvironmentCheck:
    return command_check(
        ("acme", "acme-cli"),
        environ=environ,
        found_code="acme_command_found",
        found_message="Acme CLI found: `{name}` at {path}.",
        missing_code="acme_command_missing",
        missing_message="The Acme CLI (`acme`) is not on PATH.",
        hint="Install Acme.",
        path_as_detail=path_as_detail,
    )


def _key(
    environ: dict[str, str],
    *,
    missing_level: Literal["warn", "error"] = "warn",
    missing_detail: str | None = None,
    names_as_detail: bool = False,
) -> EnvironmentCheck:
    return variable_check(
        ("ACME_API_KEY", "ACME_TOKEN"),
        environ=environ,
        present_code="acme_api_key_present",
        present_message="An Acme key is set.",
        missing_code="acme_api_key_missing",
        missing_message="No Acme key is set.",
        hint="Set ACME_API_KEY.",
        missing_level=missing_level,
        missing_detail=missing_detail,
        names_as_detail=names_as_detail,
    )


def test_a_command_on_path_is_info_with_its_path_as_detail(tmp_path: Path) -> None:
    program = fake_executable(tmp_path / "bin", "acme")
    check = _acme({"PATH": str(tmp_path / "bin")})
    assert check == EnvironmentCheck(
        code="acme_command_found",
        level="info",
        message=f"Acme CLI found: `acme` at {program}.",
        detail=str(program),
    )


def test_the_first_name_found_wins_and_later_names_are_tried(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    fake_executable(first, "acme-cli")
    fake_executable(second, "acme")
    both = os.pathsep.join([str(first), str(second)])
    assert "`acme`" in _acme({"PATH": both}).message  # name order beats PATH order
    assert _acme({"PATH": str(first)}).detail == str(first / "acme-cli")


def test_the_path_can_stay_out_of_the_detail(tmp_path: Path) -> None:
    program = fake_executable(tmp_path, "acme")
    check = _acme({"PATH": str(tmp_path)}, path_as_detail=False)
    assert check.detail is None
    assert str(program) in check.message


def test_a_command_not_on_path_is_an_error_with_the_hint(tmp_path: Path) -> None:
    (tmp_path / "acme").write_text("not a program", encoding="utf-8")
    missing = EnvironmentCheck(
        code="acme_command_missing",
        level="error",
        message="The Acme CLI (`acme`) is not on PATH.",
        hint="Install Acme.",
    )
    assert _acme({"PATH": str(tmp_path / "nowhere")}) == missing
    assert _acme({"PATH": str(tmp_path)}) == missing, "a file that is not executable"
    assert _acme({"PATH": ""}) == missing
    assert _acme({}) == missing


def test_a_lone_name_is_one_command_not_its_letters(tmp_path: Path) -> None:
    fake_executable(tmp_path, "a")
    check = command_check(
        "ab",
        environ={"PATH": str(tmp_path)},
        found_code="found",
        found_message="found",
        missing_code="missing",
        missing_message="missing",
        hint="install ab",
    )
    assert check.code == "missing"


def test_only_the_given_environ_is_searched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_executable(tmp_path, "acme")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert _acme({}).code == "acme_command_missing"


def test_a_set_variable_is_info_without_its_value() -> None:
    check = _key({"ACME_TOKEN": "secret-123"})
    assert check == EnvironmentCheck(
        code="acme_api_key_present", level="info", message="An Acme key is set."
    )
    assert "secret-123" not in str(check.to_json())


def test_the_names_set_can_be_the_detail() -> None:
    environ = {"ACME_API_KEY": "k1", "ACME_TOKEN": "k2"}
    check = _key(environ, names_as_detail=True)
    assert check.detail == "ACME_API_KEY, ACME_TOKEN"
    assert "k1" not in str(check.to_json()) and "k2" not in str(check.to_json())
    assert _key({"ACME_TOKEN": "k2", "ACME_API_KEY": " "}, names_as_detail=True).detail == (
        "ACME_TOKEN"
    )


@pytest.mark.parametrize("environ", [{}, {"ACME_API_KEY": "  "}, {"OTHER_KEY": "k"}])
def test_unset_or_blank_variables_are_a_warning_with_the_hint(environ: dict[str, str]) -> None:
    assert _key(environ) == EnvironmentCheck(
        code="acme_api_key_missing",
        level="warn",
        message="No Acme key is set.",
        hint="Set ACME_API_KEY.",
    )


def test_a_missing_variable_can_be_an_error_with_a_detail() -> None:
    check = _key({}, missing_level="error", missing_detail="Acme Cloud needs a key.")
    assert (check.level, check.detail) == ("error", "Acme Cloud needs a key.")
    assert _key({"ACME_API_KEY": "k"}, missing_detail="unused").detail is None


def test_a_lone_variable_name_is_one_variable() -> None:
    check = variable_check(
        "AB",
        environ={"A": "1", "B": "1"},
        present_code="present",
        present_message="set",
        missing_code="missing",
        missing_message="unset",
        hint="set AB",
    )
    assert check.code == "missing"
