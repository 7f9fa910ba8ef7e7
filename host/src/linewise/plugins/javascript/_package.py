"""An npm adapter package read for its ui-parser: package.json, the contract gate, the export.

A package comes as a folder or as a ``.tgz`` the way ``npm pack`` makes it
(or as a spec npm can fetch, when npm is installed). Only ``package.json``,
the ui-parser module and the main module (for ``export const type``) are
read; nothing in the package runs here.
"""

from __future__ import annotations

import json
import os
import posixpath
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from linewise.plugins.javascript._contract import contract_major, contract_requirement

__all__ = [
    "DEFAULT_EXPORT",
    "SIZE_WARNING",
    "PackageError",
    "UiParserPackage",
    "contract_requirement",
    "export_names",
    "open_package",
]

#: The export a ui-parser is declared under, as the contract names it.
DEFAULT_EXPORT: Final = "./ui-parser"
#: The contract's size budget for a ui-parser module: above it, a warning.
SIZE_WARNING: Final = 50 * 1024
# Past this a file is not read at all (a module, a package.json or the main module).
_READ_LIMIT: Final = 4 * 1024 * 1024
_MODULE_EXTENSIONS: Final = (".js", ".cjs", ".mjs")
# Conditions of a conditional export that name code an engine can run, in no order:
# the package's own key order decides, as it does for Node.
_CONDITIONS: Final = frozenset({"import", "require", "default", "node", "module", "browser"})


class PackageError(ValueError):
    """The package cannot be registered, with what is wrong and what to do."""


@dataclass(frozen=True, slots=True)
class UiParserPackage:
    """What a package declares for one ui-parser export, and the module's text."""

    name: str
    version: str | None
    description: str | None
    contract: str | None
    export: str
    module_path: str
    module_source: str
    package_json: bytes
    declared_type: str | None
    warnings: tuple[str, ...]


class _Reader:
    """Reads files of a package folder or tarball by their path inside the package."""

    def __init__(self, root: Path | None, tar: tarfile.TarFile | None, prefix: str) -> None:
        self._root = root
        self._tar = tar
        self._prefix = prefix

    def read(self, path: str) -> bytes | None:
        if self._tar is not None:
            try:
                member = self._tar.getmember(self._prefix + path)
            except KeyError:
                return None
            if not member.isfile():
                return None
            if member.size > _READ_LIMIT:
                raise PackageError(f"{path} is larger than {_READ_LIMIT // 1024} KB")
            handle = self._tar.extractfile(member)
            return None if handle is None else handle.read(_READ_LIMIT + 1)
        assert self._root is not None
        target = self._root / path
        root = self._root.resolve()
        try:
            resolved = target.resolve()
        except OSError:
            return None
        if root != resolved and root not in resolved.parents:
            raise PackageError(f"{path} leads outside the package (a link)")
        if not resolved.is_file():
            return None
        if resolved.stat().st_size > _READ_LIMIT:
            raise PackageError(f"{path} is larger than {_READ_LIMIT // 1024} KB")
        return resolved.read_bytes()


def _tar_prefix(tar: tarfile.TarFile) -> str:
    for name in tar.getnames():
        parts = name.removeprefix("./").split("/")
        if len(parts) == 2 and parts[1] == "package.json":
            return name[: -len("package.json")]
    raise PackageError("the tarball has no package.json in its top folder")


@contextmanager
def _reader(source: str) -> Iterator[_Reader]:
    path = Path(source).expanduser()
    if path.is_dir():
        yield _Reader(path, None, "")
    elif path.is_file():
        try:
            with tarfile.open(path, "r:*") as tar:
                yield _Reader(None, tar, _tar_prefix(tar))
        except tarfile.TarError as error:
            raise PackageError(f"{source} is not a package tarball: {error}") from None
    elif source.startswith((".", "/", "~")) or source.endswith((".tgz", ".tar.gz")):
        raise PackageError(f"{source}: no such folder or file")
    else:
        with tempfile.TemporaryDirectory(prefix="linewise-npm-") as folder:
            yield from _fetched(source, Path(folder))


