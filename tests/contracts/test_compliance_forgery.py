"""`linewise check` against a plugin that attacks the checker itself (issue 33 items 1 and 16).

The plugins are real installed distributions; each check runs as its own ``linewise
check`` process under the test's timeout, so a checker that hangs or is forged fails here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from linewise_contracts.compliance._results import WORKER_CHECKS
from support import FakeSite

LINEWISE = str(Path(sys.executable).with_name("linewise"))

# Raises on every line; at import it finds the checker's record sender in its own process
# and reports a pass for every check, then the end, and leaves before any check runs.
FORGER = f"""
import gc
import os


def parse_stdout_line(line, ts):
    raise RuntimeError("this parser raises on every line")


def _forge():
    for found in gc.get_objects():
        if type(found).__name__ == "Sender" and hasattr(found, "send"):
            for check in {list(WORKER_CHECKS)!r}:
                found.send(("running", "forger", check))
                found.send(("result", "forger", check, "pass", "forged", [], "{{}}"))
            found.send(("done",))
            os._exit(0)


_forge()
"""

# The same, in the shape of the observations the parent judges now: it claims the parser
# gave nothing for no lines at all.
OBSERVATION_FORGER = """
import gc
import os


def parse_stdout_line(line, ts):
    raise RuntimeError("this parser raises on every line")


def _forge():
    for found in gc.get_objects():
        if type(found).__name__ == "Sender" and hasattr(found, "send"):
            found.send(("import", "forger", None))
            found.send(("effects", "forger", "import", []))
            found.send(("exports", "forger", None, [], ["parse_stdout_line"]))
            found.send(("parse", "forger", "forged", [], False, [], [], []))
            found.send(("done",))
            os._exit(0)


_forge()
"""


def _check(site: FakeSite, target: str, timeout: float = 240) -> tuple[int, dict[str, Any]]:
    done = subprocess.run(
        [LINEWISE, "check", target, "--json", "--examples", "0", "--timeout", "120"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(site.root), "LINEWISE_CACHE_DIR": ""},
        timeout=timeout,
        check=False,
    )
    assert done.stdout, done.stderr
    return done.returncode, json.loads(done.stdout)


def _statuses(report: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {
        result["check"]: (result["status"], result["message"])
        for result in report["results"]
        if result["adapterType"] in (None, "forger")
    }


def test_a_plugin_that_signs_passes_with_the_checkers_own_sender_fails(
    fake_site: FakeSite,
) -> None:
    fake_site.add(
        "forger-plugin",
        entry_points={"forger": "forger_mod"},
        requires=["linewise-contracts>=1.0,<2"],
        modules={"forger_mod": FORGER},
    )
    code, report = _check(fake_site, "forger")
    statuses = _statuses(report)
    assert code == 1
    assert report["ok"] is False
    assert "forged" not in {message for _, message in statuses.values()}
    assert statuses["import"][0] == "fail"
    # Every check the worker was due to run has a verdict, and none of them is a pass.
    for check in WORKER_CHECKS:
        assert statuses[check][0] in ("fail", "skip"), (check, statuses[check])


def test_observations_of_lines_the_checker_did_not_give_are_refused(
    fake_site: FakeSite,
) -> None:
    fake_site.add(
        "forger-plugin",
        entry_points={"forger": "forger_mod"},
        requires=["linewise-contracts>=1.0,<2"],
        modules={"forger_mod": OBSERVATION_FORGER},
    )
    code, report = _check(fake_site, "forger")
    statuses = _statuses(report)
    assert code == 1
    assert statuses["parse.valid"][0] == "fail"
    assert "the checker did not give" in statuses["parse.valid"][1]
    assert report["ok"] is False


# -- the parent reads the plugin's sources without running them (item 16) ---------------------

PARSER = """
def parse_stdout_line(line, ts):
    return [{"kind": "stdout", "ts": ts, "text": line}]
"""


def test_a_fifo_named_like_a_source_and_a_100000_deep_expression_do_not_stop_check(
    fake_site: FakeSite,
) -> None:
    fake_site.add(
        "deep-plugin",
        entry_points={"forger": "deep_pkg"},
        requires=["linewise-contracts>=1.0,<2"],
        modules={"deep_pkg.__init__": PARSER},
    )
    package = fake_site.root / "deep_pkg"
    os.mkfifo(package / "pipe.py")
    (package / "deep.py").write_text("x = " + "-" * 100_000 + "1\n", encoding="utf-8")
    (package / "samples").mkdir()
    os.mkfifo(package / "samples" / "stream.log")
    (package / "samples" / "run.log").write_text("one\ntwo\n", encoding="utf-8")
    code, report = _check(fake_site, "forger", timeout=120)
    statuses = _statuses(report)
    assert statuses["parse.valid"] == (
        "pass",
        f"every entry valid on 2 sample lines from {package / 'samples'}",
    )
    assert statuses["size.dependencies"][0] == "fail"
    details = next(r for r in report["results"] if r["check"] == "size.dependencies")
    text = " ".join([details["message"], *details["details"]])
    assert "deep.py is too deeply nested to be parsed: its imports were not read" in text
    assert code == 1


def test_reading_sources_needs_no_plugin_code_in_the_parent(tmp_path: Path) -> None:
    # The same project checked from its path: the size check counts regular files only.
    package = tmp_path / "src" / "notes_parser"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(textwrap.dedent(PARSER), encoding="utf-8")
    os.mkfifo(package / "pipe.py")
    (tmp_path / "pyproject.toml").write_text(
        textwrap.dedent(
            """
            [project]
            name = "notes-parser"
            version = "0.1.0"
            dependencies = ["linewise-contracts>=1.0,<2"]

            [project.entry-points."linewise.parsers"]
            notes_local = "notes_parser"
            """
        ),
        encoding="utf-8",
    )
    done = subprocess.run(
        [LINEWISE, "check", str(tmp_path), "--json", "--examples", "0"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    report = json.loads(done.stdout)
    size = next(r for r in report["results"] if r["check"] == "size.code")
    assert size["figures"]["files"] == 1
    assert done.returncode == 0, done.stdout
