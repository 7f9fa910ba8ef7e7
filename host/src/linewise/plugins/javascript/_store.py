"""Registrations of JavaScript parsers: a folder per adapter type in the user's data folder.

``<data dir>/javascript/<adapter type>/`` holds ``registration.json`` (what
was registered, from where, and the SHA-256 of each copied file) and
``package/`` with copies of the package's ``package.json`` and ui-parser
module. The copies are what runs, and only when their hashes still match,
so a later change to the source (or to the copies) cannot change the parser.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from linewise_contracts.protocols import adapter_type_problem

from linewise.settings.data_folder import data_dir

if TYPE_CHECKING:
    from linewise.plugins.javascript._package import UiParserPackage

__all__ = [
    "REGISTRATION_FILE",
    "Registration",
    "StoreError",
    "javascript_dir",
    "read_registration",
    "registrations",
    "remove_registration",
    "save_registration",
    "verified_module",
]

REGISTRATION_FILE: Final = "registration.json"
_FORMAT: Final = 1


class StoreError(ValueError):
    """A registration is missing, unreadable, or its copied files no longer match their hashes."""


@dataclass(frozen=True, slots=True)
class Registration:
    """One registered JavaScript parser."""

    adapter_type: str
    package: str
    version: str | None
    description: str | None
    contract: str | None
    export: str
    module_path: str
    source: str
    added: str
    files: dict[str, str]
    folder: Path

    def to_json(self) -> dict[str, Any]:
        """What ``registration.json`` holds (and ``linewise js list --json`` prints)."""
        return {
            "format": _FORMAT,
            "adapterType": self.adapter_type,
            "package": self.package,
            "version": self.version,
            "description": self.description,
            "contract": self.contract,
            "export": self.export,
            "module": self.module_path,
            "source": self.source,
            "added": self.added,
            "files": dict(self.files),
        }


def javascript_dir() -> Path:
    """Where registrations live: ``<data dir>/javascript``."""
    return data_dir() / "javascript"


def _digest(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def _from_json(payload: object, folder: Path) -> Registration:
    if not isinstance(payload, dict):
        raise StoreError(f"{folder / REGISTRATION_FILE} is not an object")
    try:
        files = payload["files"]
        if not isinstance(files, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in files.items()
        ):
            raise TypeError("files")
        registration = Registration(
            adapter_type=str(payload["adapterType"]),
            package=str(payload["package"]),
            version=payload.get("version"),
            description=payload.get("description"),
            contract=payload.get("contract"),
            export=str(payload["export"]),
            module_path=str(payload["module"]),
            source=str(payload["source"]),
            added=str(payload.get("added", "")),
            files=dict(files),
            folder=folder,
        )
    except (KeyError, TypeError) as error:
        raise StoreError(f"{folder / REGISTRATION_FILE} lacks a valid {error}") from None
    if registration.adapter_type != folder.name:
        raise StoreError(f"{folder / REGISTRATION_FILE} names another adapter type")
    return registration


def read_registration(adapter_type: str) -> Registration:
    """The registration of ``adapter_type``; raises :class:`StoreError` when there is none."""
    problem = adapter_type_problem(adapter_type)
    if problem is not None:
        raise StoreError(problem)
    folder = javascript_dir() / adapter_type
    try:
        payload = json.loads((folder / REGISTRATION_FILE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise StoreError(f"no JavaScript parser is registered as {adapter_type!r}") from None
    except (OSError, ValueError) as error:
        raise StoreError(f"cannot read {folder / REGISTRATION_FILE}: {error}") from None
    return _from_json(payload, folder)


def registrations() -> tuple[list[Registration], list[str]]:
    """Every readable registration (by adapter type), and why others were skipped."""
    root = javascript_dir()
    found: list[Registration] = []
    skipped: list[str] = []
    try:
        folders = sorted(entry for entry in root.iterdir() if entry.is_dir())
    except OSError:
        return [], []
    for folder in folders:
        if folder.name.startswith("."):
            continue  # a registration being written
        try:
            found.append(read_registration(folder.name))
        except StoreError as error:
            skipped.append(str(error))
    return found, skipped


def verified_module(registration: Registration) -> str:
    """The copied ui-parser module's text, once every copied file matches its hash."""
    package = registration.folder / "package"
    for relative, expected in sorted(registration.files.items()):
        if relative.startswith(("/", "\\")) or ".." in relative.replace("\\", "/").split("/"):
            raise StoreError(f"{relative} leads outside the registration's folder")
        try:
            data = (package / relative).read_bytes()
        except OSError as error:
            raise StoreError(f"the copy of {relative} cannot be read: {error}") from None
        if _digest(data) != expected:
            raise StoreError(
                f"the copy of {relative} changed since it was registered (SHA-256 mismatch)"
            )
    if registration.module_path not in registration.files:
        raise StoreError(f"{registration.module_path} is not among the registered files")
    return (package / registration.module_path).read_text(encoding="utf-8")


def save_registration(adapter_type: str, package: UiParserPackage, source: str) -> Registration:
    """Copy the package's files into the store and record them; replaces an older registration."""
    import os
    import shutil
    import tempfile
    from datetime import UTC, datetime

    root = javascript_dir()
    root.mkdir(parents=True, exist_ok=True)
    module = package.module_source.encode("utf-8")
    files = {"package.json": package.package_json, package.module_path: module}
    staging = Path(tempfile.mkdtemp(prefix=f".{adapter_type}-", dir=root))
    try:
        for relative, data in files.items():
            target = staging / "package" / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        registration = Registration(
            adapter_type=adapter_type,
            package=package.name,
            version=package.version,
            description=package.description,
            contract=package.contract,
            export=package.export,
            module_path=package.module_path,
            source=source,
            added=datetime.now(UTC).isoformat(timespec="seconds"),
            files={relative: _digest(data) for relative, data in files.items()},
            folder=root / adapter_type,
        )
        (staging / REGISTRATION_FILE).write_text(
            json.dumps(registration.to_json(), indent=2) + "\n", encoding="utf-8"
        )
        final = root / adapter_type
        if final.exists():
            shutil.rmtree(final)
        os.replace(staging, final)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return registration


def remove_registration(adapter_type: str) -> Registration:
    """Delete a registration and its copied files; raises :class:`StoreError` when absent."""
    import shutil

    registration = read_registration(adapter_type)
    shutil.rmtree(registration.folder)
    return registration
