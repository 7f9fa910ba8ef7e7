"""Environment checks: each plugin's check_environment, pass / warn / fail, and never a crash."""

from __future__ import annotations

import json
import sys

import pytest
from linewise import Registry
from linewise.cli import main
from linewise.plugins.doctor import EnvironmentReport, check_environment, check_environments
from support import FakeSite

PARSE = (
    "def parse_stdout_line(line, ts):\n    return [{'kind': 'stdout', 'ts': ts, 'text': line}]\n"
)
CHECKS = "from linewise_contracts.environment import EnvironmentCheck\n" + PARSE

PLUGINS = {
    "ready_agent": CHECKS
    + """
label = "Ready agent"
def check_environment(environ=None):
    return [EnvironmentCheck(code="cli_found", level="info", message="ready 1.2 at /usr/bin/ready")]
""",
    "careful_agent": CHECKS
    + """
def check_environment(environ=None):
    return [
        EnvironmentCheck(code="cli_found", level="info", message="careful found"),
        EnvironmentCheck(
            code="api_key_set",
            level="warn",
            message="CAREFUL_API_KEY is set: API-key auth is used instead of your subscription",
            hint="unset CAREFUL_API_KEY to use the subscription",
        ),
    ]
""",
    "missing_agent": CHECKS
    + """
def check_environment(environ=None):
    return [
        EnvironmentCheck(
            code="cli_missing",
            level="error",
            message="missing-cli is not on PATH",
            detail="searched /usr/bin:/bin",
            hint="npm install -g missing-cli",
        )
    ]
""",
    "outdated_agent": CHECKS
    + """
def check_environment(environ=None):
    return [
        EnvironmentCheck(code="outdated_command_found", level="info", message="outdated 0.1"),
        EnvironmentCheck(
            code="outdated_version_too_old",
            level="error",
            message="outdated 0.1 is too old",
            hint="upgrade to outdated 2",
        ),
    ]
""",
    "cloud_agent": CHECKS
    + """
def check_environment(environ=None):
    return [
        EnvironmentCheck(code="cloud_api_key_missing", level="error", message="CLOUD_KEY is required")
    ]
""",
    "unhashable_agent": CHECKS
    + """
def check_environment(environ=None):
    return [
        EnvironmentCheck(code="ok", level="info", message="fine"),
        EnvironmentCheck(code="odd", level=["error"], message="a list as level"),
        EnvironmentCheck(code="odder", level=None, message="no level"),
        EnvironmentCheck(code=7, level="info", message="a number as code"),
        EnvironmentCheck(code="x", level="info", message="m", detail=["not", "text"]),
    ]
""",
    "hostile_agent": CHECKS
    + """
class Loud(EnvironmentCheck):
    __slots__ = ()
    def __getattribute__(self, name):
        if name == "message":
            raise SystemExit("no message for you")
        return object.__getattribute__(self, name)

def check_environment(environ=None):
    return [Loud(code="loud", level="info", message="m")]
""",
    "interrupting_agent": PARSE
    + """
def check_environment(environ=None):
    raise GeneratorExit("closing")
""",
    "silent_agent": PARSE,
    "raising_agent": PARSE
    + """
def check_environment(environ=None):
    raise RuntimeError("could not parse ~/.config")
""",
    "exiting_agent": PARSE
    + """
import sys
def check_environment(environ=None):
    sys.exit(3)
""",
    "garbage_agent": PARSE
    + """
def check_environment(environ=None):
    return {"ok": True}
""",
    "dicts_agent": CHECKS
    + """
def check_environment(environ=None):
    return [
        EnvironmentCheck(code="fine", level="info", message="fine"),
        {"code": "x", "level": "info", "message": "a dict"},
        EnvironmentCheck(code="loud", level="fatal", message="not a level"),
    ]
""",
    "hanging_agent": PARSE
    + """
import time
def check_environment(environ=None):
    time.sleep(60)
""",
    "leaky_agent": CHECKS
    + """
import os
def check_environment(environ=None):
    value = os.environ["LEAKY_TOKEN"]
    return [EnvironmentCheck(code="token", level="info", message=f"token {value} works",
                             detail=f"sent Authorization: Bearer {value}")]
""",
}


