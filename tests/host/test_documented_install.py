"""The install the README documents, built as a user builds it, compiles what it promises.

Every distribution is built into a wheel folder with plain pip, in pip's
isolated build environments (as `pip install ./contracts ./host ./plugins/*/`
builds them; the build tools come from the package index, the only step that
needs it). A fresh venv then installs `linewise[all]` from that folder alone,
offline, and `linewise doctor` and `linewise --version` must report every
module the pyproject files compile as compiled, or say why not.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import venv
from pathlib import Path

import pytest
from support import REPO

pytestmark = pytest.mark.slow

#: The distributions whose wheels carry mypyc-compiled modules.
COMPILED = {
    "linewise-contracts": "contracts",
    "linewise": "host",
    "linewise-claude": "plugins/claude",
    "linewise-codex": "plugins/codex",
}


def _members() -> list[str]:
    root = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    return list(root["tool"]["uv"]["workspace"]["members"])


def _name(folder: str) -> str:
    project = tomllib.loads((REPO / folder / "pyproject.toml").read_text(encoding="utf-8"))
    return str(project["project"]["name"])


def _compile_list(folder: str) -> list[str]:
    project = tomllib.loads((REPO / folder / "pyproject.toml").read_text(encoding="utf-8"))
    paths = project["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]["compile"]
    return [path.removeprefix("src/").removesuffix(".py").replace("/", ".") for path in paths]


def _can_compile() -> str | None:
    """Why mypyc cannot build C extensions here (None when a compiler and headers exist)."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(os.environ.get("CC", compiler).split()[0]) is None:
        return f"no C compiler ({compiler}) on PATH"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "no Python headers (Python.h)"
    return None


def _pip(python: Path, *args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    environ = {key: value for key, value in os.environ.items() if not key.startswith("PIP_")}
    environ.pop("PYTHONPATH", None)
    environ["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return subprocess.run(
        [str(python), "-m", "pip", *args],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        check=False,
        timeout=1800,
    )


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Wheels of every distribution and of their dependencies, built by pip in isolation."""
    folder = tmp_path_factory.mktemp("dist")
    built = _pip(
        Path(sys.executable),
        "wheel",
        "--wheel-dir",
        str(folder),
        *(f"./{member}" for member in _members()),
    )
    said = built.stdout + built.stderr
    if built.returncode != 0 and (
        "No matching distribution found for hatchling" in said or "NewConnectionError" in said
    ):
        pytest.skip(f"pip cannot reach a package index for the build tools:\n{said[-800:]}")
    assert built.returncode == 0, said[-4000:]
    return folder


@pytest.fixture(scope="module")
def user_install(wheels: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with `pip install --no-index --find-links dist/ "linewise[all]"`."""
    target = tmp_path_factory.mktemp("venv")
    venv.create(target, with_pip=True)
    python = target / "bin" / "python"
    done = _pip(python, "install", "--no-index", "--find-links", str(wheels), "linewise[all]")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return target


def _linewise(install: Path, *args: str) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "LINEWISE_CACHE_DIR": ""}
    environ.pop("PYTHONPATH", None)
    return subprocess.run(
        [str(install / "bin" / "linewise"), *args],
        capture_output=True,
        text=True,
        env=environ,
        check=False,
        timeout=300,
    )


def test_doctor_on_the_documented_install_reports_every_compiled_module(
    user_install: Path,
) -> None:
    done = _linewise(user_install, "doctor", "--json")
    assert done.returncode in (0, 1), done.stderr  # 1: an agent CLI here cannot run
    hot = {status["distribution"]: status for status in json.loads(done.stdout)["hotPath"]}
    assert set(hot) >= set(COMPILED), hot
    cannot = _can_compile()
    for name, folder in COMPILED.items():
        status = hot[name]
        assert status["modules"] == _compile_list(folder), name
        if cannot is None:
            assert status["state"] == "compiled", (name, status["reason"])
            assert status["compiled"] == status["modules"], name
        else:
            # Without a compiler the wheels are pure Python, and doctor says why.
            assert status["state"] == "pure Python", name
            assert "mypyc could not compile" in status["reason"], status
    text = _linewise(user_install, "doctor").stdout
    for name in COMPILED:
        line = next(line for line in text.splitlines() if line.strip().startswith(name + " "))
        assert ("compiled (" in line) is (cannot is None), line


def test_version_says_whether_the_hot_path_is_compiled(user_install: Path) -> None:
    done = _linewise(user_install, "--version")
    assert done.returncode == 0, done.stderr
    first, *lines = done.stdout.splitlines()
    assert first.startswith("linewise ")
    shown = {line.split()[0]: line for line in lines}
    for name, folder in COMPILED.items():
        count = len(_compile_list(folder))
        expected = f"compiled ({count} module{'' if count == 1 else 's'})"
        if _can_compile() is None:
            assert expected in shown[name], shown
        else:
            assert "pure Python, because" in shown[name], shown


def test_the_documented_install_renders_the_sample_and_leaves_out_hypothesis(
    user_install: Path,
) -> None:
    sample = REPO / "examples" / "claude-sample.jsonl"
    done = _linewise(user_install, "render", str(sample), "-f", "jsonl")
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) >= 10
    # The fuzzing of `linewise check` is an extra (linewise[check]), not an everyday install.
    probe = subprocess.run(
        [str(user_install / "bin" / "python"), "-c", "import hypothesis"],
        capture_output=True,
        check=False,
    )
    assert probe.returncode != 0
    # `linewise check` says what to install for its fuzzing, and the plugin's other checks pass.
    check = _linewise(user_install, "check", "claude_local")
    assert "hypothesis is not installed: pip install 'linewise-contracts[testing]'" in check.stdout
    assert check.returncode == 0, check.stdout[-3000:]


@pytest.mark.parametrize("folder", _members())
def test_each_distribution_installs_alone_from_the_wheel_folder(
    wheels: Path, user_install: Path, folder: str
) -> None:
    done = _pip(
        user_install / "bin" / "python",
        "install",
        "--dry-run",
        "--ignore-installed",
        "--no-index",
        "--find-links",
        str(wheels),
        _name(folder),
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "Would install" in done.stdout
