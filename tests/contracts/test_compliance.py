"""The compliance kit on plugin projects checked from source: what it finds and how it says it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from linewise_contracts.compliance import Report, TargetError, run_checks

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
    assert set(checks) == {
        "metadata.entry_points",
        "metadata.contract",
        "metadata.duplicates",
        "import",
        "import.side_effects",
        "exports",
        "parse.valid",
        "parse.deterministic",
        "parse.reset",
        "parse.side_effects",
        "parse.never_throws",
        "cost",
        "size.code",
        "size.dependencies",
    }
    assert "2 sample lines from" in checks["parse.valid"][1]
    assert report.distribution == "notes-parser"
    assert report.adapter_types == ("notes_local",)


def test_fuzzing_reports_the_minimal_failing_input(tmp_path: Path) -> None:
    source = GOOD + textwrap.dedent(
        """
        import json


        def parse_stdout_line(line, ts):  # noqa: F811
            if line.startswith("{"):
                event = json.loads(line)
                return [{"kind": "system", "ts": ts, "text": event["type"]}]
            return [{"kind": "stdout", "ts": ts, "text": line}]
        """
    )
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
    report = run_checks(str(_project(tmp_path, source, samples="ok\nbomb\n")), examples=0)
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
    assert "2 failed, 27 passed" in done.stdout  # the broken one: parse.valid and fuzzing


def test_the_json_report_is_machine_readable(tmp_path: Path) -> None:
    report = run_checks(str(_project(tmp_path, GOOD)), examples=0)
    payload = json.loads(json.dumps(report.to_json()))
    assert payload["ok"] is True
    assert payload["counts"]["fail"] == 0
    assert payload["results"][0]["title"] == "entry point group, names and values"
