"""The compliance kit on plugin projects checked from source: what it finds and how it says it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from linewise_contracts.compliance import TITLES, Report, TargetError, run_checks

GOOD = '''
"""A tiny parser for `NOTE:` lines."""

label = "Notes"


def parse_stdout_line(line, ts):
    if line.startswith("NOTE:"):
        return [{"kind": "system", "ts": ts, "text": line[5:].strip()}]
    return [{"kind": "stdout", "ts": ts, "text": line}]
'''


def _project(
    root: Path,
    source: str,
    *,
    name: str = "notes-parser",
    dependencies: str = '["linewise-contracts>=1.0,<2"]',
    samples: str | None = "NOTE: one\nplain\n",
    extra_files: dict[str, str] | None = None,
) -> Path:
    package = root / "src" / name.replace("-", "_")
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(textwrap.dedent(source), encoding="utf-8")
    if samples is not None:
        (package / "samples").mkdir()
        (package / "samples" / "run.log").write_text(samples, encoding="utf-8")
    for relative, text in (extra_files or {}).items():
        (package / relative).write_text(text, encoding="utf-8")
    (root / "pyproject.toml").write_text(
        textwrap.dedent(
            f"""
            [project]
            name = "{name}"
            version = "0.1.0"
            dependencies = {dependencies}

            [project.entry-points."linewise.parsers"]
            notes_local = "{name.replace("-", "_")}"
            """
        ),
        encoding="utf-8",
    )
    return root


def _by_check(report: Report) -> dict[str, tuple[str, str]]:
    return {
        result.check: (result.status, " ".join([result.message, *result.details]))
        for result in report.results
    }


def test_a_good_plugin_passes_every_check(tmp_path: Path) -> None:
    report = run_checks(str(_project(tmp_path, GOOD)), examples=100)
    checks = _by_check(report)
    assert report.ok, checks
    assert set(checks) == set(TITLES)  # every check has a verdict
    assert checks["metadata.exports"][0] == "pass"
    assert checks["checker.integrity"][0] == "pass"
    for optional in (
        "sniff",
        "summarize_run",
        "format_stdout_line",
        "format_entries",
        "check_environment",
    ):
        assert checks[optional] == ("skip", "not exported")
    assert "2 sample lines from" in checks["parse.valid"][1]
    assert report.distribution == "notes-parser"
    assert report.adapter_types == ("notes_local",)


def test_fuzzing_reports_the_minimal_failing_input(tmp_path: Path) -> None:
    source = GOOD + textwrap.dedent(
        """
        import json


        def parse_stdout_line(line, ts):  # noqa: F811
            if line.startswith("{"):
                event = json.loads(line, parse_int=float)  # no 4300-digit limit to trip on
                kind = event["type"]
                return [{"kind": "system", "ts": ts, "text": kind if type(kind) is str else "?"}]
            return [{"kind": "stdout", "ts": ts, "text": line}]
        """
    )
    # The bugs under test are broken JSON and a missing "type", both small; a 5000-digit
    # integer would raise too (int() of it, in json.loads or str()), with a long input that
    # cannot shrink below 4300 digits, so the parser avoids it.
    report = run_checks(str(_project(tmp_path, source, samples='{"type": "a"}\n')), examples=300)
    status, text = _by_check(report)["parse.never_throws"]
    assert status == "fail"
    assert "raised" in text
    # hypothesis shrinks to a small input: an object without "type", or broken JSON.
    assert "lines: [" in text and len(text) < 400, text


def test_non_determinism_and_a_reset_that_does_not_reset(tmp_path: Path) -> None:
    source = """
    import itertools

    _ids = itertools.count()  # module-level state: the mistake under test


    class Parser:
        def __init__(self):
            self.seen = 0

        def parse_line(self, line, ts):
            self.seen += 1
            return [{"kind": "stdout", "ts": ts, "text": f"{self.seen}:{next(_ids)}:{line}"}]

        def reset(self):
            pass


    def create_stdout_parser():
        return Parser()
    """
    checks = _by_check(run_checks(str(_project(tmp_path, source)), examples=0))
    assert checks["parse.deterministic"][0] == "fail"
    assert "a fresh parser gives different output" in checks["parse.deterministic"][1]
    assert checks["parse.reset"][0] == "fail"
    assert "reset() does not return the parser to its fresh state" in checks["parse.reset"][1]


def test_side_effects_while_parsing_are_reported_with_their_origin(tmp_path: Path) -> None:
    source = GOOD + textwrap.dedent(
        """
        import os


        def parse_stdout_line(line, ts):  # noqa: F811
            home = os.environ.get("HOME", "")
            return [{"kind": "stdout", "ts": ts, "text": home + line}]
        """
    )
    project = _project(tmp_path, source)
    status, text = _by_check(run_checks(str(project), examples=0))["parse.side_effects"]
    assert status == "fail"
    assert "environment access during parsing: os.environ read 'HOME'" in text
    assert "notes_parser/__init__.py:" in text and "(parse_stdout_line)" in text


def test_undeclared_dependencies_and_oversized_code(tmp_path: Path) -> None:
    source = GOOD + "\nimport pluggy  # not declared\n"
    big = "# padding\n" * 6000
    project = _project(tmp_path, source, dependencies="[]", extra_files={"big.py": big})
    checks = _by_check(run_checks(str(project), examples=0))
    assert checks["size.dependencies"][0] == "fail"
    assert (
        "imports 'pluggy' from pluggy, which is not in its dependencies"
        in checks["size.dependencies"][1]
    )
    assert checks["size.code"][0] == "warn"
    assert checks["metadata.contract"][0] == "warn"  # nothing declared: grace period


def test_a_crash_in_native_code_fails_the_running_check(tmp_path: Path) -> None:
    source = GOOD + textwrap.dedent(
        """
        import ctypes


        def parse_stdout_line(line, ts):  # noqa: F811
            if line == "crash":
                ctypes.string_at(0)  # a segfault, as a bug in a C extension would cause
            return [{"kind": "stdout", "ts": ts, "text": line}]
        """
    )
    report = run_checks(str(_project(tmp_path, source, samples="ok\ncrash\n")), examples=0)
    status, text = _by_check(report)["parse.valid"]
    assert status == "fail"
    assert "the worker process died (killed by SIGSEGV) while running this check" in text


def test_a_memory_bomb_is_contained(tmp_path: Path) -> None:
    source = GOOD + textwrap.dedent(
        """
        def parse_stdout_line(line, ts):  # noqa: F811
            if line == "bomb":
                hoard = [bytearray(256 * 1024 * 1024) for _ in range(64)]  # 16 GiB
                return [{"kind": "stdout", "ts": ts, "text": str(len(hoard))}]
            return [{"kind": "stdout", "ts": ts, "text": line}]
        """
    )
    report = run_checks(
        str(_project(tmp_path, source, samples="ok\nbomb\n")), examples=0, line_timeout=60
    )
    status, text = _by_check(report)["parse.valid"]
    assert status == "fail"
    assert "line 2: raised MemoryError" in text


def test_unknown_targets_are_an_error() -> None:
    with pytest.raises(TargetError, match="neither a path, an installed adapter type nor"):
        run_checks("no_such_adapter_anywhere")


def test_the_pytest_plugin_turns_checks_into_tests(tmp_path: Path) -> None:
    project = _project(tmp_path / "project", GOOD)
    broken = _project(
        tmp_path / "broken",
        GOOD.replace('"kind": "system"', '"kind": "sistem"'),
        name="broken-notes",
    )
    (tmp_path / "test_own.py").write_text(
        textwrap.dedent(
            f"""
            def test_fixture(linewise_check):
                report = linewise_check({str(project)!r}, examples=20)
                assert report.ok
            """
        ),
        encoding="utf-8",
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            "-rA",
            "--linewise-check",
            str(project),
            "--linewise-check",
            str(broken),
            "--linewise-examples",
            "20",
            str(tmp_path / "test_own.py"),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
        check=False,
        env={**os.environ, "PYTHONPATH": ""},
    )
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert any(
        line.startswith("PASSED") and "linewise[project:notes_local:parse.valid]" in line
        for line in lines
    )
    assert any(
        line.startswith("FAILED") and "linewise[broken:notes_local:parse.valid]" in line
        for line in lines
    )
    assert "unknown kind 'sistem'" in done.stdout
    assert any(line.startswith("PASSED") and "test_fixture" in line for line in lines)
    # 43 checks: 10 skipped (optional exports neither has); the broken one fails parse.valid,
    # and its fuzzing too when 20 examples happen to reach a NOTE: line.
    counts = re.search(r"(\d+) failed, (\d+) passed, (\d+) skipped", done.stdout)
    assert counts is not None, done.stdout
    failed, passed, skipped = (int(group) for group in counts.groups())
    assert (failed + passed, skipped) == (33, 10) and failed in (1, 2)


def test_the_json_report_is_machine_readable(tmp_path: Path) -> None:
    report = run_checks(str(_project(tmp_path, GOOD)), examples=0)
    payload = json.loads(json.dumps(report.to_json()))
    assert payload["ok"] is True
    assert payload["counts"]["fail"] == 0
    assert payload["results"][0]["title"] == "entry point group, names and values"


# -- verdicts the plugin cannot forge (issue 13) ---------------------------------------

INVALID = """
def parse_stdout_line(line, ts):
    return [{"kind": "sistem", "ts": ts, "text": line}]