def _fetched(spec: str, folder: Path) -> Iterator[_Reader]:
    npm = shutil.which("npm")
    if npm is None:
        raise PackageError(
            f"{spec} is not a package folder or .tgz, and npm is not installed to fetch it"
        )
    try:
        done = subprocess.run(
            [npm, "pack", spec, "--ignore-scripts", "--pack-destination", str(folder)],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise PackageError(f"npm pack {spec} failed: {error}") from None
    tarballs = sorted(folder.glob("*.tgz"))
    if done.returncode != 0 or not tarballs:
        why = (done.stderr.strip().splitlines() or ["no tarball"])[-1]
        raise PackageError(f"npm pack {spec} failed: {why}")
    with tarfile.open(tarballs[0], "r:*") as tar:
        yield _Reader(None, tar, _tar_prefix(tar))


def _target(value: object, key: str) -> str:
    """The file a (possibly conditional) export names."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        for item in value:
            try:
                return _target(item, key)
            except PackageError:
                continue
    if isinstance(value, dict):
        for condition, item in value.items():
            if condition in _CONDITIONS:
                return _target(item, key)
    raise PackageError(f'exports["{key}"] names no file under a condition linewise runs')


def _inside(path: str, key: str) -> str:
    if not path.startswith("./"):
        raise PackageError(f'exports["{key}"] is {path!r}: an export path must start with "./"')
    normal = posixpath.normpath(path[2:])
    if normal.startswith(("../", "/")) or normal == ".." or "\\" in path:
        raise PackageError(f'exports["{key}"] is {path!r}, which leads outside the package')
    return normal


def _contract(paperclip: object) -> str | None:
    if paperclip is None:
        return None
    if not isinstance(paperclip, dict):
        raise PackageError('package.json "paperclip" must be an object')
    declared = paperclip.get("adapterUiParser")
    if declared is None:
        return None
    if not isinstance(declared, str) or contract_major(declared) is None:
        raise PackageError(
            f'paperclip.adapterUiParser is {declared!r}: it must be a version such as "1.0.0"'
        )
    return declared


def _manifest(reader: _Reader) -> tuple[dict[str, Any], bytes]:
    raw = reader.read("package.json")
    if raw is None:
        raise PackageError("there is no package.json")
    try:
        manifest = json.loads(raw)
    except ValueError as error:
        raise PackageError(f"package.json is not JSON: {error}") from None
    if not isinstance(manifest, dict):
        raise PackageError("package.json is not an object")
    return manifest, raw


def _main_type(reader: _Reader, manifest: dict[str, Any]) -> str | None:
    from linewise.plugins.javascript._module import declared_type

    exports = manifest.get("exports")
    candidates: list[object] = []
    if isinstance(exports, dict) and "." in exports:
        candidates.append(exports["."])
    elif isinstance(exports, str):
        candidates.append(exports)
    candidates.append(manifest.get("main"))
    for candidate in candidates:
        try:
            path = _inside(_target(candidate, "."), ".")
            raw = reader.read(path)
        except PackageError:
            continue
        if raw is not None:
            return declared_type(raw.decode("utf-8", "replace"))
    return None


def _text(value: object) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def _read(reader: _Reader, export: str) -> UiParserPackage:
    manifest, raw = _manifest(reader)
    contract = _contract(manifest.get("paperclip"))
    exports = manifest.get("exports")
    if not isinstance(exports, dict) or export not in exports:
        raise PackageError(
            f'package.json declares no exports["{export}"]: this package ships no ui-parser there'
        )
    module_path = _inside(_target(exports[export], export), export)
    if not module_path.endswith(_MODULE_EXTENSIONS):
        raise PackageError(f'exports["{export}"] is {module_path}: not a .js, .cjs or .mjs file')
    module = reader.read(module_path)
    if module is None:
        raise PackageError(f'exports["{export}"] names {module_path}, which is not in the package')
    try:
        source = module.decode("utf-8")
    except UnicodeDecodeError:
        raise PackageError(f"{module_path} is not UTF-8 text") from None
    warnings: list[str] = []
    if len(module) > SIZE_WARNING:
        warnings.append(
            f"{module_path} is {len(module) // 1024} KB, above the contract's 50 KB budget"
        )
    return UiParserPackage(
        name=_text(manifest.get("name")) or "unnamed",
        version=_text(manifest.get("version")),
        description=_text(manifest.get("description")),
        contract=contract,
        export=export,
        module_path=module_path,
        module_source=source,
        package_json=raw,
        declared_type=_main_type(reader, manifest),
        warnings=tuple(warnings),
    )


def open_package(source: str, export: str = DEFAULT_EXPORT) -> UiParserPackage:
    """Read ``export``'s ui-parser of the package at ``source`` (folder, .tgz or npm spec)."""
    if not export.startswith("./"):
        export = "./" + export.lstrip("/")
    with _reader(os.fspath(source)) as reader:
        return _read(reader, export)


def export_names(source: str) -> list[str]:
    """The package's ui-parser exports: every ``exports`` key ending in ``ui-parser``."""
    with _reader(os.fspath(source)) as reader:
        manifest, _ = _manifest(reader)
    exports = manifest.get("exports")
    if not isinstance(exports, dict):
        return []
    return [key for key in exports if isinstance(key, str) and key.endswith("ui-parser")]