@pytest.fixture
def site(fake_site: FakeSite) -> FakeSite:
    for adapter_type, source in PLUGINS.items():
        module = f"{adapter_type}_mod"
        fake_site.add(
            adapter_type.replace("_", "-"),
            entry_points={adapter_type: module},
            requires=["linewise-contracts>=1,<2"],
            modules={module: source},
        )
    fake_site.add(
        "broken-agent",
        entry_points={"broken_agent": "broken_agent_mod"},
        modules={"broken_agent_mod": "raise ImportError('no module named acme_native')\n"},
    )
    return fake_site


def _check(site: FakeSite, adapter_type: str, **options: object) -> EnvironmentReport:
    registry = Registry(entry_points=site.entry_points())
    return check_environment(adapter_type, registry=registry, **options)  # type: ignore[arg-type]


def _doctor(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(["doctor", *args])
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


# -- one adapter type -----------------------------------------------------------------


def test_info_checks_pass(site: FakeSite) -> None:
    report = _check(site, "ready_agent")
    assert report.status == "pass"
    assert [check.code for check in report.checks] == ["cli_found"]
    assert (report.label, report.distribution, report.version) == (
        "Ready agent",
        "ready-agent",
        "1.0.0",
    )
    assert report.tested_at.endswith("Z")


def test_a_warning_warns_and_an_error_of_an_installed_cli_fails(site: FakeSite) -> None:
    assert _check(site, "careful_agent").status == "warn"
    report = _check(site, "outdated_agent")
    assert report.status == "fail"
    assert report.checks[1].hint == "upgrade to outdated 2"


def test_a_cli_that_is_not_on_this_machine_is_not_installed_not_failed(site: FakeSite) -> None:
    report = _check(site, "missing_agent")
    assert report.status == "not_installed"
    assert report.checks[0].hint == "npm install -g missing-cli"
    # A cloud adapter whose required key is missing is not set up here either.
    assert _check(site, "cloud_agent").status == "not_installed"


def test_a_check_level_that_is_not_one_of_the_three_fails_that_check_only(
    site: FakeSite,
) -> None:
    report = _check(site, "unhashable_agent")
    assert report.status == "fail"
    assert [(c.code, c.level) for c in report.checks] == [
        ("ok", "info"),
        ("invalid_checks", "error"),
        ("invalid_checks", "error"),
        ("invalid_checks", "error"),
        ("invalid_checks", "error"),
    ]
    assert report.checks[1].message == "check_environment() returned level ['error'] as check 2"
    assert report.checks[2].message == "check_environment() returned level None as check 3"
    assert "code or message is not a string" in report.checks[3].message
    assert "detail or hint is not a string" in report.checks[4].message


def test_a_check_whose_fields_raise_is_an_invalid_check(site: FakeSite) -> None:
    report = _check(site, "hostile_agent")
    assert report.status == "fail"
    (check,) = report.checks
    assert check.code == "invalid_checks"
    assert "SystemExit: no message for you" in check.message


def test_a_plugin_without_checks_is_unchecked_not_failed(site: FakeSite) -> None:
    report = _check(site, "silent_agent")
    assert (report.status, report.checks) == (None, ())
    assert report.note == "the plugin exports no check_environment: nothing to check"


@pytest.mark.parametrize(
    ("adapter_type", "code", "message"),
    [
        (
            "raising_agent",
            "check_raised",
            "check_environment() raised RuntimeError: could not parse",
        ),
        ("exiting_agent", "check_raised", "check_environment() raised SystemExit: 3"),
        ("interrupting_agent", "check_raised", "check_environment() raised GeneratorExit: closing"),
        ("garbage_agent", "invalid_checks", "check_environment() returned a dict, not a list"),
        (
            "broken_agent",
            "plugin_not_loaded",
            "the plugin did not load: import failed: ImportError",
        ),
    ],
)
def test_a_broken_plugin_is_a_failed_check_not_a_crash(
    site: FakeSite, adapter_type: str, code: str, message: str
) -> None:
    report = _check(site, adapter_type)
    assert report.status == "fail"
    (check,) = report.checks
    assert (check.code, check.level) == (code, "error")
    assert check.message.startswith(message)
    assert check.hint


def test_invalid_items_fail_and_valid_ones_are_kept(site: FakeSite) -> None:
    report = _check(site, "dicts_agent")
    assert report.status == "fail"
    assert [(c.code, c.level) for c in report.checks] == [
        ("fine", "info"),
        ("invalid_checks", "error"),
        ("invalid_checks", "error"),
    ]
    assert report.checks[1].message == "check_environment() returned a dict as check 2"
    assert report.checks[2].message == "check_environment() returned level 'fatal' as check 3"


def test_a_check_that_hangs_fails_after_the_timeout(site: FakeSite) -> None:
    report = _check(site, "hanging_agent", timeout=0.3)
    assert report.status == "fail"
    assert report.checks[0].code == "check_timed_out"
    assert report.checks[0].message == "check_environment() did not finish within 0.3s"


def test_a_disabled_plugin_is_not_checked(site: FakeSite) -> None:
    registry = Registry(entry_points=site.entry_points(), disable=["missing_agent"])
    report = check_environment("missing_agent", registry=registry)
    assert report.status is None and "disabled" in (report.note or "")
    assert "missing_agent_mod" not in sys.modules


def test_every_installed_plugin_by_default(site: FakeSite) -> None:
    registry = Registry(entry_points=site.entry_points())
    reports = check_environments(registry=registry, timeout=0.3)
    assert [report.adapter_type for report in reports] == sorted([*PLUGINS, "broken_agent"])
    assert check_environments(["ready_agent"], registry=registry)[0].status == "pass"


# -- the command --------------------------------------------------------------------


def test_doctor_prints_checks_with_their_levels_and_exits_0_without_failures(
    site: FakeSite, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _doctor("ready_agent", "careful_agent", "silent_agent", capsys=capsys)
    assert code == 0
    assert out.splitlines() == [
        "ready_agent    PASS  ready-agent 1.0.0 · Ready agent",
        "  info   cli_found  ready 1.2 at /usr/bin/ready",
        "careful_agent  WARN  careful-agent 1.0.0",
        "  info   cli_found    careful found",
        "  warn   api_key_set  CAREFUL_API_KEY is set: API-key auth is used instead of your subscription",
        "                      hint: unset CAREFUL_API_KEY to use the subscription",
        "silent_agent   UNCHECKED  silent-agent 1.0.0",
        "  the plugin exports no check_environment: nothing to check",
        # These fakes are 1.x plugins: doctor names them once, with what to do.
        "careful-agent, ready-agent, silent-agent: contract 1.x loose exports, read until "
        "contract 2.0; declare one Agent instead (CONTRIBUTING.md, 'Declaring your plugin')",
        "3 adapter types: 1 pass, 1 warn, 1 unchecked",
    ]


def test_doctor_exits_1_when_an_adapter_fails_and_shows_detail_and_hint(
    site: FakeSite, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _doctor("missing_agent", "raising_agent", capsys=capsys)
    assert code == 1
    assert "missing_agent  NOT INSTALLED  missing-agent 1.0.0" in out
    assert "  error  cli_missing  missing-cli is not on PATH" in out
    assert "                      searched /usr/bin:/bin" in out
    assert "                      hint: npm install -g missing-cli" in out
    assert "check_environment() raised RuntimeError: could not parse ~/.config" in out
    assert out.endswith("2 adapter types: 1 fail, 1 not installed\n")


def test_doctor_over_everything_exits_0_when_the_only_problem_is_clis_not_installed(
    fake_site: FakeSite, capsys: pytest.CaptureFixture[str]
) -> None:
    for adapter_type in ("ready_agent", "missing_agent", "cloud_agent", "silent_agent"):
        fake_site.add(
            adapter_type.replace("_", "-"),
            entry_points={adapter_type: f"{adapter_type}_mod"},
            modules={f"{adapter_type}_mod": PLUGINS[adapter_type]},
        )
    code, out, _ = _doctor(capsys=capsys)
    # The real first-party plugins are checked too: their CLIs may or may not be here.
    assert code == 0, out
    *lines, tally = out.splitlines()
    assert "fail" not in tally and "1 pass" in tally and "not installed" in tally
    assert any(line.startswith("missing_agent  ") and "NOT INSTALLED" in line for line in lines)
    code, out, _ = _doctor("--json", capsys=capsys)
    payload = json.loads(out)
    assert code == 0 and payload["status"] == "pass"
    statuses = {a["adapterType"]: a["status"] for a in payload["adapters"]}
    assert statuses["missing_agent"] == statuses["cloud_agent"] == "not_installed"
    # Named on the command line, a CLI that is not installed answers "no": exit 1.
    assert _doctor("missing_agent", capsys=capsys)[0] == 1


def test_doctor_shows_an_unhashable_level_without_crashing(
    site: FakeSite, capsys: pytest.CaptureFixture[str]
) -> None:
    for extra in ([], ["--json"], ["--color", "always"]):
        code, out, err = _doctor("unhashable_agent", "hostile_agent", *extra, capsys=capsys)
        assert code == 1
        assert "Traceback" not in err
        assert "level ['error']" in out


def test_doctor_colours_statuses_and_levels_from_the_one_colour_table(
    site: FakeSite, capsys: pytest.CaptureFixture[str]
) -> None:
    from linewise.render import paint

    _, out, _ = _doctor("careful_agent", "--color", "always", capsys=capsys)
    assert paint("WARN", "warn") in out  # the adapter type's status
    assert paint("warn ", "warn") in out  # one check's level, padded


def test_doctor_json(site: FakeSite, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _doctor("careful_agent", "silent_agent", "--json", capsys=capsys)
    assert code == 0
    payload = json.loads(out)
    assert payload["status"] == "warn"
    careful, silent = payload["adapters"]
    assert careful["adapterType"] == "careful_agent" and careful["status"] == "warn"
    assert careful["checks"][1] == {
        "code": "api_key_set",
        "level": "warn",
        "message": "CAREFUL_API_KEY is set: API-key auth is used instead of your subscription",
        "detail": None,
        "hint": "unset CAREFUL_API_KEY to use the subscription",
    }
    assert silent["status"] is None and silent["checks"] == []
    code, out, _ = _doctor("broken_agent", "--json", capsys=capsys)
    assert code == 1 and json.loads(out)["status"] == "fail"


def test_doctor_never_prints_a_secret_value_a_check_quotes(
    site: FakeSite, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEAKY_TOKEN", "tok-0123456789")
    for args in (["leaky_agent"], ["leaky_agent", "--json"]):
        code, out, _ = _doctor(*args, capsys=capsys)
        assert code == 0
        assert "tok-0123456789" not in out
        assert "token *** works" in out and "Bearer ***" in out


def test_doctor_times_out_a_hanging_check(
    site: FakeSite, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _doctor("hanging_agent", "--timeout", "0.3", capsys=capsys)
    assert code == 1
    assert "check_timed_out" in out


def test_doctor_of_an_unknown_adapter_type_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = _doctor("nope", capsys=capsys)
    assert code == 2
    assert "unknown adapter type 'nope'" in err


def test_doctor_runs_over_the_real_installed_plugins(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _doctor("--json", capsys=capsys)
    payload = json.loads(out)
    claude = next(a for a in payload["adapters"] if a["adapterType"] == "claude_local")
    assert claude["distribution"] == "linewise-claude"
    assert claude["status"] in (None, "pass", "warn", "fail", "not_installed")
    assert code == (1 if payload["status"] == "fail" else 0)
    if claude["status"] == "not_installed":
        assert any(check["code"] == "claude_command_missing" for check in claude["checks"])
    code, out, _ = _doctor("process", capsys=capsys)
    assert code == 0 and "built in" in out
