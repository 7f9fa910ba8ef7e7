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

The wheel records what it built in ``<package>/_compiled.json`` (the modules,
and when they are pure Python, why), which ``linewise doctor`` and ``linewise
--version`` report: pip hides a build's warnings.

``types-from`` maps a requirement to a source folder, relative to the project
(the host and the plugins import linewise_contracts): mypyc reads the types
there, from a checkout (``pip install ./contracts ./host`` builds each project
in place, before anything is installed). Without that folder (an sdist on its
own), the requirement becomes a build dependency, installed where pip installs
the build's tools, from the same index or ``--find-links`` as the rest.

This file is copied into every compiled distribution (the host, the contracts,
the Claude and Codex plugins) so that each sdist builds on its own; the copies
are identical (tests/host/test_compiled_path.py).
"""

from __future__ import annotations

import contextlib
import io
import json
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

    def _type_sources(self) -> dict[str, Path]:
        """{requirement: its source folder}, from ``types-from``."""
        sources = self.config.get("types-from", {})
        return {str(req): Path(self.root, str(folder)).resolve() for req, folder in sources.items()}

    def dependencies(self) -> list[str]:
        if _pure_requested():
            return []
        missing = [req for req, folder in self._type_sources().items() if not folder.is_dir()]
        return [*MYPYC_REQUIREMENTS, *missing]

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        modules = [str(path) for path in self.config.get("compile", [])]
        if version == "editable" or not modules:
            return
        work = Path(tempfile.mkdtemp(prefix="linewise-mypyc-"))
        self._work = work
        record: dict[str, Any] = {
            "distribution": self.metadata.name,
            "modules": [_module_name(module) for module in modules],
            "compiled": False,
            "reason": None,
        }
        if _pure_requested():
            record["reason"] = "LINEWISE_PURE_PYTHON was set when the wheel was built"
        else:
            try:
                built = self._compile(modules, work)
            except (Exception, SystemExit) as error:  # mypyc exits on a type error
                record["reason"] = f"mypyc could not compile it when the wheel was built: {error}"
                self.app.display_warning(
                    f"{self.metadata.name}: mypyc could not compile the hot modules "
                    f"({error}); building a pure-Python wheel"
                )
            else:
                record["compiled"] = True
                build_data["pure_python"] = False
                build_data["infer_tag"] = True
                build_data["force_include"].update(built)
                self.app.display_info(
                    f"{self.metadata.name}: compiled {len(modules)} modules with mypyc"
                )
        package = record["modules"][0].split(".")[0]
        record_file = work / "_compiled.json"
        record_file.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        build_data["force_include"][str(record_file)] = f"{package}/_compiled.json"

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)

    def _compile(self, modules: list[str], work: Path) -> dict[str, str]:
        """Build the extensions under ``work``; returns {built file: path in the wheel}."""
        from mypyc.build import mypycify
        from setuptools import Distribution  # type: ignore[import-untyped]

        group = self.metadata.name.replace("-", "_")
        # A config of the hook's own: never the checkout's (its strict settings would
        # reject code whose imports cannot be followed); the other distributions'
        # types from their source folders where there are any (else as installed
        # in the build environment, else Any: a little less speed, never wrong code).
        # The modules not compiled are read for their types only.
        config = work / "mypy.ini"
        paths = [str(folder) for folder in self._type_sources().values() if folder.is_dir()]
        config.write_text(f"[mypy]\nmypy_path = {os.pathsep.join(paths)}\n", encoding="utf-8")
        said = io.StringIO()
        try:
            with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
                extensions = mypycify(
                    [
                        f"--config-file={config}",
                        "--ignore-missing-imports",
                        "--follow-imports=silent",
                        "--no-warn-return-any",
                        "--no-warn-unused-ignores",
                        *modules,
                    ],
                    opt_level="3",
                    target_dir=str(work / "c"),
                    group_name=group,
                )
        except (Exception, SystemExit) as error:
            raise RuntimeError(_said(error, said.getvalue())) from error
        distribution = Distribution({"name": group, "ext_modules": extensions})
        command = distribution.get_command_obj("build_ext")
        command.build_lib = str(work / "lib")
        command.build_temp = str(work / "temp")
        command.ensure_finalized()
        try:
            command.run()
        except (Exception, SystemExit) as error:
            failed = f"{type(error).__name__}: {error}"
            raise RuntimeError(f"the C compiler failed ({failed})") from error
        lib = work / "lib"
        built = {
            str(path): path.relative_to(lib).as_posix() for path in lib.rglob("*") if path.is_file()
        }
        if len(built) < len(modules):
            raise RuntimeError(
                f"expected at least {len(modules)} extension files, found {len(built)}"
            )
        return built


def _module_name(path: str) -> str:
    """``src/linewise/stream/lines.py`` -> ``linewise.stream.lines``."""
    return path.removeprefix("src/").removesuffix(".py").replace("/", ".")


def _said(error: BaseException, output: str) -> str:
    """What mypy said when it stopped (its first errors), else the error itself."""
    errors = [line for line in output.splitlines() if ": error:" in line]
    if errors:
        more = f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""
        return "type errors: " + "; ".join(errors[:3]) + more
    return f"{type(error).__name__}: {error}"
