"""The package.json gate: contract version, the ui-parser export, its path and its size."""

from __future__ import annotations

import tarfile
from pathlib import Path

import pytest
from linewise.plugins.javascript._package import PackageError, contract_requirement, open_package

from .conftest import MakePackage

SIMPLE = "export function parseStdoutLine(line, ts) { return []; }\n"


def test_a_string_export_is_read(make_package: MakePackage) -> None:
    package = open_package(str(make_package(SIMPLE)))
    assert (package.name, package.version, package.contract) == (
        "@example/toy-adapter",
        "1.2.3",
        "1.0.0",
    )
    assert (package.export, package.module_path) == ("./ui-parser", "dist/ui-parser.js")
    assert package.module_source == SIMPLE
    assert package.warnings == ()


def test_a_conditional_export_takes_the_first_runnable_condition(make_package: MakePackage) -> None:
    exports = {
        "./ui-parser": {
            "types": "./dist/ui-parser.d.ts",
            "import": "./dist/ui-parser.js",
            "require": "./dist/other.cjs",
        }
    }
    package = open_package(str(make_package(SIMPLE, exports=exports)))
    assert package.module_path == "dist/ui-parser.js"


def test_a_second_parser_is_reached_with_export(make_package: MakePackage) -> None:
    exports = {"./ui-parser": "./dist/ui-parser.js", "./gateway/ui-parser": "./gw.cjs"}
    folder = make_package(SIMPLE, exports=exports, extra={"gw.cjs": "module.exports = {};\n"})
    package = open_package(str(folder), "./gateway/ui-parser")
    assert (package.export, package.module_path) == ("./gateway/ui-parser", "gw.cjs")


@pytest.mark.parametrize(
    ("exports", "message"),
    [
        ({".": "./dist/index.js"}, r'declares no exports\["./ui-parser"\]'),
        ({"./ui-parser": "./../outside.js"}, "leads outside the package"),
        ({"./ui-parser": "dist/ui-parser.js"}, 'must start with "./"'),
        ({"./ui-parser": "./dist/missing.js"}, "not in the package"),
        ({"./ui-parser": "./package.json"}, r"not a \.js, \.cjs or \.mjs"),
        ({"./ui-parser": {"types": "./dist/x.d.ts"}}, "names no file"),
    ],
)
def test_bad_exports_are_refused(make_package: MakePackage, exports: object, message: str) -> None:
    with pytest.raises(PackageError, match=message):
        open_package(str(make_package(SIMPLE, exports=exports)))


def test_a_link_leading_outside_is_refused(make_package: MakePackage, tmp_path: Path) -> None:
    secret = tmp_path / "secret.js"
    secret.write_text(SIMPLE, encoding="utf-8")
    folder = make_package(SIMPLE, exports={"./ui-parser": "./linked.js"})
    (folder / "linked.js").symlink_to(secret)
    with pytest.raises(PackageError, match="outside the package"):
        open_package(str(folder))


def test_a_module_above_the_budget_warns(make_package: MakePackage) -> None:
    big = SIMPLE + "// " + "x" * (51 * 1024) + "\n"
    package = open_package(str(make_package(big)))
    assert len(package.warnings) == 1 and "above the contract's 50 KB budget" in package.warnings[0]


@pytest.mark.parametrize("declared", [2, "one", "", "x.1"])
def test_a_malformed_contract_version_is_refused(
    make_package: MakePackage, declared: object
) -> None:
    with pytest.raises(PackageError, match="adapterUiParser"):
        open_package(str(make_package(SIMPLE, paperclip=declared)))


def test_the_contract_version_maps_to_the_gate_by_major() -> None:
    assert contract_requirement("1.0.0") == ("linewise-contracts>=1,<2",)
    assert contract_requirement("1.9") == ("linewise-contracts>=1,<2",)
    assert contract_requirement("2.0.0") == ("linewise-contracts>=2,<3",)
    assert contract_requirement(None) == ()


def test_a_tarball_as_npm_pack_makes_it(make_package: MakePackage, tmp_path: Path) -> None:
    folder = make_package(SIMPLE, main='export const type = "toy_local";\n')
    tarball = tmp_path / "toy-1.2.3.tgz"
    with tarfile.open(tarball, "w:gz") as tar:
        tar.add(folder, arcname="package")
    package = open_package(str(tarball))
    assert package.module_source == SIMPLE
    assert package.declared_type == "toy_local"


def test_a_tarball_member_leaving_the_package_is_not_read(
    tmp_path: Path, make_package: MakePackage
) -> None:
    folder = make_package(SIMPLE, exports={"./ui-parser": "./dist/../../evil.js"})
    tarball = tmp_path / "evil.tgz"
    with tarfile.open(tarball, "w:gz") as tar:
        tar.add(folder, arcname="package")
    with pytest.raises(PackageError, match="outside the package"):
        open_package(str(tarball))


def test_a_missing_source_without_npm_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("shutil.which", lambda name: None)
    with pytest.raises(PackageError, match="npm is not installed"):
        open_package("@example/not-a-folder")


def _fake_npm(folder: Path, script: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    npm = folder / "npm"
    npm.write_text("#!/bin/sh\n" + script, encoding="utf-8")
    npm.chmod(0o755)


def test_an_npm_spec_is_fetched_with_npm_pack(
    make_package: MakePackage, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = make_package(SIMPLE)
    tarball = tmp_path / "made.tgz"
    with tarfile.open(tarball, "w:gz") as tar:
        tar.add(folder, arcname="package")
    # A stand-in npm that checks it was asked not to run scripts, then "downloads" the tarball.
    _fake_npm(
        tmp_path / "bin",
        'case "$*" in *--ignore-scripts*) ;; *) exit 3 ;; esac\n'
        'while [ "$1" != "--pack-destination" ]; do shift; done\n'
        f'cp {tarball} "$2/example-toy-adapter-1.2.3.tgz"\n',
    )
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:/usr/bin:/bin")
    package = open_package("@example/toy-adapter@1.2.3")
    assert package.module_source == SIMPLE


def test_npm_failing_is_a_package_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_npm(tmp_path / "bin", 'echo "npm error 404 Not Found - @example/nothing" >&2\nexit 1\n')
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:/usr/bin:/bin")
    with pytest.raises(PackageError, match="npm pack @example/nothing failed: npm error 404"):
        open_package("@example/nothing")


def test_a_tarball_made_with_a_dot_prefix_is_read(
    make_package: MakePackage, tmp_path: Path
) -> None:
    folder = make_package(SIMPLE)
    tarball = tmp_path / "dotted.tgz"
    with tarfile.open(tarball, "w:gz") as tar:
        tar.add(folder, arcname="./package")
    assert open_package(str(tarball)).module_source == SIMPLE


def test_a_missing_path_is_not_sent_to_npm(tmp_path: Path) -> None:
    with pytest.raises(PackageError, match="no such folder or file"):
        open_package(str(tmp_path / "absent.tgz"))
