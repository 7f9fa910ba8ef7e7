"""`linewise check PATH` on a JavaScript ui-parser package."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from linewise.cli import main

from .conftest import MakePackage


def _report(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object]]:
    capsys.readouterr()
    try:
        code = main(["check", *argv, "--json"])
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    return code, json.loads(capsys.readouterr().out)


def _statuses(report: dict[str, object]) -> dict[tuple[object, object], object]:
    results = report["results"]
    assert isinstance(results, list)
    return {(r["adapterType"], r["check"]): r["status"] for r in results}


def test_a_sound_package_passes(
    make_package: MakePackage,
    parser_source: Callable[[str], str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = make_package(parser_source("commonjs_exports.js"))
    code, report = _report(capsys, str(folder), "--examples", "50")
    assert code == 0 and report["ok"] is True
    assert _statuses(report) == {
        (None, "package.json"): "pass",
        ("./ui-parser", "export"): "pass",
        ("./ui-parser", "size"): "pass",
        ("./ui-parser", "module"): "pass",
        ("./ui-parser", "load"): "pass",
        ("./ui-parser", "lines"): "pass",
        ("./ui-parser", "deterministic"): "pass",
    }


def test_a_hostile_parser_fails_with_the_lines_that_broke_it(
    make_package: MakePackage,
    parser_source: Callable[[str], str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    hostile = parser_source("hostile.js").replace(
        'if (line === "loop")',
        'if (line.startsWith("{{{")) throw new Error("nested");\n  if (line === "loop")',
    )
    folder = make_package(hostile)
    code, report = _report(capsys, str(folder), "--examples", "20")
    assert code == 1 and report["ok"] is False
    [lines] = [r for r in report["results"] if r["check"] == "lines"]  # type: ignore[union-attr]
    assert lines["status"] == "fail"
    assert any("threw Error: nested" in detail for detail in lines["details"])


def test_a_package_that_imports_fails_the_module_check(
    make_package: MakePackage,
    parser_source: Callable[[str], str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = make_package(parser_source("importer.js"), paperclip="2.0.0")
    code, report = _report(capsys, str(folder), "--examples", "0")
    assert code == 1
    statuses = _statuses(report)
    assert statuses[(None, "package.json")] == "fail"
    assert statuses[("./ui-parser", "module")] == "fail"
    assert ("./ui-parser", "load") not in statuses


def test_a_registered_adapter_type_checks_the_copies_that_run(
    make_package: MakePackage,
    parser_source: Callable[[str], str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    exports = {"./ui-parser": "./dist/ui-parser.js", "./gateway/ui-parser": "./gw.cjs"}
    folder = make_package(
        parser_source("esm_static.js"), exports=exports, extra={"gw.cjs": "module.exports = {};"}
    )
    assert main(["js", "add", str(folder), "--as", "toy_local"]) == 0
    code, report = _report(capsys, "toy_local", "--examples", "10")
    assert code == 0 and report["adapterTypes"] == ["./ui-parser"]
    assert str(report["target"]).endswith("toy_local/package")
