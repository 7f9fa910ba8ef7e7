"""Compiled or pure Python: what `linewise doctor` and `--version` say of each hot path."""

from __future__ import annotations

import json
import sysconfig

import pytest
from linewise.plugins.hot_path import HotPathStatus, hot_path_statuses, status_lines
from support import FakeSite


def _record(modules: list[str], compiled: bool, reason: str | None = None) -> str:
    return json.dumps({"modules": modules, "compiled": compiled, "reason": reason})


def _parser(package: str) -> dict[str, str]:
    """A package (a folder with __init__.py, where its build record goes) with a parser."""
    return {f"{package}.__init__": "def parse_stdout_line(line, ts):\n    return []\n"}


def _status(name: str) -> HotPathStatus:
    return next(status for status in hot_path_statuses() if status.distribution == name)


def test_a_pure_wheel_says_why_its_build_left_it_pure(fake_site: FakeSite) -> None:
    fake_site.add(
        "acme-parser",
        entry_points={"acme": "acme_parser"},
        modules={"acme_parser.fast": "X = 1\n", **_parser("acme_parser")},
        files={
            "acme_parser/_compiled.json": _record(
                ["acme_parser.fast"], False, "mypyc could not compile it: no C compiler"
            )
        },
    )
    status = _status("acme-parser")
    assert status.state == "pure Python"
    assert status.describe() == "pure Python, because mypyc could not compile it: no C compiler"


def test_a_wheel_built_compiled_whose_extensions_do_not_load_is_reported_pure(
    fake_site: FakeSite,
) -> None:
    # The record says compiled, but Python finds only the .py sources: what runs counts.
    fake_site.add(
        "acme-parser",
        entry_points={"acme": "acme_parser"},
        modules={"acme_parser.fast": "X = 1\n", **_parser("acme_parser")},
        files={"acme_parser/_compiled.json": _record(["acme_parser.fast"], True)},
    )
    status = _status("acme-parser")
    assert status.state == "pure Python"
    assert "acme_parser.fast run from their .py sources" in status.describe()


def test_a_module_imported_from_an_extension_counts_as_compiled(fake_site: FakeSite) -> None:
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    fake_site.add(
        "acme-parser",
        entry_points={"acme": "acme_parser"},
        modules=_parser("acme_parser"),
        # Never imported: finding it where Python would import it from is what is checked.
        files={
            f"acme_parser/fast{suffix}": "",
            "acme_parser/slow.py": "",
            "acme_parser/_compiled.json": _record(["acme_parser.fast", "acme_parser.slow"], True),
        },
    )
    status = _status("acme-parser")
    assert status.compiled == ("acme_parser.fast",)
    assert status.describe().startswith("partly compiled (1 of 2 modules), because")


def test_a_plugin_with_nothing_to_compile_is_not_listed(fake_site: FakeSite) -> None:
    fake_site.add(
        "plain-parser", entry_points={"plain": "plain_parser"}, modules=_parser("plain_parser")
    )
    names = [status.distribution for status in hot_path_statuses()]
    assert "plain-parser" not in names
    assert names[:2] == ["linewise", "linewise-contracts"]


def test_the_workspace_is_an_editable_install_and_says_so() -> None:
    statuses = {status.distribution: status for status in hot_path_statuses()}
    host = statuses["linewise"]
    assert "linewise.stream.lines" in host.modules
    assert host.describe().startswith("pure Python, because it is an editable install")
    shown = list(statuses.values())
    lines = status_lines(shown)
    # The states line up after the names and versions.
    assert (
        len({line.index(status.describe()) for line, status in zip(lines, shown, strict=True)}) == 1
    )


def test_version_prints_the_hot_path_on_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    from linewise.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    assert stopped.value.code in (0, None)
    out = capsys.readouterr().out
    assert out.startswith("linewise ")
    assert "  linewise-contracts " in out
