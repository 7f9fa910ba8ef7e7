"""Wheel build hook: the distribution's hot modules compiled with mypyc, or pure Python.

The modules listed under ``compile`` in ``[tool.hatch.build.targets.wheel.hooks.custom]``
are compiled with mypyc into C extensions that ship beside their ``.py``
sources; Python imports an extension before a source file of the same name,
so the compiled module is the one used. The ``.py`` files stay in the wheel
and are the same code.

The pure-Python wheel is the fallback, never an error: when mypyc or a C
compiler (or the Python headers) is missing or fails, the hook warns and the
wheel is built without extensions. Editable installs (``uv sync``, ``pip
install -e``) are always pure Python, so a source edit takes effect at once,
and ``LINEWISE_PURE_PYTHON=1`` builds a pure wheel on purpose.

This file is copied into every compiled distribution (the host, the contracts,
the Claude and Codex plugins) so that each sdist builds on its own; the copies
are identical (tests/test_build_hooks.py).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: The mypy whose mypyc compiles the modules (the one the workspace type-checks with).
MYPYC_REQUIREMENTS = ["mypy==2.4.1", "setuptools>=70"]


def _pure_requested() -> bool:
    return os.environ.get("LINEWISE_PURE_PYTHON", "") not in ("", "0")


class MypycBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compiles ``compile`` (paths relative to the project root) into the wheel."""

    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        return [] if _pure_requested() else list(MYPYC_REQUIREMENTS)

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        modules = [str(path) for path in self.config.get("compile", [])]
        if version == "editable" or not modules or _pure_requested():
            return
        work = Path(tempfile.mkdtemp(prefix="linewise-mypyc-"))
        try:
            built = self._compile(modules, work)
        except (Exception, SystemExit) as error:  # mypyc exits on a type error
            shutil.rmtree(work, ignore_errors=True)
            self.app.display_warning(
                f"{self.metadata.name}: mypyc could not compile the hot modules "
                f"({type(error).__name__}: {error}); building a pure-Python wheel"
            )
            return
        self._work = work
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        build_data["force_include"].update(built)
        self.app.display_info(f"{self.metadata.name}: compiled {len(modules)} modules with mypyc")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)

    def _compile(self, modules: list[str], work: Path) -> dict[str, str]:
        """Build the extensions under ``work``; returns {built file: path in the wheel}."""
        from mypyc.build import mypycify
        from setuptools import Distribution  # type: ignore[import-untyped]

        group = self.metadata.name.replace("-", "_")
        # Other distributions of the workspace are not installed in an isolated
        # build: their types count as Any (a little less speed, never wrong code);
        # the modules not compiled are read for their types only.
        extensions = mypycify(
            [
                "--ignore-missing-imports",
                "--follow-imports=silent",
                "--no-warn-return-any",
                *modules,
            ],
            opt_level="3",
            target_dir=str(work / "c"),
            group_name=group,
        )
        distribution = Distribution({"name": group, "ext_modules": extensions})
        command = distribution.get_command_obj("build_ext")
        command.build_lib = str(work / "lib")
        command.build_temp = str(work / "temp")
        command.ensure_finalized()
        command.run()
        lib = work / "lib"
        built = {
            str(path): path.relative_to(lib).as_posix() for path in lib.rglob("*") if path.is_file()
        }
        if len(built) < len(modules):
            raise RuntimeError(
                f"expected at least {len(modules)} extension files, found {len(built)}"
            )
        return built
