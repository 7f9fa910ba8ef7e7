"""The compiled hot path (mypyc, built by each distribution's hatch_build.py) and its fallback.

A wheel of linewise-contracts, linewise, linewise-claude or linewise-codex
carries C extensions of its hot modules where mypyc and a C compiler work, and
is pure Python where they do not; editable installs are always pure. Both
paths must give the same output, byte for byte, on every real log.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import pytest
from support import CORPUS, REPO

sys.path.insert(0, str(REPO / "benchmarks"))
from compiled_build import COMPILED, NotCompiled, build_compiled, build_wheels

SCRIPT = Path(sys.executable).with_name("linewise")
_HOOK = "hatch_build.py"


def _compile_list(folder: str) -> list[str]:
    project = tomllib.loads((REPO / folder / "pyproject.toml").read_text(encoding="utf-8"))
    return project["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]["compile"]


def test_every_compiled_distribution_builds_with_the_same_hook() -> None:
    hooks = {folder: (REPO / folder / _HOOK).read_bytes() for folder in COMPILED}
    assert len(set(hooks.values())) == 1, "the hatch_build.py copies differ: copy host's to all"
    for folder in COMPILED:
        modules = _compile_list(folder)
        assert modules, folder
        for module in modules:
            assert (REPO / folder / module).is_file(), f"{folder} compiles a missing {module}"


def test_the_host_compiles_the_stream_package_the_run_fold_and_the_jsonl_writer() -> None:
    """The hot path (ARCHITECTURE.md): every stream module, the one fold every entry goes
    through (``transcript/fold.py``) and the JSON Lines writer that writes every entry of
    ``render -f jsonl`` (``render/jsonl.py``), nothing else.

    The stream's ``__init__.py`` holds only the package's docstring: nothing in it to compile.
    """
    stream = REPO / "host" / "src" / "linewise" / "stream"
    modules = sorted(path.name for path in stream.glob("*.py") if path.name != "__init__.py")
    assert _compile_list("host") == [
        *(f"src/linewise/stream/{name}" for name in modules),
        "src/linewise/transcript/fold.py",
        "src/linewise/render/jsonl.py",
    ]
    init = (stream / "__init__.py").read_text(encoding="utf-8")
    assert init.count("\n") == 1
    assert init.startswith('"""')


def test_the_hook_compiles_with_the_mypy_the_workspace_locks() -> None:
    lock = (REPO / "uv.lock").read_text(encoding="utf-8")
    locked = re.search(r'\[\[package\]\]\nname = "mypy"\nversion = "([^"]+)"', lock)
    assert locked is not None
    assert f'"mypy=={locked.group(1)}"' in (REPO / "host" / _HOOK).read_text(encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("setting", "warned"),
    [({"CC": "/bin/false"}, True), ({"LINEWISE_PURE_PYTHON": "1"}, False)],
    ids=["no-working-c-compiler", "pure-on-request"],
)
def test_without_a_compiler_the_wheels_are_pure_python_and_work(
    tmp_path: Path, setting: dict[str, str], warned: bool
) -> None:
    wheels = build_wheels(tmp_path / "wheels", {**os.environ, **setting})
    for folder, (wheel, log) in wheels.items():
        assert wheel.name.endswith("-py3-none-any.whl"), folder
        with zipfile.ZipFile(wheel) as archive:
            assert not [name for name in archive.namelist() if name.endswith(".so")], folder
            archive.extractall(
                tmp_path / "site", [n for n in archive.namelist() if ".dist-info/" not in n]
            )
        assert ("building a pure-Python wheel" in log) is warned, log[-2000:]
    sample = REPO / "examples" / "claude-sample.jsonl"
    command = [str(SCRIPT), "render", str(sample), "-f", "jsonl"]
    from_wheels = _run(command, tmp_path / "site")
    assert from_wheels.returncode == 0, from_wheels.stderr
    assert from_wheels.stdout == _run(command, None).stdout
    # pip hides the build's warning: --version says what the wheels are, and why.
    version = _run([str(SCRIPT), "--version"], tmp_path / "site").stdout.decode()
    why = "mypyc could not compile it" if warned else "LINEWISE_PURE_PYTHON was set"
    for folder in COMPILED:
        project = tomllib.loads((REPO / folder / "pyproject.toml").read_text(encoding="utf-8"))
        line = next(
            line
            for line in version.splitlines()[1:]
            if line.split()[0] == project["project"]["name"]
        )
        assert f"pure Python, because {why}" in line, version