"""


def test_a_plugin_that_patches_json_dumps_cannot_turn_fails_into_passes(tmp_path: Path) -> None:
    source = INVALID + textwrap.dedent(
        """
        import json

        _real = json.dumps


        def _forged(value, *args, **kwargs):
            if isinstance(value, dict) and value.get("status") == "fail":
                value = {**value, "status": "pass"}
            return _real(value, *args, **kwargs)


        json.dumps = _forged
        """
    )
    checks = _by_check(run_checks(str(_project(tmp_path, source)), examples=20))
    assert checks["parse.valid"][0] == "fail"
    assert "unknown kind 'sistem'" in checks["parse.valid"][1]
    assert checks["parse.never_throws"][0] == "fail"
    assert checks["import.side_effects"][0] == "fail"
    assert "checker's own code and module globals" in checks["import.side_effects"][1]
    assert checks["checker.integrity"][0] == "fail"
    assert "json" in checks["checker.integrity"][1]


def test_a_plugin_that_patches_the_checkers_validation_is_still_judged(tmp_path: Path) -> None:
    source = INVALID + textwrap.dedent(
        """
        import marshal
        from linewise_contracts import validation
        from linewise_contracts.compliance import _judge

        validation.entry_problem = lambda entry: None
        _judge.line_problem = lambda outcome, line: None
        _judge.batch_problem = lambda *args: None
        marshal.dumps = lambda value, *rest: b"N"
        """
    )
    checks = _by_check(run_checks(str(_project(tmp_path, source)), examples=20))
    assert checks["parse.valid"][0] == "fail"
    assert "unknown kind 'sistem'" in checks["parse.valid"][1]
    assert checks["parse.never_throws"][0] == "fail"
    assert checks["checker.integrity"][0] == "fail"


@pytest.mark.parametrize(
    ("garbage", "reason"),
    [
        ('b"\\xff" * 64', "a record announces 4,294,967,295 bytes"),
        ('b"\\x05\\x00\\x00\\x00" + b"m" * 32 + b"pass!"', "a record that is not one"),
    ],
    ids=["huge-length", "forged-record"],
)
def test_garbage_written_to_the_results_channel_fails_the_check_without_a_crash(
    tmp_path: Path, garbage: str, reason: str
) -> None:
    source = GOOD + textwrap.dedent(
        f"""
        import os

        for _fd in range(3, 64):
            try:
                os.write(_fd, {garbage})
            except OSError:
                pass
        """
    )
    report = run_checks(str(_project(tmp_path, source)), examples=0)
    assert not report.ok
    text = " ".join(f"{r.check} {r.status} {r.message}" for r in report.results)
    assert "the results channel was tampered with" in text
    assert reason in text


def test_an_entry_as_deep_as_the_contract_allows_reaches_the_checker_whole(
    tmp_path: Path,
) -> None:
    # A tool call whose input nests 500 objects (the contract allows 512): each one is three
    # levels of the channel's JSON, beyond json's default recursion limit; it is judged, not
    # taken for a tampered channel.
    source = GOOD + textwrap.dedent(
        """

        def parse_stdout_line(line, ts):  # noqa: F811
            deep = {}
            for _ in range(500):
                deep = {"a": deep}
            return [{"kind": "tool_call", "ts": ts, "name": "x", "input": deep, "toolUseId": "t"}]
        """
    )
    checks = _by_check(run_checks(str(_project(tmp_path, source)), examples=0))
    assert checks["parse.valid"][0] == "pass", checks["parse.valid"]
    assert "tampered" not in " ".join(message for _, message in checks.values())


def test_a_missing_verdict_is_a_failure(tmp_path: Path) -> None:
    # The plugin ends the worker cleanly right after import: every later check lacks a verdict.
    source = (
        GOOD + "\nimport os\n\ndef parse_stdout_line(line, ts):  # noqa: F811\n    os._exit(0)\n"
    )
    checks = _by_check(run_checks(str(_project(tmp_path, source)), examples=0))
    assert checks["parse.valid"][0] == "fail"
    assert checks["parse.never_throws"][0] == "fail"
    assert "no verdict" in checks["parse.never_throws"][1]


# -- containment (issue 13) -------------------------------------------------------------


def test_a_hang_that_swallows_the_alarm_is_killed_on_the_parents_clock(tmp_path: Path) -> None:
    source = GOOD + textwrap.dedent(
        """
        import time


        def parse_stdout_line(line, ts):  # noqa: F811
            if line == "hang":
                while True:
                    try:
                        time.sleep(60)
                    except BaseException:  # a bare except: the alarm is swallowed
                        pass
            return [{"kind": "stdout", "ts": ts, "text": line}]
        """
    )
    project = _project(tmp_path, source, samples="ok\nhang\n")
    started = time.monotonic()
    report = run_checks(str(project), examples=0, line_timeout=1.0)
    assert time.monotonic() - started < 20
    status, text = _by_check(report)["parse.valid"]
    assert status == "fail"
    assert "line 2 still running after 1 s ignored the per-line limit" in text


def test_a_forked_child_holding_the_pipes_neither_delays_check_nor_outlives_it(
    tmp_path: Path,
) -> None:
    marker = tmp_path / "child.pid"
    source = GOOD + textwrap.dedent(
        f"""
        import os
        import time

        if os.fork() == 0:
            with open({str(marker)!r}, "w") as file:
                file.write(str(os.getpid()))
            time.sleep(120)
            os._exit(0)
        """
    )
    started = time.monotonic()
    report = run_checks(str(_project(tmp_path / "p", source)), examples=0, timeout=100)
    assert time.monotonic() - started < 60
    assert _by_check(report)["import.side_effects"][0] == "fail"  # the fork itself
    pid = int(marker.read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and _alive(pid):
        time.sleep(0.1)
    assert not _alive(pid)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_the_memory_limit_cannot_be_raised_by_the_plugin(tmp_path: Path) -> None:
    source = GOOD + textwrap.dedent(
        """
        import resource

        try:
            resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY,) * 2)
        except (ValueError, OSError):
            pass
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        try:
            resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
        except (ValueError, OSError):
            pass


        def parse_stdout_line(line, ts):  # noqa: F811
            if line == "bomb":
                hoard = [bytearray(256 * 1024 * 1024) for _ in range(64)]  # 16 GiB
                return [{"kind": "stdout", "ts": ts, "text": str(len(hoard))}]
            return [{"kind": "stdout", "ts": ts, "text": line}]
        """
    )
    report = run_checks(
        str(_project(tmp_path, source, samples="ok\nbomb\n")), examples=0, line_timeout=60
    )
    status, text = _by_check(report)["parse.valid"]
    assert status == "fail"
    assert "line 2: raised MemoryError" in text


@pytest.mark.parametrize(
    ("body", "seen"),
    [
        (
            "exec(compile('open(\"/etc/hostname\").close()', '<frozen importlib._bootstrap>', 'exec'))",
            "file access during parsing: open",
        ),
        ("import posix\n    posix.environ.get(b'HOME')", "posix.environ"),
        ("import os\n    os.environb.get(b'HOME')", "os.environb"),
        ("import os\n    os.write(1, b'noise')", "byte(s) to file descriptor 1 during parsing"),
    ],
    ids=["forged-import-filename", "posix-environ", "environb", "fd-1"],
)
def test_side_effects_that_used_to_slip_past_the_audit_hooks(
    tmp_path: Path, body: str, seen: str
) -> None:
    source = GOOD + textwrap.dedent(
        """
        def parse_stdout_line(line, ts):  # noqa: F811
            {body}
            return [{{"kind": "stdout", "ts": ts, "text": line}}]
        """
    ).format(body=body)
    status, text = _by_check(run_checks(str(_project(tmp_path, source)), examples=0))[
        "parse.side_effects"
    ]
    assert status == "fail"
    assert seen in text


# -- every call point (issue 13) ---------------------------------------------------------


def test_the_optional_exports_pass_when_they_keep_the_contract(tmp_path: Path) -> None:
    source = GOOD + textwrap.dedent(
        """
        from linewise_contracts.environment import EnvironmentCheck
        from linewise_contracts.summary import RunSummary, Usage

        models = [{"id": "m1", "label": "Model one"}]


        def sniff(lines):
            return min(1.0, sum(line.startswith("NOTE:") for line in lines) / 2)


        def summarize_run(lines):
            lines = list(lines)
            return RunSummary(usage=Usage(input_tokens=len(lines)), complete=bool(lines))


        def format_stdout_line(line):
            return [("assistant", line)] if line.startswith("NOTE:") else [("plain", line)]


        def check_environment(environ=None):
            return [EnvironmentCheck(code="notes.ok", level="info", message="fine")]
        """
    )
    checks = _by_check(run_checks(str(_project(tmp_path, source)), examples=50))
    for check in ("sniff", "summarize_run", "format_stdout_line", "check_environment"):
        assert checks[check][0] == "pass", (check, checks[check])
    assert checks["parse.never_throws"][0] == "pass", checks["parse.never_throws"]
    assert checks["parse.side_effects"][0] == "pass"


@pytest.mark.parametrize(
    ("export", "check", "reason"),
    [
        ("def sniff(lines):\n    return 10**400", "sniff", "not a finite number"),
        ("def sniff(lines):\n    raise SystemExit(3)", "sniff", "raised SystemExit: 3"),
        ("def sniff(lines):\n    return True", "sniff", "not a finite number"),
        ("def sniff(lines):\n    lines.clear()\n    return 0.0", "sniff", "changed the list"),
        (
            "from linewise_contracts.summary import RunSummary\n"
            "def summarize_run(lines):\n    return RunSummary(cost_usd=float('inf'))",
            "summarize_run",
            "the summary contains a non-finite number",
        ),
        (
            "from linewise_contracts.summary import RunSummary\n"
            "def summarize_run(lines):\n    return RunSummary(details={'n': 10**400})",
            "summarize_run",
            "int beyond float range",
        ),
        ("def summarize_run(lines):\n    return {}", "summarize_run", "not a RunSummary"),
        (
            "def format_stdout_line(line):\n    return [('shout', line)]",
            "format_stdout_line",
            "unknown role 'shout'",
        ),
        (
            "def format_stdout_line(line):\n    return [['plain', line]]",
            "format_stdout_line",
            "not a (role, text) tuple",
        ),
        (
            "import itertools\n_n = itertools.count()\n"
            "def format_stdout_line(line):\n    return [('plain', str(next(_n)))]",
            "format_stdout_line",
            "not deterministic",
        ),
        (
            "def check_environment(environ=None):\n    raise KeyboardInterrupt",
            "check_environment",
            "raised KeyboardInterrupt",
        ),
        ("label = 'Notes\\x1b[2J'", "metadata.exports", "not one short printable line"),
        ("models = ['m1']", "metadata.exports", "not a list of"),
        (
            "def __getattr__(name):\n    raise ImportError('lazy import failed')",
            "exports",
            "reading create_stdout_parser raised: ImportError: lazy import failed",
        ),
    ],
)
def test_an_optional_export_that_breaks_the_contract_fails_its_check(
    tmp_path: Path, export: str, check: str, reason: str
) -> None:
    status, text = _by_check(run_checks(str(_project(tmp_path, GOOD + "\n" + export)), examples=0))[
        check
    ]
    assert status == "fail"
    assert reason in text


def test_parent_tool_use_id_is_accepted_and_a_non_string_one_rejected(tmp_path: Path) -> None:
    good = GOOD.replace(
        '"text": line[5:].strip()}', '"text": line[5:].strip(), "parentToolUseId": "toolu_1"}'
    )
    assert good != GOOD
    assert run_checks(str(_project(tmp_path / "good", good)), examples=20).ok
    bad = GOOD.replace(
        '"text": line[5:].strip()}', '"text": line[5:].strip(), "parentToolUseId": 7}'
    )
    status, text = _by_check(run_checks(str(_project(tmp_path / "bad", bad)), examples=0))[
        "parse.valid"
    ]
    assert status == "fail"
    assert "system.parentToolUseId must be a str, got int" in text


def test_fuzzing_finds_a_parser_that_passes_huge_numbers_on(tmp_path: Path) -> None:
    # The plugin under test has this one bug (a bool is not let through as a
    # count), so hypothesis shrinks to the huge number every time.
    source = GOOD + textwrap.dedent(
        """
        import json


        def parse_stdout_line(line, ts):  # noqa: F811
            try:
                event = json.loads(line)
            except ValueError:
                return [{"kind": "stdout", "ts": ts, "text": line}]
            if isinstance(event, dict) and type(event.get("n")) is int:
                return [{
                    "kind": "result", "ts": ts, "text": "", "inputTokens": event["n"],
                    "outputTokens": 0, "cachedTokens": 0, "costUsd": 0, "subtype": "s",
                    "isError": False, "errors": [],
                }]
            return [{"kind": "stdout", "ts": ts, "text": line}]
        """
    )
    report = run_checks(str(_project(tmp_path, source, samples='{"n": 1}\n')), examples=300)
    status, text = _by_check(report)["parse.never_throws"]
    assert status == "fail"
    assert "within float range" in text
