"""`linewise js add / list / remove`, the copies and their hashes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from linewise.cli import main
from linewise.plugins.registry import Registry

from .conftest import MakePackage


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_add_list_remove(
    make_package: MakePackage,
    parser_source: Callable[[str], str],
    capsys: pytest.CaptureFixture[str],
    data_dir: Path,
) -> None:
    folder = make_package(parser_source("esm_static.js"))
    code, out, _ = _run(capsys, "js", "add", str(folder), "--as", "toy_local")
    assert code == 0 and out.startswith("registered toy_local: @example/toy-adapter 1.2.3")
    assert "(esm, parseStdoutLine" in out
    copies = data_dir / "javascript" / "toy_local"
    assert (copies / "package" / "dist" / "ui-parser.js").read_text() == parser_source(
        "esm_static.js"
    )
    code, out, _ = _run(capsys, "js", "list", "--json")
    [row] = json.loads(out)["parsers"]
    assert (row["adapterType"], row["state"], row["source"]) == ("toy_local", "ok", str(folder))
    assert set(row["files"]) == {"package.json", "dist/ui-parser.js"}
    code, out, _ = _run(capsys, "js", "remove", "toy_local")
    assert code == 0 and "removed toy_local" in out
    assert not copies.exists()
    code, out, _ = _run(capsys, "js", "list")
    assert "no JavaScript parsers registered" in out
    code, _, err = _run(capsys, "js", "remove", "toy_local")
    assert code == 1 and "no JavaScript parser is registered as 'toy_local'" in err


def test_the_adapter_type_comes_from_the_main_module_when_not_given(
    make_package: MakePackage, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = make_package(
        "export function parseStdoutLine(l, ts) { return []; }",
        main='export const type = "qwen_local";\nexport const label = "Qwen";\n',
    )
    code, out, _ = _run(capsys, "js", "add", str(folder))
    assert code == 0 and out.startswith("registered qwen_local:")


def test_without_a_declared_type_as_is_required(
    make_package: MakePackage, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(capsys, "js", "add", str(make_package("module.exports = {};")))
    assert code == 2 and "--as TYPE" in err


@pytest.mark.parametrize(
    "case",
    [
        ("importer.js", "uses `import`"),
        ("requirer.cjs", "uses `require`"),
        ("throws_at_load.js", "refusing to start"),
        ("no_parser.js", "neither createStdoutParser nor parseStdoutLine"),
    ],
)
def test_a_module_that_cannot_run_is_not_registered(
    make_package: MakePackage,
    parser_source: Callable[[str], str],
    capsys: pytest.CaptureFixture[str],
    data_dir: Path,
    case: tuple[str, str],
) -> None:
    name, message = case
    folder = make_package(parser_source(name), filename=name)
    code, _, err = _run(capsys, "js", "add", str(folder), "--as", "broken")
    assert code == 1 and message in err
    assert not (data_dir / "javascript" / "broken").exists()


def test_a_bad_adapter_type_is_refused(
    make_package: MakePackage, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = make_package("module.exports = {};")
    for bad in ("Not-Snake", "process", "../escape"):
        code, _, err = _run(capsys, "js", "add", str(folder), "--as", bad)
        assert code == 2, err


def test_another_major_contract_is_registered_with_a_warning_and_does_not_load(
    make_package: MakePackage,
    parser_source: Callable[[str], str],
    capsys: pytest.CaptureFixture[str],
    registry: Registry,
) -> None:
    folder = make_package(parser_source("esm_static.js"), paperclip="2.0.0")
    code, _, err = _run(capsys, "js", "add", str(folder), "--as", "future_local")
    assert code == 0 and "will not load" in err
    loaded = registry.load("future_local")
    assert loaded.is_fallback
    assert registry.info("future_local").status == "incompatible"


def test_a_missing_contract_loads_in_the_grace_period(
    make_package: MakePackage,
    parser_source: Callable[[str], str],
    capsys: pytest.CaptureFixture[str],
    registry: Registry,
) -> None:
    folder = make_package(parser_source("esm_static.js"), paperclip=None)
    code, _, err = _run(capsys, "js", "add", str(folder), "--as", "old_local")
    assert code == 0 and "grace period" in err
    assert not registry.load("old_local").is_fallback
    assert registry.info("old_local").contract_verdict == "undeclared"


def test_a_later_change_to_the_source_does_not_change_the_parser(
    make_package: MakePackage,
    parser_source: Callable[[str], str],
    capsys: pytest.CaptureFixture[str],
    registry: Registry,
) -> None:
    folder = make_package(parser_source("esm_static.js"))
    _run(capsys, "js", "add", str(folder), "--as", "toy_local")
    (folder / "dist" / "ui-parser.js").write_text("export function parseStdoutLine() { return 1 }")
    parser = registry.load("toy_local").new_parser()
    assert parser.parse_line("[toy] hi", "T") == [{"kind": "system", "ts": "T", "text": "hi"}]


def test_a_changed_copy_fails_to_load_with_a_reason(
    make_package: MakePackage,
    parser_source: Callable[[str], str],
    capsys: pytest.CaptureFixture[str],
    registry: Registry,
    data_dir: Path,
) -> None:
    folder = make_package(parser_source("esm_static.js"))
    _run(capsys, "js", "add", str(folder), "--as", "toy_local")
    copy = data_dir / "javascript" / "toy_local" / "package" / "dist" / "ui-parser.js"
    copy.write_text(copy.read_text() + "\n// tampered\n")
    loaded = registry.load("toy_local")
    assert loaded.is_fallback
    failure = registry.failed_loads["toy_local"]
    assert "changed since it was registered (SHA-256 mismatch)" in failure.reason
    assert "linewise js add SOURCE --as toy_local" in failure.hint
    _, out, _ = _run(capsys, "js", "list")
    assert "SHA-256 mismatch" in out


def test_without_the_engine_the_load_fails_with_what_to_install(
    make_package: MakePackage,
    parser_source: Callable[[str], str],
    capsys: pytest.CaptureFixture[str],
    registry: Registry,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    folder = make_package(parser_source("esm_static.js"))
    _run(capsys, "js", "add", str(folder), "--as", "toy_local")
    missing = "the JavaScript engine is not installed: pip install 'linewise[js]'"
    monkeypatch.setattr("linewise.plugins.javascript.registered.engine_missing", lambda: missing)
    assert registry.load("toy_local").is_fallback
    assert registry.failed_loads["toy_local"].reason == missing


def test_a_module_that_loops_at_load_is_stopped_and_refused(
    make_package: MakePackage,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LINEWISE_LINE_TIMEOUT", "0.3")
    folder = make_package("for (;;) {}\nexport function parseStdoutLine() { return []; }\n")
    code, _, err = _run(capsys, "js", "add", str(folder), "--as", "looper")
    assert code == 1 and "time limit of 0.3 s" in err


def test_adding_again_replaces_with_a_warning(
    make_package: MakePackage,
    parser_source: Callable[[str], str],
    capsys: pytest.CaptureFixture[str],
    registry: Registry,
) -> None:
    _run(capsys, "js", "add", str(make_package(parser_source("esm_static.js"))), "--as", "toy")
    second = make_package(parser_source("both_exports.js"))
    code, _, err = _run(capsys, "js", "add", str(second), "--as", "toy")
    assert code == 0 and "replacing the earlier registration of toy" in err
    assert registry.load("toy").new_parser().parse_line("x", "T")[0]["text"] == "stateful 1"


def test_a_registration_pointing_outside_its_folder_fails_to_load(
    make_package: MakePackage,
    parser_source: Callable[[str], str],
    capsys: pytest.CaptureFixture[str],
    registry: Registry,
    data_dir: Path,
) -> None:
    _run(capsys, "js", "add", str(make_package(parser_source("esm_static.js"))), "--as", "toy")
    record = data_dir / "javascript" / "toy" / "registration.json"
    payload = json.loads(record.read_text())
    payload["files"]["../../../elsewhere.js"] = "0" * 64
    record.write_text(json.dumps(payload))
    assert registry.load("toy").is_fallback
    assert "leads outside the registration's folder" in registry.failed_loads["toy"].reason
