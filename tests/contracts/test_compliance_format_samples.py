"""``linewise check`` reads each format's own samples: ``samples/<adapter type>/``.

The files directly in ``samples/`` are the plugin's first format's (and every
format's without a folder of its own); a further format, a session store's say,
is checked against the lines of its own folder, so a sample that is wrong for
that format fails that format's check and not the other's.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from linewise_contracts.compliance import Report, run_checks

STDOUT = """
def parse_stdout_line(line, ts):
    return [{"kind": "assistant", "ts": ts, "text": line}]
"""

# A session parser that takes its own records only: any other line gives an entry
# the contract refuses (an assistant entry without its text), as a misread would.
SESSION = """
import json


def parse_stdout_line(line, ts):
    if line.startswith('{"record"'):
        return [{"kind": "user", "ts": ts, "text": json.loads(line)["record"]}]
    return [{"kind": "assistant", "ts": ts}]
"""


def _project(root: Path, samples: dict[str, str]) -> Path:
    package = root / "src" / "two_formats"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(textwrap.dedent(STDOUT), encoding="utf-8")
    (package / "session.py").write_text(textwrap.dedent(SESSION), encoding="utf-8")
    for relative, text in samples.items():
        path = package / "samples" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "pyproject.toml").write_text(
        textwrap.dedent(
            """
            [project]
            name = "two-formats"
            version = "0.1.0"
            dependencies = ["linewise-contracts>=1.0,<2"]

            [project.entry-points."linewise.parsers"]
            two_local = "two_formats"
            two_session = "two_formats.session"
            """
        ),
        encoding="utf-8",
    )
    return root


def _parse_valid(report: Report) -> dict[str | None, tuple[str, str]]:
    return {
        result.adapter_type: (result.status, result.message)
        for result in report.results
        if result.check == "parse.valid"
    }


def test_each_format_is_checked_against_the_samples_of_its_own_folder(tmp_path: Path) -> None:
    project = _project(
        tmp_path,
        {"run.log": "Hello\nDone\n", "two_session/s.jsonl": '{"record": "fix it"}\n'},
    )
    checked = _parse_valid(run_checks(str(project), examples=0))
    samples = project / "src" / "two_formats" / "samples"
    assert checked["two_local"] == ("pass", f"every entry valid on 2 sample lines from {samples}")
    assert checked["two_session"] == (
        "pass",
        f"every entry valid on 1 sample lines from {samples / 'two_session'}",
    )


def test_a_wrong_sample_in_the_second_formats_folder_fails_that_format_only(
    tmp_path: Path,
) -> None:
    # The top-level line suits both parsers: only the folder's wrong line can fail.
    project = _project(
        tmp_path,
        {"run.log": '{"record": "ok"}\n', "two_session/s.jsonl": '{"record": "fix it"}\nHello\n'},
    )
    checked = _parse_valid(run_checks(str(project), examples=0))
    assert checked["two_local"][0] == "pass"
    assert checked["two_session"][0] == "fail"


def test_a_format_without_a_folder_of_its_own_reads_the_top_level_samples(tmp_path: Path) -> None:
    # The files directly in samples/ serve every format without its own folder: the session
    # parser gets the stdout lines, which is why a further format should have its folder.
    project = _project(tmp_path, {"run.log": "Hello\n"})
    checked = _parse_valid(run_checks(str(project), examples=0))
    assert checked["two_local"][0] == "pass"
    assert checked["two_session"][0] == "fail"