def test_editable_installs_are_pure_python() -> None:
    """`uv sync` installs the workspace editable (its hook ran, with a compiler, in .ci/run):
    the modules the hook compiles for wheels are imported from their sources here."""
    import importlib

    for folder in COMPILED:
        for module in _compile_list(folder):
            name = module.removeprefix("src/").removesuffix(".py").replace("/", ".")
            loaded = importlib.import_module(name)
            assert loaded.__file__ == str(REPO / folder / module), name


def _missing_toolchain() -> str | None:
    """What this machine lacks to compile with mypyc (a C compiler, Python's headers), or None."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler {compiler!r}"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "no Python headers (Python.h)"
    return None


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("compiled")
    try:
        extensions = build_compiled(out)
    except NotCompiled as error:
        missing = _missing_toolchain()
        if missing is not None:
            pytest.skip(f"mypyc cannot compile here ({missing}): only the pure path exists")
        # A C compiler and the headers are here: a wheel that came out pure is a bug (a name
        # mypyc cannot write in C, a type mypyc refuses), not this machine's limit.
        pytest.fail(f"a C compiler and Python's headers are here, yet: {error}")
    for folder in COMPILED:
        for module in _compile_list(folder):
            stem = module.removeprefix("src/").removesuffix(".py")
            assert any(name.startswith(stem + ".") for name in extensions), stem
    return out


def _run(command: list[str], pythonpath: Path | None) -> subprocess.CompletedProcess[bytes]:
    environ = {**os.environ, "LINEWISE_CACHE_DIR": ""}
    environ.pop("PYTHONPATH", None)
    if pythonpath is not None:
        environ["PYTHONPATH"] = str(pythonpath)
    return subprocess.run(command, capture_output=True, env=environ, check=False, timeout=600)


@pytest.mark.slow
def test_the_compiled_modules_are_the_ones_imported(compiled: Path) -> None:
    modules = [
        module.removeprefix("src/").removesuffix(".py").replace("/", ".")
        for folder in COMPILED
        for module in _compile_list(folder)
    ]
    probe = "import importlib, sys\nfor name in sys.argv[1:]: print(importlib.import_module(name).__file__)"
    done = _run([sys.executable, "-c", probe, *modules], compiled)
    files = done.stdout.decode().split()
    assert len(files) == len(modules), done.stderr
    assert all(name.endswith(".so") and name.startswith(str(compiled)) for name in files), files


def _samples() -> list[Path]:
    return sorted(REPO.glob("plugins/*/src/*/samples/*.*")) + sorted(REPO.glob("examples/*.*"))


def _inputs() -> list[Path]:
    """Every bundled sample, then every real log and session file of the corpus (if present)."""
    found = _samples()
    for folder in ("real-logs", "real-sessions"):
        found += sorted(
            path
            for path in (CORPUS / folder).rglob("*")
            if path.is_file() and path.suffix in (".jsonl", ".json", ".txt", ".log")
        )
    return found


@pytest.mark.slow
@pytest.mark.parametrize(
    "style",
    [
        ["-f", "jsonl"],
        ["-f", "text", "--color", "never", "--full", "--thinking"],
        ["-f", "text", "--style", "compact", "--color", "never"],
    ],
    ids=["jsonl", "text", "compact"],
)
def test_the_compiled_and_pure_paths_render_every_log_alike(
    compiled: Path, style: list[str]
) -> None:
    inputs = _inputs()
    assert inputs
    command = [str(SCRIPT), "render", *map(str, inputs), "--jobs", "1", *style]
    pure = _run(command, None)
    fast = _run(command, compiled)
    assert fast.returncode == pure.returncode, fast.stderr[-2000:]
    assert fast.stderr == pure.stderr
    assert len(fast.stdout) > 1000
    assert fast.stdout == pure.stdout


@pytest.mark.slow
def test_the_compiled_and_pure_paths_draw_the_samples_alike_in_html(compiled: Path) -> None:
    # One page (and process) per log, so the bundled samples only: the HTML view is drawn
    # by modules that are not compiled, from the entries and totals the tests above compare.
    for log in _inputs()[: len(_samples())]:
        command = [str(SCRIPT), "render", str(log), "-f", "html"]
        pure = _run(command, None)
        fast = _run(command, compiled)
        assert (fast.returncode, fast.stderr) == (pure.returncode, pure.stderr), log
        assert fast.stdout == pure.stdout, log
